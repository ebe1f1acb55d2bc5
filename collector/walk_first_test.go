package collector

import "testing"

// TestFirstIn: the first add of a path reports true, every later one
// false, and other paths are not affected.
func TestFirstIn(t *testing.T) {
	m := map[string]bool{}
	for _, tc := range []struct {
		p    string
		want bool
	}{{"/a", true}, {"/a", false}, {"/b", true}, {"/a", false}, {"/b", false}, {"", true}, {"", false}} {
		if got := firstIn(m, tc.p); got != tc.want {
			t.Fatalf("firstIn(%q) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if len(m) != 3 {
		t.Fatalf("set holds %d paths, want 3", len(m))
	}
}
