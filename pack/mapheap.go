package pack

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"

	"github.com/acode-lsp/acode-lsp/internal/memtune"
)

// A first map of a large tree holds, as its walk goes, the facts of every
// file it read (≈ 5 KB a file), and the one-shot pacing
// (cmd/acode-lsp/gctune.go: the heap grows by as much as is live) let
// the heap reach twice that: on the 100K-file tree 1.04 GB in use at the
// walk's end for 0.52 GB live (docs/benchmarks.md, "ninth pass, ids12").
// boundWalk sets a soft limit of the process's memory that follows the
// live heap, walkRoom above it, set again after each collection, for the
// rest of such a pack: in a process that makes one pack (OneOff), whose
// walk reads walkBoundFiles files or more, with no limit of its own
// (GOMEMLIMIT) nor boundHeap's. The collector then runs when the heap
// has grown by walkRoom, not by as much as is live: more collections,
// a smaller peak.
const (
	// walkBoundFiles is the fewest files a walk reads for boundWalk to
	// bound its heap (Go's src, 11,500 files, is left alone).
	walkBoundFiles = 32 << 10
	// walkRoomMin is the least room boundWalk leaves above the live heap;
	// walkRoomShare the share of the live heap it leaves when that is
	// more (1/walkRoomShare).
	walkRoomMin   = 64 << 20
	walkRoomShare = 4
)

// walkBound: boundWalk set the limit (it stays for the process; a test
// lifts it by clearing walkBound and the limit).
var walkBound atomic.Bool

// boundWalk bounds the heap of the rest of a one-shot pack whose map's
// walk reads files files (above).
func boundWalk(files int) {
	if !oneOff.Load() || files < walkBoundFiles || heapBound.Load() || walkBound.Load() || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return
	}
	walkBound.Store(true)
	setWalkLimit()
	armWalkLimit()
}

// walkRoom is the room boundWalk leaves above a live heap of live bytes.
func walkRoom(live uint64) uint64 {
	return max(walkRoomMin, live/walkRoomShare)
}

// setWalkLimit sets the limit from the live heap of the last collection,
// unless boundHeap's limit (a map summary's) took over.
func setWalkLimit() {
	if heapBound.Load() {
		return
	}
	live := memtune.LiveHeap()
	debug.SetMemoryLimit(int64(min(live+walkRoom(live), math.MaxInt64/2)))
}

// armWalkLimit sets the limit again after the next collection, and arms
// itself again: a finalizer runs once after the collection that finds its
// object unreachable.
func armWalkLimit() {
	s := new([16]byte)
	runtime.SetFinalizer(s, func(*[16]byte) {
		if walkBound.Load() {
			setWalkLimit()
			armWalkLimit()
		}
	})
}
