package mcp

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/memtune"
)

// TestMemoryLimit: the soft limit is the live heap plus the headroom, at
// least the floor, none when the live heap is unknown; boundMemory sets it
// from the runtime's live heap, and leaves a user's GOMEMLIMIT alone.
func TestMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, math.MaxInt64},
		{1 << 20, memoryFloor},
		{memoryFloor - memoryHeadroom, memoryFloor},
		{150 << 20, 150<<20 + memoryHeadroom},
		{2 << 30, 2<<30 + memoryHeadroom},
	} {
		if got := memoryLimit(tc.live); got != tc.want {
			t.Errorf("memoryLimit(%d MB) = %d, want %d", tc.live>>20, got, tc.want)
		}
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	defer func(was bool) { userMemoryLimit = was }(userMemoryLimit)

	runtime.GC()
	userMemoryLimit = false
	boundMemory()
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(memtune.LiveHeap()); got != want || memtune.LiveHeap() == 0 {
		t.Errorf("boundMemory set %d, want %d (live heap %d)", got, want, memtune.LiveHeap())
	}
	debug.SetMemoryLimit(12345 << 20) // as GOMEMLIMIT would
	userMemoryLimit = true
	boundMemory()
	if got := debug.SetMemoryLimit(-1); got != 12345<<20 {
		t.Errorf("with GOMEMLIMIT set, boundMemory changed the limit to %d", got)
	}
}
