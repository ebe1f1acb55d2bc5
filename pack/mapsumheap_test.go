package pack

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestBoundHeap: a one-off map with a summary bounds the heap at
// sumHeapLimit and a fallback lifts it; nothing is bounded in a server
// (not one-off), for a tree of more than sumBoundFiles files, or when
// the process has a limit of its own (which stays as it was).
func TestBoundHeap(t *testing.T) {
	was := oneOff.Load()
	defer func() { oneOff.Store(was); unboundHeap(); debug.SetMemoryLimit(math.MaxInt64) }()
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	oneOff.Store(false)
	if boundHeap(10); limit() != math.MaxInt64 {
		t.Fatalf("a server's map set a limit of %d", limit())
	}
	oneOff.Store(true)
	if boundHeap(sumBoundFiles + 1); limit() != math.MaxInt64 {
		t.Fatalf("a map of %d files set a limit of %d", sumBoundFiles+1, limit())
	}
	if boundHeap(10); limit() != sumHeapLimit {
		t.Fatalf("limit %d after a one-off map's boundHeap, want %d", limit(), sumHeapLimit)
	}
	if unboundHeap(); limit() != math.MaxInt64 {
		t.Fatalf("limit %d after unboundHeap, want none", limit())
	}
	debug.SetMemoryLimit(1 << 40) // the user's (GOMEMLIMIT)
	boundHeap(10)
	unboundHeap()
	if limit() != 1<<40 {
		t.Fatalf("the process's own limit became %d", limit())
	}
}
