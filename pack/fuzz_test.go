package pack

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// snippets are the building blocks of generated workspaces.
var snippets = []string{
	"// Add sums two numbers.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n",
	"type Cart struct {\n\tItems []string\n\tOwner string\n}\n",
	"func (c *Cart) Empty() bool {\n\treturn len(c.Items) == 0\n}\n",
	"var ErrEmpty = errors.New(\"empty cart\")\n",
	"// Checkout fails for empty carts.\nfunc Checkout(c *Cart) error {\n\tif c.Empty() {\n\t\treturn ErrEmpty\n\t}\n\treturn nil\n}\n",
	"const answer = 42 // ```go fences``` inside\n",
	"func unicode() string { return \"日本語 🤖‍💻 שלום\" }\n",
	"\n\n",
	"func less(a, b int) bool { return a < b && b > 0 } // </file> ]]> &amp; <tool label=\"x\">\n",
	"var crlf = \"\x07bell\" // CR LF line\r\n",
}

// genWorkspace writes a deterministic random tree for seed.
func genWorkspace(t testing.TB, root string, seed int64) {
	r := rand.New(rand.NewSource(seed))
	files := 1 + r.Intn(6)
	for f := 0; f < files; f++ {
		var b strings.Builder
		b.WriteString("package gen\n\n")
		for n := r.Intn(40); n >= 0; n-- {
			b.WriteString(snippets[r.Intn(len(snippets))])
		}
		dir := []string{"", "a/", "a/b/"}[r.Intn(3)]
		writeFileTB(t, filepath.Join(root, fmt.Sprintf("%sf%d.go", dir, f)), b.String())
		if r.Intn(3) == 0 { // an exact copy elsewhere
			writeFileTB(t, filepath.Join(root, fmt.Sprintf("copy/f%d.go", f)), b.String())
		}
	}
}

func writeFileTB(t testing.TB, path, data string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fixedTime, fixedTime); err != nil {
		t.Fatal(err)
	}
}

// FuzzPackInvariants packs generated workspaces at arbitrary budgets and
// checks the rules every pack keeps, in both formats: the final text's
// exact count is tokenCount and fits available, no source line appears
// twice, every range shown is whole and in order, the xml format parses as
// well-formed XML (encoding/xml), the lines shown are the files' lines
// (internal/invariant), and the same input gives the same bytes.
func FuzzPackInvariants(f *testing.F) {
	f.Add(int64(1), 500, 0, 0, false, "empty cart", false)
	f.Add(int64(2), 3000, 100, 200, true, "", false)
	f.Add(int64(3), 150, 10, 10, true, "Checkout", false)
	f.Add(int64(4), 100000, 2000, 8000, false, "unicode 日本語", false)
	f.Add(int64(5), 900, 0, 0, true, "```", false)
	f.Add(int64(6), 700, 0, 0, true, "Checkout", true)
	f.Add(int64(7), 100000, 0, 0, false, "</file> &amp;", true)
	f.Fuzz(func(t *testing.T, seed int64, total, sys, resp int, redistribute bool, query string, xmlFormat bool) {
		if total <= 0 || total > 200000 || sys < 0 || resp < 0 || sys+resp >= total {
			return
		}
		root := t.TempDir()
		genWorkspace(t, root, seed)
		cfg := config.Default()
		cfg.Context.Chunking.MaxChunkTokens = 40 + int(uint64(seed)%200)
		cfg.Context.Chunking.MinChunkTokens = 10
		cfg.Context.Budget.Redistribute = redistribute
		ws, err := collector.New(collector.Options{Roots: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		req := Request{Query: query, Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &sys, ResponseReserve: &resp}}
		if xmlFormat {
			req.Format = FormatXML
		}
		if seed%2 == 0 { // a tool result holding part of a file (dedup of copies)
			matches, _ := filepath.Glob(filepath.Join(root, "*", "f0.go"))
			matches2, _ := filepath.Glob(filepath.Join(root, "*", "*", "f0.go"))
			matches = append(append([]string{filepath.Join(root, "f0.go")}, matches...), matches2...)
			var data []byte
			var err error = os.ErrNotExist
			for _, m := range matches {
				if data, err = os.ReadFile(m); err == nil {
					break
				}
			}
			if err == nil {
				ls := strings.SplitAfter(string(data), "\n")
				a := int(uint64(seed)>>1) % len(ls)
				text := strings.Join(ls[a:], "")
				req.Sources = append(req.Sources, Source{Type: "tool_result", Label: "cat f0.go", Content: &text})
			}
		}
		res, err := NewEngine(cfg, ws).Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatalf("Pack: %v", err)
		}
		checkInvariantsIn(t, res, root)
		again, err := NewEngine(cfg, ws).Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if again.Content != res.Content || !cmp.Equal(again.Included, res.Included) {
			t.Errorf("same input, different output")
		}
	})
}

// TestUsesBudget checks the promise of the packing issue: when the tree has
// far more content than the budget, at least 90 % of the budget is used.
func TestUsesBudget(t *testing.T) {
	goroot := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	if _, err := os.Stat(goroot); err != nil {
		t.Fatalf("Go's net/http sources are needed: %v", err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{goroot}})
	if err != nil {
		t.Fatal(err)
	}
	for _, total := range []int{1500, 4000, 20000, 100000} {
		t.Run(fmt.Sprint(total), func(t *testing.T) {
			sys, resp := 0, 0
			req := Request{Query: "how are cookies parsed", Paths: []string{goroot},
				Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &sys, ResponseReserve: &resp}}
			res, err := NewEngine(config.Default(), ws).Pack(context.Background(), req, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, res)
			if res.TokenCount < total*90/100 {
				t.Errorf("used %d of %d tokens (%.1f%%), want at least 90%%", res.TokenCount, total, 100*float64(res.TokenCount)/float64(total))
			}
		})
	}
}
