package pack

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
)

// TestSortByRawIsSort: sortByRaw orders files as one stable sort by raw
// score (descending, ties by path) does, for scores of 0, positive and
// negative, repeated paths and listings in and out of path order.
func TestSortByRawIsSort(t *testing.T) {
	byScore := func(a []*fileScan, score func(*fileScan) float64) {
		slices.SortStableFunc(a, func(x, y *fileScan) int {
			if sx, sy := score(x), score(y); sx != sy {
				if sx > sy {
					return -1
				}
				return 1
			}
			return strings.Compare(x.ref.Path, y.ref.Path)
		})
	}
	rng := rand.New(rand.NewSource(11))
	for round := 0; round < 500; round++ {
		n := rng.Intn(200)
		files := make([]*fileScan, n)
		for i := range files {
			raw := 0.0
			switch rng.Intn(4) {
			case 0:
				raw = float64(rng.Intn(5))
			case 1:
				raw = -float64(rng.Intn(3))
			case 2:
				raw = rng.Float64()
			}
			files[i] = &fileScan{ref: collector.FileRef{Path: fmt.Sprintf("d%d/f%d.go", rng.Intn(5), rng.Intn(n+1))}, raw: raw}
		}
		if round%2 == 0 {
			slices.SortStableFunc(files, func(x, y *fileScan) int { return strings.Compare(x.ref.Path, y.ref.Path) })
		}
		want := append([]*fileScan(nil), files...)
		byScore(want, func(f *fileScan) float64 { return f.raw })
		if got := sortByRaw(files, byScore); !slices.Equal(got, want) {
			t.Fatalf("round %d: sortByRaw differs from the sort", round)
		}
	}
}

// TestInBlocksEachOnce: inBlocks calls fn once for every index below n,
// below, at and above one block and over many blocks, and has returned
// only when all are done.
func TestInBlocksEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, scoreBlock - 1, scoreBlock, scoreBlock + 1, 5*scoreBlock + 7} {
		seen := make([]int32, n)
		inBlocks(n, func(i int) { atomic.AddInt32(&seen[i], 1) })
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: index %d done %d times", n, i, c)
			}
		}
	}
}
