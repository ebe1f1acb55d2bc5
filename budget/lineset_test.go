package budget

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLineSet checks the covered-lines set of selection against a plain
// map of lines: runs are the maximal uncovered runs, in line order.
func TestLineSet(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 300; round++ {
		var l lineSet
		set := map[int]bool{}
		limit := 1 + rng.Intn(400)
		for k := 0; k < rng.Intn(12); k++ {
			a := 1 + rng.Intn(limit)
			b := a + rng.Intn(1+rng.Intn(150))
			l.add(a, b)
			for n := a; n <= b; n++ {
				set[n] = true
			}
		}
		a := 1 + rng.Intn(limit)
		b := a + rng.Intn(300)
		var want []span
		for n := a; n <= b; n++ {
			if set[n] {
				continue
			}
			if len(want) > 0 && want[len(want)-1].end == n-1 {
				want[len(want)-1].end = n
			} else {
				want = append(want, span{n, n})
			}
		}
		if diff := cmp.Diff(want, l.runs(a, b), cmp.AllowUnexported(span{})); diff != "" {
			t.Fatalf("round %d: runs(%d, %d) (-want +got):\n%s", round, a, b, diff)
		}
	}
}
