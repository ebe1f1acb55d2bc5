package pack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestPackCancelledAtEachStage cancels a pack of many small chunks (the
// hostile case of issue 24 in small: max_chunk_tokens: 1) when it reports
// each stage, and wants context.Canceled and no result, within a deadline
// (a hang fails the test; how fast it returns is BenchmarkPackCancel's).
func TestPackCancelledAtEachStage(t *testing.T) {
	root := t.TempDir()
	var text strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&text, "\tcheckoutValue%d := computeCartTotal(items, %d) // line %d\n", i, i, i)
	}
	writeFileTB(t, filepath.Join(root, "big.go"), "package big\n\nfunc F() {\n"+text.String()+"}\n")
	writeFileTB(t, filepath.Join(root, "cart.go"), "package big\n\n// Total sums the cart.\nfunc Total(items []int) int {\n\tn := 0\n\tfor _, v := range items {\n\t\tn += v\n\t}\n\treturn n\n}\n")
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Context.Chunking.MaxChunkTokens, cfg.Context.Chunking.MinChunkTokens = 1, 0
	total := 4000
	req := Request{Query: "checkout cart total", Paths: []string{root},
		Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: new(int), ResponseReserve: new(int)}}
	for _, st := range []struct {
		name string
		pct  int // the first progress report at or past pct cancels
	}{{"collecting", 0}, {"chunking", 30}, {"ranking", 60}, {"selecting", 70}, {"formatting", 85}} {
		t.Run(st.name, func(t *testing.T) {
			e := NewEngine(cfg, ws)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type answer struct {
				res *Result
				err error
			}
			done := make(chan answer, 1)
			var reached atomic.Bool
			go func() {
				res, err := e.Pack(ctx, req, nil, func(_ string, pct int) {
					if pct >= st.pct && pct < 100 && reached.CompareAndSwap(false, true) {
						cancel()
					}
				})
				done <- answer{res, err}
			}()
			select {
			case a := <-done:
				if !reached.Load() {
					t.Fatalf("the pack never reported %d %%", st.pct)
				}
				if !errors.Is(a.err, context.Canceled) || a.res != nil {
					t.Errorf("pack cancelled while %s: result %v, err %v; want no result and context.Canceled", st.name, a.res != nil, a.err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("pack cancelled while %s did not return within 30 s", st.name)
			}
		})
	}
}

// TestScoreQueryCancelled: ranking many chunks stops when the context
// ends (scoreQuery returns no query), and is unchanged otherwise.
func TestScoreQueryCancelled(t *testing.T) {
	text := budget.NewText(strings.Repeat("total := checkout(cart)\n", 2*cancelEvery))
	var items []*budget.Item
	for i := 1; i <= text.Lines(); i++ {
		items = append(items, &budget.Item{Category: budget.OpenFiles, Path: "a.go", StartLine: i, EndLine: i, Source: text, Content: text.Slice(i, i), Tokens: 6, Seq: i - 1})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if q := scoreQuery(cancelled, "checkout cart total", items, newFeatures(nil), nil); q != nil {
		t.Error("scoreQuery with a cancelled context returned a query")
	}
	if q := scoreQuery(context.Background(), "checkout cart total", items, newFeatures(nil), nil); q == nil {
		t.Error("scoreQuery returned no query")
	}
}
