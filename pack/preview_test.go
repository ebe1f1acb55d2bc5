package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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

// TestPreviewsAtIsThePreview: the previews of one request at several
// budgets, its collection, chunks and dedup prepared once, are each the
// preview of that request at that budget (and so the pack), in any order
// of budgets — outlines kept across budgets included; over a query's
// file-first walk (whose files depend on the budget) too.
func TestPreviewsAtIsThePreview(t *testing.T) {
	sample, err := filepath.Abs(filepath.Join("..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	outlines := t.TempDir()
	var big strings.Builder
	for _, name := range []string{"checkout", "refund", "reserve", "release", "total"} {
		fmt.Fprintf(&big, "def %s(cart):\n    \"\"\"Run the %s step of a cart.\"\"\"\n", name, name)
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&big, "    cart.log(\"%s step %d of the cart\", cart.id, %d)\n", name, i, i)
		}
		big.WriteString("    return None\n\n\n")
	}
	if err := os.WriteFile(filepath.Join(outlines, "checkout.py"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rel := 0.9
	spaces := []struct {
		name, root, query string
		sources           []Source
	}{
		{"sample", sample, "why does checkout fail for empty carts", nil},
		{"sample-no-query", sample, "", nil},
		{"files-first", fileFirstTree(t, 40), "checkout empty cart", nil},
		// Each function is a ~900-token chunk: at 700 and 1,500 tokens
		// the file's outline goes in instead.
		{"outline", outlines, "", []Source{{Type: "reference", Path: "checkout.py", Relevance: &rel}}},
	}
	// Out of order and repeated: At must not carry one budget's selection
	// into another's.
	totals := []int{8000, 60, 30000, 700, 3000, 1500, 8000}
	for _, w := range spaces {
		ws, err := collector.New(collector.Options{Roots: []string{w.root}})
		if err != nil {
			t.Fatal(err)
		}
		e := NewEngine(config.Default(), ws)
		e.Index = newMemIndex()
		for _, format := range []string{FormatMarkdown, FormatXML} {
			t.Run(w.name+"/"+format, func(t *testing.T) {
				budgetAt := func(total int) *config.BudgetOverrides {
					return &config.BudgetOverrides{TotalTokens: intp(total), SystemReserve: intp(0), ResponseReserve: intp(0)}
				}
				req := Request{Query: w.query, Format: format, Budget: budgetAt(totals[0]), Sources: w.sources}
				if w.sources == nil {
					req.Paths = []string{w.root}
				}
				ps := e.Previews(context.Background(), req, nil)
				outlined := 0
				for _, total := range totals {
					got, err := ps.At(budgetAt(total))
					if err != nil {
						t.Fatalf("At(%d): %v", total, err)
					}
					req.Budget = budgetAt(total)
					want, err := e.Preview(context.Background(), req, nil)
					if err != nil {
						t.Fatalf("Preview at %d: %v", total, err)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("at %d (-preview +At):\n%s", total, diff)
					}
					for _, it := range got.Included {
						if it.Detail == "outline" {
							outlined++
						}
					}
				}
				if w.name == "outline" && outlined == 0 {
					t.Errorf("no outline item at any budget: the outlines kept across budgets are not tested")
				}
			})
		}
	}
}

// TestPreviewsAtBadBudget: a budget At cannot share out is the error the
// preview of that budget returns.
func TestPreviewsAtBadBudget(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	req := Request{Paths: []string{root}}
	ps := e.Previews(context.Background(), req, nil)
	bad := &config.BudgetOverrides{TotalTokens: intp(100), SystemReserve: intp(80), ResponseReserve: intp(40)}
	_, got := ps.At(bad)
	req.Budget = bad
	_, want := e.Preview(context.Background(), req, nil)
	if got == nil || want == nil || got.Error() != want.Error() {
		t.Fatalf("At: %v; Preview: %v", got, want)
	}
}
