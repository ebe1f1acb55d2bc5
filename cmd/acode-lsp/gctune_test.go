package main

import "testing"

// TestGCPercent: a small live heap may grow by heapRoom, a large one by
// itself (GOGC=100), never less.
func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1200},       // unknown: the runtime's least heap, 4 MB
		{1 << 20, 1200}, // below the least heap
		{4 << 20, 1200}, // 4 MB + 48 MB
		{16 << 20, 300}, // 16 MB + 48 MB
		{32 << 20, 150}, // 32 + 48
		{36 << 20, 133}, // 36 + 48 (rounded down)
		{heapRoom, 100}, // the default from here on
		{heapRoom + 1, 100},
		{1 << 30, 100},
	} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
		if grow := c.live * uint64(gcPercent(c.live)) / 100; c.live >= 4<<20 && grow < min(heapRoom, c.live)-c.live/100 {
			t.Errorf("live %d MB may grow by %d MB only", c.live>>20, grow>>20)
		}
	}
}
