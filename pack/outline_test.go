package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/config"
)

// TestOutlineOfAFileThatDoesNotFit packs a workspace whose most relevant
// file has only chunks bigger than the budget (docs/design.md#rule-8): its outline
// — doc comments and signatures, bodies elided with gap markers — is
// packed with "detail": "outline", first (it ranks first), and every rule
// still holds (exact count, hard limit, no line twice), in both formats.
func TestOutlineOfAFileThatDoesNotFit(t *testing.T) {
	root := t.TempDir()
	var big strings.Builder
	steps := []string{"checkout", "refund", "reserve", "release", "total"}
	for _, name := range steps {
		fmt.Fprintf(&big, "def %s(cart):\n    \"\"\"Run the %s step of a cart.\"\"\"\n", name, name)
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&big, "    cart.log(\"%s step %d of the cart\", cart.id, %d)\n", name, i, i)
		}
		big.WriteString("    return None\n\n\n")
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("checkout.py", big.String())
	write("util.py", "def clamp(n, lo, hi):\n    \"\"\"Keep n within lo..hi.\"\"\"\n    return min(max(n, lo), hi)\n")
	write("names.py", "# The names of the steps.\nNAMES = [\"a\", \"b\"]\n")
	rel := func(v float64) *float64 { return &v }
	for _, format := range []string{FormatMarkdown, FormatXML} {
		t.Run(format, func(t *testing.T) {
			total, zero := 700, 0
			// Each function of checkout.py is one ~900-token chunk: none fits.
			req := Request{Format: format, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero},
				Sources: []Source{
					{Type: "reference", Path: "checkout.py", Relevance: rel(0.9)},
					{Type: "reference", Path: "util.py", Relevance: rel(0.5)},
					{Type: "reference", Path: "names.py", Relevance: rel(0.4)},
				}}
			res := packDir(t, root, caseArgs{Request: req})
			checkInvariants(t, res)
			var outline []Entry
			for _, it := range res.Included {
				switch {
				case it.Detail == "outline":
					outline = append(outline, it)
					if it.Path != "checkout.py" {
						t.Errorf("an outline of %s", it.Path)
					}
				case it.Detail != "full":
					t.Errorf("included %s %d-%d has detail %q, want full or outline", it.Path, it.StartLine, it.EndLine, it.Detail)
				}
			}
			// The exact recount may drop the last outline items (they rank
			// with the file's best chunk, last by line).
			if len(outline) < 3 {
				t.Fatalf("%d outline items, want one per function, 3 at least: %+v\n%s", len(outline), res.Included, res.Content)
			}
			for _, name := range steps[:3] {
				if !strings.Contains(res.Content, "def "+name+"(cart):\n    \"\"\"Run the "+name+" step of a cart.\"\"\"\n") {
					t.Errorf("the outline lacks the signature and docstring of %s:\n%s", name, res.Content)
				}
			}
			if !strings.Contains(res.Content, "omitted …\n    \"\"\"Run the refund step") && !strings.Contains(res.Content, "omitted …\ndef refund(cart):") {
				t.Errorf("no gap marker between signatures:\n%s", res.Content)
			}
			// (The xml format's first line is its <context> root.)
			if first := strings.SplitN(strings.TrimPrefix(res.Content, "<context>\n"), "\n", 2)[0]; !strings.Contains(first, "checkout.py") {
				t.Errorf("the first section is %q, want checkout.py (it ranks first)", first)
			}
		})
	}
}
