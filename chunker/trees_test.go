package chunker

import (
	"context"
	"testing"
)

// TestLeaveTreesToExit checks the accounting of trees left to the exit:
// sources are left while they fit what remains of the limit, and a source
// over it is freed without using the remainder up; chunks are the same
// either way.
func TestLeaveTreesToExit(t *testing.T) {
	defer LeaveTreesToExit(0)
	src := []byte("package p\n\nfunc A() {}\n\nfunc B() {}\n")
	count := func(s string) int { return len(s) / 4 }
	opts := Options{PreferStructural: true}
	want, err := Split(context.Background(), "a.go", src, count, opts)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(src))
	tests := []struct {
		name  string
		limit int64
		left  int64 // after two splits
	}{
		{"off", 0, 0},
		{"both left", 3 * n, n},
		{"one left, one freed", n + n/2, n / 2},
		{"both freed", n - 1, n - 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			LeaveTreesToExit(tc.limit)
			for i := 0; i < 2; i++ {
				got, err := Split(context.Background(), "a.go", src, count, opts)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) || got[0] != want[0] {
					t.Fatalf("chunks differ: %+v vs %+v", got, want)
				}
			}
			if got := leftBytes.Load(); got != tc.left {
				t.Errorf("left = %d, want %d", got, tc.left)
			}
		})
	}
}
