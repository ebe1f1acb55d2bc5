package pack

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/internal/memtune"
)

// walkSink keeps an allocation live across TestBoundWalk's collections.
var walkSink []byte

// TestBoundWalk: a one-off pack whose map's walk reads walkBoundFiles
// files or more bounds the heap at the live heap and walkRoom above it,
// and follows the live heap as collections find it; nothing is bounded
// in a server (not one-off), for a smaller walk, when the process has a
// limit of its own, or when a map summary's bound is set.
func TestBoundWalk(t *testing.T) {
	was := oneOff.Load()
	defer func() {
		oneOff.Store(was)
		walkBound.Store(false)
		walkSink = nil
		debug.SetMemoryLimit(math.MaxInt64)
	}()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	oneOff.Store(false)
	if boundWalk(walkBoundFiles); limit() != math.MaxInt64 {
		t.Fatalf("a server's walk set a limit of %d", limit())
	}
	oneOff.Store(true)
	if boundWalk(walkBoundFiles - 1); limit() != math.MaxInt64 {
		t.Fatalf("a walk of %d files set a limit of %d", walkBoundFiles-1, limit())
	}
	debug.SetMemoryLimit(1 << 40) // the user's (GOMEMLIMIT)
	if boundWalk(walkBoundFiles); limit() != 1<<40 || walkBound.Load() {
		t.Fatalf("the process's own limit became %d", limit())
	}
	debug.SetMemoryLimit(math.MaxInt64)
	heapBound.Store(true) // a summary's (boundHeap)
	boundWalk(walkBoundFiles)
	heapBound.Store(false)
	if limit() != math.MaxInt64 || walkBound.Load() {
		t.Fatalf("a walk under a summary's bound set a limit of %d", limit())
	}

	runtime.GC()
	boundWalk(walkBoundFiles)
	if live := memtune.LiveHeap(); limit() != int64(live+walkRoom(live)) {
		t.Fatalf("limit %d for a live heap of %d, want %d", limit(), live, live+walkRoom(live))
	}
	before := limit()
	walkSink = make([]byte, 256<<20) // live: the limit rises with it
	deadline := time.Now().Add(10 * time.Second)
	for limit() < before+256<<20 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs after the collection
	}
	// The live heap of the collection the limit followed (another may
	// have run since: the test's own allocations are a few KB).
	if live := memtune.LiveHeap(); limit() < int64(256<<20+walkRoom(256<<20)) || limit() > int64(live+walkRoom(live))+1<<20 {
		t.Fatalf("limit %d after a collection found %d live, want %d", limit(), live, live+walkRoom(live))
	}
	if walkRoom(1<<30) != 1<<30/walkRoomShare || walkRoom(0) != walkRoomMin {
		t.Fatalf("room %d above 1 GiB, %d above none", walkRoom(1<<30), walkRoom(0))
	}
}
