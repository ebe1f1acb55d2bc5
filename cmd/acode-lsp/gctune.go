package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/acode-lsp/acode-lsp/internal/memtune"
)

// GC tuning of the one-shot commands (issue 24, warm7). A warm pack is a
// short process whose live heap stays small (Go's src: under 30 MB; the
// 100,000-file tree: under 70 MB) while it allocates several times that:
// at Go's default (GOGC=100) the collector ran 8 times in a warm pack of
// Go's src and 12 times in one of the 100K tree, most of them while the
// heap was a few megabytes. A one-shot command instead lets its heap grow
// by heapRoom above the live heap of the last collection, or by the live
// heap itself (GOGC=100) when that is larger: fewer collections while the
// heap is small, the default pacing once it is large, so the resident set
// grows by at most heapRoom. GOGC or GOMEMLIMIT, when set, are the user's
// and left alone. The servers (serve, mcp) keep the default and their own
// soft limit (mcp/memory.go).
//
// heapRoom was 64 MB (warm7). At 48 MB a warm pack of Go's src still
// collects twice (at 32 MB 3–4 times, for 0.05–0.1 s more CPU), while the
// first query pack of Go's src, whose chunking stacks tree-sitter's C heap
// on a live Go heap of ~40 MB, peaks ~10 MB lower (docs/benchmarks.md,
// "The first query pack's memory (eighth pass, first11)").
const heapRoom = 48 << 20

// tuneGC applies the tuning above for the rest of the process.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(gcPercent(0))
	armGCTuner()
}

// gcPercent is the GOGC that lets a live heap of live bytes grow by
// max(heapRoom, live) before the next collection (the runtime's least
// heap, 4 MB, stands in for an unknown or smaller live heap).
func gcPercent(live uint64) int {
	const least = 4 << 20
	live = max(live, least)
	return int(max(100, heapRoom*100/live))
}

// armGCTuner sets GOGC again after the next collection, from its live
// heap, and arms itself again: a finalizer runs once after the
// collection that finds its object unreachable.
func armGCTuner() {
	s := new([16]byte)
	runtime.SetFinalizer(s, func(*[16]byte) {
		debug.SetGCPercent(gcPercent(memtune.LiveHeap()))
		armGCTuner()
	})
}
