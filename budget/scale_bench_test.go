package budget

import (
	"fmt"
	"strings"
	"testing"
)

// oneFileChunks returns n one-line chunks of one file of 2n lines, at the
// odd lines (no two adjacent, so that selection never joins them), in rank
// order; each line is distinct text.
func oneFileChunks(n int) []*Item {
	var b strings.Builder
	for i := 0; i < 2*n; i++ {
		fmt.Fprintf(&b, "x%d := f(%d)\n", i, i)
	}
	src := NewText(b.String())
	items := make([]*Item, n)
	for i := range items {
		line := 2*i + 1
		items[i] = &Item{Category: OpenFiles, Type: "open_file", Path: "big.go", Source: src, StartLine: line, EndLine: line,
			Content: src.Slice(line, line), Tokens: 5, Score: 1 - float64(i)/float64(n+1), Priority: 80, Seq: i}
	}
	return items
}

// BenchmarkSelectOneFile selects n non-adjacent chunks of one file, all of
// which fit (issue 24: 16,000 of them took 2.5 s when selection re-sorted
// the file's spans on every include). Recorded in docs/benchmarks.md.
func BenchmarkSelectOneFile(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			items := oneFileChunks(n)
			alloc := Allocation{Available: int64(20 * n), Tokens: map[string]int64{OpenFiles: int64(20 * n)}}
			opts := SelectOptions{Redistribute: true, Count: words, Overhead: func(*Item, bool) int { return 3 }}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if sel := Select(items, alloc, opts); len(sel.Selected) != n {
					b.Fatalf("%d selected, want %d", len(sel.Selected), n)
				}
			}
		})
	}
}

// BenchmarkDedupOneFile deduplicates n one-line chunks of one file, plus a
// chunk every 50 lines that overlaps two of them (so merges happen): the
// shape of a file cut with max_chunk_tokens: 1 (issue 24: a 744 KB file
// spent 57 s in dedup when each chunk was compared with every kept one).
func BenchmarkDedupOneFile(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := oneFileChunks(n)
			opts := DedupOptions{Enabled: true, OverlapThreshold: 0.5, MergeOverlapping: true}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				items := make([]*Item, 0, n+n/50)
				for j, it := range base {
					c := *it
					items = append(items, &c)
					if j%50 == 0 && c.EndLine+2 <= c.Source.Lines() {
						o := c
						o.EndLine, o.Seq, o.Score = c.EndLine+2, n+j, c.Score-1e-9
						o.Content = c.Source.Slice(o.StartLine, o.EndLine)
						items = append(items, &o)
					}
				}
				b.StartTimer()
				Dedup(items, opts, words)
			}
		})
	}
}
