package pack

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkArcRows is arcRows over a synthetic graph of a 100K-file
// tree's shape: 100,000 files, 200,000 names of 1 to 4 definers, 40 uses
// of them per file (≈ 5 M shares).
func BenchmarkArcRows(b *testing.B) {
	refs, definers := randomArcInput(rand.New(rand.NewPCG(1, 2)), 100_000, 200_000, 40)
	b.ReportAllocs()
	for b.Loop() {
		arcRows(refs, definers)
	}
}

// randomArcInput is a random graph input of files files, names names of
// 1 to 4 definers (rising, distinct) and up to uses uses per file.
func randomArcInput(r *rand.Rand, files, names, uses int) (refs, definers rows) {
	definers.start, refs.start = []int{0}, []int{0}
	for range names {
		d := make([]int32, 1+r.IntN(4))
		g := r.Int32N(int32(max(1, files-8)))
		for i := range d {
			d[i] = min(g+int32(i)*2, int32(files-1))
		}
		definers.add(uniqRising(d))
	}
	for range files {
		var row []int32
		for range r.IntN(uses + 1) {
			row = append(row, r.Int32N(int32(names)))
		}
		refs.add(row)
	}
	return refs, definers
}

// uniqRising drops the repeats of a rising list.
func uniqRising(d []int32) []int32 {
	out := d[:0]
	for i, g := range d {
		if i == 0 || g != d[i-1] {
			out = append(out, g)
		}
	}
	return out
}
