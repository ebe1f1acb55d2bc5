package pack

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// BenchmarkGraphNetHTTP is the reference graph's cost per pack
// (docs/ranking.md "Reference graph"): graphFactors over the 400-token
// chunks of net/http's Go files — "8K" the files (in path order) whose
// tokens make the file-first target of an 8K pack (8 × 8,000), "all" every
// file (2 MB, a no-query map's scale).
func BenchmarkGraphNetHTTP(b *testing.B) {
	dir := netHTTP(b)
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		b.Fatalf("no Go files in %s: %v", dir, err)
	}
	sort.Strings(names)
	tok, _ := tokenizer.ForEncoding("o200k_base")
	var all []*budget.Item
	var cut, tokens int
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		rel := strings.TrimPrefix(name, dir+"/")
		chunks, err := chunker.Split(context.Background(), rel, data, tok.Count, chunker.Options{MaxTokens: fineChunkTokens, PreferStructural: true})
		if err != nil {
			b.Fatal(err)
		}
		text := budget.NewText(string(data))
		for _, c := range chunks {
			all = append(all, &budget.Item{Path: rel, Name: c.Name, Kind: c.Kind, StartLine: c.StartLine, EndLine: c.EndLine,
				Source: text, Content: c.Content, Tokens: c.Tokens, Seq: len(all)})
			tokens += c.Tokens
		}
		if tokens <= candidateFactor*8000 {
			cut = len(all)
		}
	}
	for _, tc := range []struct {
		name  string
		items []*budget.Item
	}{{"8K", all[:cut]}, {"all", all}} {
		best := map[string]float64{}
		for i, it := range tc.items {
			if i%7 == 0 {
				best[it.Path] = float64(i%13 + 1)
			}
		}
		g := buildGraph(tc.items, 0)
		if g == nil {
			b.Fatalf("%s: no graph over %d chunks", tc.name, len(tc.items))
		}
		arcs := g.arcs()
		b.Run(tc.name+"/build-once", func(b *testing.B) {
			// A CLI pack's build: every text seen for the first time.
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				graphWordsMemo.Lock()
				clear(graphWordsMemo.m)
				graphWordsMemo.Unlock()
				b.StartTimer()
				buildGraph(tc.items, 0)
			}
		})
		b.Run(tc.name, func(b *testing.B) {
			b.ReportMetric(float64(len(g.files)), "files")
			b.ReportMetric(float64(arcs), "arcs")
			for i := 0; i < b.N; i++ {
				graphFactors(tc.items, best, graphWeight)
			}
		})
	}
}
