package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// netHTTP is Go's net/http tree (~2 MB of Go and test data): the benchmark input.
func netHTTP(b *testing.B) string {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	if _, err := os.Stat(dir); err != nil {
		b.Fatalf("need Go's sources: %v", err)
	}
	return dir
}

// benchItems makes n candidate chunks of real Go code.
func benchItems(b *testing.B, n int) []*budget.Item {
	dir := netHTTP(b)
	data, err := os.ReadFile(filepath.Join(dir, "server.go"))
	if err != nil {
		b.Fatal(err)
	}
	text := budget.NewText(string(data))
	tok, _ := tokenizer.ForEncoding("o200k_base")
	items := make([]*budget.Item, n)
	for i := range items {
		start := 1 + (i*7)%(text.Lines()-40)
		c := text.Slice(start, start+30)
		items[i] = &budget.Item{Category: budget.Categories[i%4], Type: "open_file", Path: fmt.Sprintf("f%d.go", i%50), StartLine: start, EndLine: start + 30,
			Source: text, Content: c, Tokens: tok.Count(c), Priority: 80, Seq: i}
	}
	return items
}

func BenchmarkRank1000(b *testing.B) {
	items := benchItems(b, 1000)
	srcs := []source{{}}
	p := &pipeline{e: NewEngine(config.Default(), nil), ctx: context.Background(), req: Request{Query: "how does the server handle keep-alive connections"}, srcOf: make([]int, len(items))}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.rank(items, srcs)
	}
}

func BenchmarkDedup1000(b *testing.B) {
	items := benchItems(b, 1000)
	tok, _ := tokenizer.ForEncoding("o200k_base")
	opts := budget.DedupOptions{Enabled: true, OverlapThreshold: 0.8, MergeOverlapping: true}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fresh := make([]*budget.Item, len(items))
		for j, it := range items {
			c := *it
			fresh[j] = &c
		}
		budget.Dedup(fresh, opts, tok.Count)
	}
}

// BenchmarkCountNetHTTP is the floor: reading and counting every file that
// a pack of net/http lets in, with no cache.
func BenchmarkCountNetHTTP(b *testing.B) {
	dir := netHTTP(b)
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	srcs, _, err := ws.Walk(context.Background(), collector.OpenFile)
	if err != nil {
		b.Fatal(err)
	}
	tok, _ := tokenizer.ForEncoding("o200k_base")
	var bytes int64
	for _, s := range srcs {
		bytes += int64(len(s.Content))
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			tok.Count(s.Content)
		}
	}
}

// BenchmarkPackNetHTTP packs all of net/http at a 100K budget: cold (a new
// count cache every time) and warm (the cache of the previous run).
func BenchmarkPackNetHTTP(b *testing.B) {
	dir := netHTTP(b)
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		b.Fatal(err)
	}
	req := Request{Query: "how does the server handle keep-alive connections", Paths: []string{dir}}
	for _, mode := range []string{"cold", "warm"} {
		b.Run(mode, func(b *testing.B) {
			cfg := config.Default()
			cfg.Context.Tokenizer.CacheSize = 100000
			e := NewEngine(cfg, ws)
			if mode == "warm" {
				if _, err := e.Pack(context.Background(), req, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode == "cold" {
					e.Tokenizers = tokenizer.NewRegistry() // a new count cache
					e.chunks.Purge()
				}
				res, err := e.Pack(context.Background(), req, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				if res.TokenCount > res.Budget.Available {
					b.Fatal("over budget")
				}
			}
		})
	}
}

// BenchmarkPackHostileChunks is issue 24's hostile dedup case: a
// repository config of max_chunk_tokens: 1 and a 744 KB file, so the file
// is cut into one chunk per line (~24,000) and dedup and selection see
// them all. It reports the dedup and select stages' own times
// (dedup-ms, select-ms) beside the whole pack. Recorded in
// docs/benchmarks.md.
func BenchmarkPackHostileChunks(b *testing.B) {
	root := b.TempDir()
	var text []byte
	for i := 0; len(text) < 744<<10; i++ {
		text = fmt.Appendf(text, "\tcheckoutValue%d := computeCartTotal(items, %d) // line %d\n", i, i, i)
	}
	writeFileTB(b, filepath.Join(root, "big.go"), "package big\n\nfunc F() {\n"+string(text)+"}\n")
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		b.Fatal(err)
	}
	cfg := config.Default()
	cfg.Context.Chunking.MaxChunkTokens, cfg.Context.Chunking.MinChunkTokens = 1, 0
	e := NewEngine(cfg, ws)
	total := 8000
	req := Request{Query: "checkout cart total", Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: new(int), ResponseReserve: new(int)}}
	var dedup, sel time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := e.Pack(context.Background(), req, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range res.Stats.Timings {
			switch t.Stage {
			case "dedup":
				dedup += t.Duration
			case "select":
				sel += t.Duration
			}
		}
		if i == 0 {
			b.ReportMetric(float64(res.Stats.Chunks), "chunks")
		}
	}
	b.ReportMetric(float64(dedup.Milliseconds())/float64(b.N), "dedup-ms")
	b.ReportMetric(float64(sel.Milliseconds())/float64(b.N), "select-ms")
}
