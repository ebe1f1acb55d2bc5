package index

import (
	"math"
	"slices"
	"testing"
)

// TestTermRowIsTerms: TermRow writes, for every file, the row a pack
// fills from Terms' map (each term's count at the term's last place in
// the asked list), misses where Terms misses and leaves the row alone
// then — from pending entries, from a segment after a flush, after a
// reopen, for a file edited since (a miss) and for a forgotten one.
func TestTermRowIsTerms(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 30, 0)
	asks := [][]string{
		{"alpha", "beta", "v0", "nothing"},
		{"gamma", "alpha", "gamma", "w3", "w4"}, // a term asked twice
		{"zeta"},
		{},
	}
	check := func(x *Index, stage string, wantHits int) {
		t.Helper()
		hits := 0
		for _, p := range paths {
			fi := lstat(t, p)
			for _, terms := range asks {
				want := make([]uint16, len(terms))
				_, counts, ok := x.Terms(p, fi, terms)
				for term, c := range counts { // as pack's termRow: the term's last index
					if k := slices.Index(terms, term); k >= 0 {
						k = len(terms) - 1 - slices.Index(reversed(terms), term)
						want[k] = uint16(min(c, math.MaxUint16))
					}
				}
				got := make([]uint16, len(terms))
				for i := range got {
					got[i] = 7 // untouched on a miss
				}
				gotOK := x.TermRow(p, fi, terms, got)
				if gotOK != ok {
					t.Fatalf("%s: %s %q: TermRow %v, Terms %v", stage, p, terms, gotOK, ok)
				}
				if !ok {
					if slices.ContainsFunc(got, func(v uint16) bool { return v != 7 }) {
						t.Fatalf("%s: %s %q: a miss wrote %v", stage, p, terms, got)
					}
					continue
				}
				if len(terms) > 0 {
					hits++
				}
				got = make([]uint16, len(terms)) // a pack's row starts at zero
				x.TermRow(p, fi, terms, got)
				if !slices.Equal(got, want) {
					t.Fatalf("%s: %s %q: TermRow %v, Terms' row %v", stage, p, terms, got, want)
				}
			}
		}
		if hits != wantHits {
			t.Fatalf("%s: %d hits, want %d", stage, hits, wantHits)
		}
	}
	x := openTest(t, root, dir)
	for _, p := range paths {
		put(t, x, p)
	}
	check(x, "pending", 30*3)
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	check(x, "flushed", 30*3)
	x.Close()
	y := openTest(t, root, dir)
	check(y, "reopened", 30*3)
	write(t, paths[0], content(0, 1)+"more\n")
	y.Forget(paths[1])
	check(y, "edited and forgotten", 28*3)
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}
