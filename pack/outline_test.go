package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutlineOfAFileThatDoesNotFit packs a workspace whose most relevant
// file has only chunks bigger than the budget (DESIGN rule 8): its outline
// — doc comments and signatures, bodies elided with gap markers — is
// packed with "detail": "outline", first (it ranks first), and every rule
// still holds (exact count, hard limit, no line twice), in both formats.
func TestOutlineOfAFileThatDoesNotFit(t *testing.T) {
	root := t.TempDir()
	var big strings.Builder
	big.WriteString("package cart\n\n")
	steps := []string{"Checkout", "Refund", "Reserve", "Release", "Total"}
	for _, name := range steps {
		fmt.Fprintf(&big, "// %s runs the %s step of a cart checkout.\nfunc %s(c *Cart) error {\n", name, strings.ToLower(name), name)
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&big, "\tc.log(\"%s step %d of the cart checkout\", c.ID, %d)\n", strings.ToLower(name), i, i)
		}
		big.WriteString("\treturn nil\n}\n\n")
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("checkout.go", big.String())
	write("util.go", "package cart\n\n// clamp keeps n within lo..hi.\nfunc clamp(n, lo, hi int) int { return min(max(n, lo), hi) }\n")
	write("names.go", "package cart\n\n// names of the steps.\nvar names = []string{\"a\", \"b\"}\n")
	for _, format := range []string{FormatMarkdown, FormatXML} {
		t.Run(format, func(t *testing.T) {
			total, zero := 700, 0
			req := Request{Query: "cart checkout step", Format: format, Budget: &BudgetParams{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
			res := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
			checkInvariants(t, res)
			var outline []Item
			for _, it := range res.Included {
				switch {
				case it.Detail == "outline":
					outline = append(outline, it)
					if it.Path != "checkout.go" {
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
				if !strings.Contains(res.Content, "func "+name+"(c *Cart) error {") {
					t.Errorf("the outline lacks the signature of %s", name)
				}
			}
			if !strings.Contains(res.Content, "lines 4-64 omitted") && !strings.Contains(res.Content, "omitted …") {
				t.Errorf("no gap marker between signatures:\n%s", res.Content)
			}
			if first := strings.SplitN(res.Content, "\n", 2)[0]; !strings.Contains(first, "checkout.go") {
				t.Errorf("the first section is %q, want checkout.go (it ranks first)", first)
			}
		})
	}
}
