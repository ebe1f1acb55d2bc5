package budget

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestExactSeenIsSHAMap: exactSeen finds, for each chunk in order, the
// first kept chunk with its NormalizedHash — what a map from every chunk's
// SHA-256 to the first kept chunk found — on texts that differ in white
// space only (runs, tabs, line ends, Unicode spaces, ends), in a word, or
// not at all.
func TestExactSeenIsSHAMap(t *testing.T) {
	words := []string{"func", "Close()", "idle", "conn", "é", "{", "}", "x"}
	spaces := []string{" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2003", " \n\t"}
	rng := rand.New(rand.NewSource(9))
	dups := 0
	for round := 0; round < 300; round++ {
		var bases []string
		for b := 0; b < 1+rng.Intn(4); b++ {
			n := 1 + rng.Intn(8)
			var ws []string
			for i := 0; i < n; i++ {
				ws = append(ws, words[rng.Intn(len(words))])
			}
			bases = append(bases, strings.Join(ws, "\x00"))
		}
		var items []*Item
		for i := 0; i < 2+rng.Intn(30); i++ {
			ws := strings.Split(bases[rng.Intn(len(bases))], "\x00")
			if rng.Intn(8) == 0 {
				ws[rng.Intn(len(ws))] += "y" // another text
			}
			var b strings.Builder
			if rng.Intn(3) == 0 {
				b.WriteString(spaces[rng.Intn(len(spaces))])
			}
			for j, w := range ws {
				if j > 0 {
					b.WriteString(spaces[rng.Intn(len(spaces))])
				}
				b.WriteString(w)
			}
			if rng.Intn(3) == 0 {
				b.WriteString(spaces[rng.Intn(len(spaces))])
			}
			items = append(items, &Item{Content: b.String(), Path: fmt.Sprintf("f%d", i)})
		}
		seen := map[[32]byte]*Item{}
		ex := newExactSeen(len(items))
		for i, it := range items {
			var want *Item
			h := NormalizedHash(it.Content)
			if first, ok := seen[h]; ok {
				want = first
				dups++
			} else {
				seen[h] = it
			}
			if got := ex.first(it); got != want {
				t.Fatalf("round %d, chunk %d %q: duplicate of %v, want %v", round, i, it.Content, got, want)
			}
		}
	}
	if dups < 500 {
		t.Fatalf("only %d duplicates made", dups)
	}
}
