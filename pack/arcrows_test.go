package pack

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// arcRowsByEvents is arcRows as it was before rows were made one at a
// time (every share an event, each row's events sorted by target, then
// by the order they came in): the reference arcRows must equal bit for
// bit.
func arcRowsByEvents(refs, definers rows) (start []int, to []int32, w []float64) {
	n := refs.n()
	each := func(fn func(f, g int32, d int)) {
		for f := range n {
			for _, k := range refs.row(f) {
				d := definers.row(int(k))
				for _, g := range d {
					if int(g) != f {
						fn(int32(f), g, len(d))
					}
				}
			}
		}
	}
	count := make([]int, n+1)
	each(func(f, g int32, _ int) { count[f+1]++; count[g+1]++ })
	cumulate(count)
	events := make([]uint64, count[n])
	fill := slices.Clone(count[:n])
	each(func(f, g int32, d int) {
		events[fill[f]] = uint64(g)<<35 | uint64(fill[f]-count[f])<<3 | uint64(d-1)
		fill[f]++
		events[fill[g]] = uint64(f)<<35 | uint64(fill[g]-count[g])<<3 | 4 | uint64(d-1)
		fill[g]++
	})
	start = make([]int, n+1)
	for f := range n {
		row := events[count[f]:count[f+1]]
		slices.Sort(row)
		k := 0
		for i, e := range row {
			if i == 0 || e>>35 != row[i-1]>>35 {
				k++
			}
		}
		start[f+1] = start[f] + k
	}
	to, w = make([]int32, start[n]), make([]float64, start[n])
	for f := range n {
		sumRow(events[count[f]:count[f+1]], to[start[f]:start[f+1]], w[start[f]:start[f+1]])
	}
	return start, to, w
}

// TestArcRowsSameAsEvents: on random inputs (few and many files, names
// of one to four definers, files using names they define, repeated uses,
// files without uses), arcRows' rows are the reference's, every weight
// bit for bit. A row summed in another order than the uses' (the back
// shares of an arc before its own, say) differs in the last bits of some
// weights and fails it.
func TestArcRowsSameAsEvents(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 60 {
		files, names, uses := 2+r.IntN(40), 1+r.IntN(30), r.IntN(25)
		if trial%10 == 9 {
			files, names, uses = 3000, 2000, 60
		}
		refs, definers := randomArcInput(r, files, names, uses)
		s1, to1, w1 := arcRows(refs, definers)
		s2, to2, w2 := arcRowsByEvents(refs, definers)
		if !slices.Equal(s1, s2) || !slices.Equal(to1, to2) {
			t.Fatalf("trial %d: rows differ: start %v / %v", trial, s1[:min(8, len(s1))], s2[:min(8, len(s2))])
		}
		for k := range w1 {
			if math.Float64bits(w1[k]) != math.Float64bits(w2[k]) {
				t.Fatalf("trial %d: weight %d is %v, reference %v", trial, k, w1[k], w2[k])
			}
		}
	}
}
