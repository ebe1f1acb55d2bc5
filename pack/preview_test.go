package pack

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestPreviewIsThePack is the property of docs/design.md
// "acode/previewContext": over several workspaces, budgets, formats and
// orders (preview first, then pack; pack first, then preview — so caches
// and the index warmed by one call feed the other), a pack includes and
// excludes exactly what its preview said, and its tokenCount is the
// preview's estimatedTokens. Go's net/http (where a pack once included 3
// chunks its preview did not) runs outside -short.
func TestPreviewIsThePack(t *testing.T) {
	type workspace struct {
		name  string
		root  string
		query string
	}
	spaces := []workspace{
		{"files-first", fileFirstTree(t, 40), "checkout empty cart"},
		{"sample", filepath.Join("..", "testdata", "sample"), "why does checkout fail for empty carts"},
		{"sample-no-query", filepath.Join("..", "testdata", "sample"), ""},
	}
	if !testing.Short() {
		http := filepath.Join(runtime.GOROOT(), "src", "net", "http")
		if _, err := os.Stat(http); err != nil {
			t.Fatalf("GOROOT/src/net/http: %v", err)
		}
		spaces = append(spaces,
			workspace{"net/http", http, "server handler timeout"},
			workspace{"net/http-no-query", http, ""})
	}
	budgets := []int{60, 700, 3000, 8000, 30000}
	for _, w := range spaces {
		root, err := filepath.Abs(w.root)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := collector.New(collector.Options{Roots: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(config.Default(), ws)
		e.Index = newMemIndex()
		for i, total := range budgets {
			for _, format := range []string{FormatMarkdown, FormatXML} {
				if w.root != spaces[0].root && format == FormatXML && total != 8000 {
					continue // the xml format once per large workspace
				}
				req := Request{Query: w.query, Format: format, Paths: []string{root},
					Budget: &config.BudgetOverrides{TotalTokens: intp(total), SystemReserve: intp(0), ResponseReserve: intp(0)}}
				previewFirst := i%2 == 0
				t.Run(w.name+"/"+format+"/"+strconv.Itoa(total), func(t *testing.T) {
					var pv *Preview
					var res *Result
					var err error
					if previewFirst {
						pv, err = e.Preview(context.Background(), req, nil)
						if err != nil {
							t.Fatalf("preview: %v", err)
						}
					}
					if res, err = e.Pack(context.Background(), req, nil, nil); err != nil {
						t.Fatalf("pack: %v", err)
					}
					if !previewFirst {
						if pv, err = e.Preview(context.Background(), req, nil); err != nil {
							t.Fatalf("preview: %v", err)
						}
					}
					if pv.EstimatedTokens != res.TokenCount {
						t.Errorf("estimatedTokens %d, the pack's tokenCount %d", pv.EstimatedTokens, res.TokenCount)
					}
					if res.TokenCount > res.Budget.Available {
						t.Errorf("tokenCount %d over available %d", res.TokenCount, res.Budget.Available)
					}
					if len(res.Included) == 0 && total >= 700 {
						t.Errorf("nothing included at budget %d", total)
					}
					if diff := cmp.Diff(res.Included, pv.Included); diff != "" {
						t.Errorf("included (-pack +preview):\n%s", diff)
					}
					if diff := cmp.Diff(res.Excluded, pv.Excluded); diff != "" {
						t.Errorf("excluded (-pack +preview):\n%s", diff)
					}
					if diff := cmp.Diff(res.Budget, pv.Budget); diff != "" {
						t.Errorf("budget (-pack +preview):\n%s", diff)
					}
					if diff := cmp.Diff(res.Dedup, pv.Dedup); diff != "" {
						t.Errorf("dedup (-pack +preview):\n%s", diff)
					}
				})
			}
		}
	}
}
