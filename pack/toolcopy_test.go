package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestToolResultHoldingAFile is seed FR-016-104's case: a tool_result that
// carries a file's content (here `cat cart/service.go`, once verbatim and
// once with its white space changed) beside the file itself is packed once
// — about the file's ~360 tokens, not twice that (718 before).
func TestToolResultHoldingAFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("package cart\n\nimport \"errors\"\n\n// ErrEmpty is returned for empty carts.\nvar ErrEmpty = errors.New(\"cart: empty\")\n\n")
	for _, name := range []string{"Checkout", "Refund", "Reserve", "Release", "Total"} {
		fmt.Fprintf(&b, "// %s runs the %s step of a cart and reports why it failed.\nfunc (s *Service) %s(id string, items []Item) error {\n\tif len(items) == 0 {\n\t\treturn fmt.Errorf(\"%s %%s: %%w\", id, ErrEmpty)\n\t}\n\treturn s.store.Save(id, items)\n}\n\n", name, strings.ToLower(name), name, strings.ToLower(name))
	}
	src := b.String()
	tok, err := tokenizer.ForEncoding("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	if n := tok.Count(src); n < 300 || n > 420 {
		t.Fatalf("the file has %d tokens, want about 360", n)
	}
	for _, tt := range []struct{ name, tool string }{
		{"verbatim", src},
		{"white space changed", strings.ReplaceAll(strings.ReplaceAll(src, "\t", "    "), "\n\n", "\n\n\n")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "cart"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "cart", "service.go"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			tool := tt.tool
			req := Request{Query: "checkout fails for empty carts", Sources: []Source{{Type: "tool_result", Label: "cat cart/service.go", Content: &tool}}}
			res := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
			checkInvariants(t, res)
			if n := strings.Count(res.Content, "func (s *Service) Checkout("); n != 1 {
				t.Errorf("Checkout appears %d times in the context, want once:\n%s", n, res.Content)
			}
			// Rule 6 keeps the best-ranked copy: the tool result (recency 1,
			// priority 100) ranks above the walked file (no recency from a
			// file time), so its own text — white space changed — is the one
			// packed.
			if max := max(tok.Count(src), tok.Count(tool)) + 40; res.TokenCount > max {
				t.Errorf("tokenCount %d, want at most %d (one copy and a header)", res.TokenCount, max)
			}
			dups := 0
			for _, x := range res.Excluded {
				if x.Reason == "duplicate" {
					dups++
				}
			}
			if dups == 0 || res.Dedup.ExactRemoved == 0 {
				t.Errorf("no duplicate reported: %+v", res.Dedup)
			}
		})
	}
}
