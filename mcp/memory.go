package mcp

import (
	"math"
	"os"
	"runtime/debug"

	"github.com/acode-lsp/acode-lsp/internal/memtune"
)

// The server's soft memory limit (issue 24, server6). A running server
// holds what its packs keep (the listing, the index's answers, kept files
// and memos: about 100 MB on a 100,000-file tree) and, by Go's default
// (GOGC=100), lets its heap grow to twice that between collections; its
// second pack of a large tree, walking it again while the index writes
// the first pack's entries in the background, took the resident set to
// 320–340 MB. After each pack the server sets a soft limit (Go's
// runtime/debug.SetMemoryLimit) of memoryHeadroom above the live heap of
// the last collection, at least memoryFloor: a server whose live heap is
// below memoryHeadroom (most trees) is not affected, a larger one collects
// sooner and gives memory back to the system instead of doubling. The
// runtime caps the collector's CPU when a heap outgrows its limit, so a
// pack that needs more memory than the limit gets it, at the price of
// more collection. GOMEMLIMIT, when set, is the user's: the server leaves
// the limit alone. This is tuning, the last resort: the memory the server
// keeps was cut first (pack/termmemo.go, missterms.go, pathfacts.go).
const (
	memoryHeadroom = 96 << 20
	memoryFloor    = 192 << 20
)

// userMemoryLimit: the user set GOMEMLIMIT.
var userMemoryLimit = os.Getenv("GOMEMLIMIT") != ""

// boundMemory sets the soft memory limit from the live heap (see above).
func boundMemory() {
	if userMemoryLimit {
		return
	}
	debug.SetMemoryLimit(memoryLimit(memtune.LiveHeap()))
}

// memoryLimit is the soft limit for a live heap of live bytes (0:
// unknown, no limit).
func memoryLimit(live uint64) int64 {
	if live == 0 {
		return math.MaxInt64
	}
	return int64(max(memoryFloor, live+memoryHeadroom))
}
