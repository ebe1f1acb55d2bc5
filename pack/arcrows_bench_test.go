package pack

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkArcRows is arcRows over a synthetic graph of a 100K-file
// tree's shape: 100,000 files, 200,000 names of 1 to 4 definers, 40 uses
// of them per file (≈ 5 M shares).
func BenchmarkArcRows(b *testing.B) {
	const files, names, uses = 100_000, 200_000, 40
	r := rand.New(rand.NewPCG(1, 2))
	definers := make([][]int32, names)
	for k := range definers {
		d := make([]int32, 1+r.IntN(4))
		g := r.Int32N(files - 8)
		for i := range d {
			d[i] = g + int32(i)*2 // rising, distinct
		}
		definers[k] = d
	}
	refs := make([][]int32, files)
	for f := range refs {
		for range uses {
			refs[f] = append(refs[f], r.Int32N(names))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		arcRows(refs, definers)
	}
}
