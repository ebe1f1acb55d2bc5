package main_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/google/go-cmp/cmp"
)

// lens is a code lens as the editor shows it.
type lens struct {
	Line  int
	Title string
}

// lenses asks for the code lenses of a document.
func lenses(e *lsptest.Editor, path string) []lens {
	e.T().Helper()
	raw := e.CodeLenses(path)
	out := make([]lens, len(raw))
	for i, r := range raw {
		out[i] = lens{Line: r.Range.Start.Line, Title: costPart(r.Command.Title)}
	}
	return out
}

// costPart is a lens title without its what-if part (" · ✓ in context",
// " · +N to fit", " · not packed: …"), which is computed in the background
// and so present or not depending on timing; lsp/whatif_test.go tests it.
func costPart(title string) string {
	for _, sep := range []string{" · ✓ in context", " · +", " · not packed: "} {
		if i := strings.Index(title, sep); i >= 0 {
			return title[:i]
		}
	}
	return title
}

// goDecls returns, for Go source, the top-level declarations (func, type,
// var, const) as 0-based [first, last] lines, the first line including the
// doc comment above the declaration.
func goDecls(text string) [][2]int {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out [][2]int
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !(strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") || strings.HasPrefix(l, "var ") || strings.HasPrefix(l, "const ")) {
			continue
		}
		start := i
		for start > 0 && strings.HasPrefix(lines[start-1], "//") {
			start--
		}
		end := i
		if strings.HasSuffix(l, "{") || strings.HasSuffix(l, "(") {
			for end = i + 1; end < len(lines) && lines[end] != "}" && lines[end] != ")"; end++ {
			}
		}
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// linesOf returns the 0-based lines first..last of text with their newlines.
func linesOf(text string, first, last int) string {
	lines := strings.SplitAfter(text, "\n")
	return strings.Join(lines[first:last+1], "")
}

// wantLenses is what docs/design.md asks for a Go document: the document's cost
// on line 0, then one lens per top-level declaration, counted by countFn.
// A declaration's chunk runs to the next declaration (the blank lines
// between them are whole lines of the chunk before).
func wantLenses(text string, available int, countFn func(string) int, approx string) []lens {
	n := countFn(text)
	want := []lens{{0, fmt.Sprintf("%s%s tokens · %.1f%% of budget", approx, commas(n), round1(n, available))}}
	decls := goDecls(text)
	last := strings.Count(strings.TrimSuffix(text, "\n"), "\n")
	for i, d := range decls {
		end := last
		if i+1 < len(decls) {
			end = decls[i+1][0] - 1
		}
		want = append(want, lens{d[0], fmt.Sprintf("%s%s tokens", approx, commas(countFn(linesOf(text, d[0], end))))})
	}
	return want
}

// commas writes n with thousands separated by commas (docs/design.md: code lenses).
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestE2ECodeLens(t *testing.T) {
	exact := func(text string) int { return count(t, "o200k_base", text) }
	t.Run("exact model", func(t *testing.T) {
		e, root := session(t, nil)
		for _, rel := range []string{"cart/service.go", "cart/model.go"} {
			path := filepath.Join(root, rel)
			text := readFile(t, path)
			e.Open(path, "go", text)
			// The sample config: 16000 − 1000 − 3000 = 12000 available.
			if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), lenses(e, path)); diff != "" {
				t.Errorf("%s lenses (-want +got):\n%s", rel, diff)
			}
		}
		if got := lenses(e, filepath.Join(root, "cart/service_test.go")); len(got) != 0 {
			t.Errorf("lenses of a document that is not open: %v, want none", got)
		}
		if err := e.CallError("textDocument/codeLens", map[string]any{}); err.Code != -32602 || !strings.Contains(err.Message, "textDocument") {
			t.Errorf("codeLens without a document: %d %q, want -32602 naming textDocument.uri", err.Code, err.Message)
		}
	})
	t.Run("unknown model is marked approximate", func(t *testing.T) {
		e, root := session(t, map[string]any{"model": "my-local-llama"})
		path := filepath.Join(root, "cart/service.go")
		text := readFile(t, path)
		e.Open(path, "go", text)
		if diff := cmp.Diff(wantLenses(text, 12000, heuristicCount, "≈"), lenses(e, path)); diff != "" {
			t.Errorf("lenses (-want +got):\n%s", diff)
		}
	})
	t.Run("recomputed after didChange", func(t *testing.T) {
		e, root := session(t, nil)
		path := filepath.Join(root, "cart/model.go")
		text := readFile(t, path)
		e.Open(path, "go", text)
		_ = lenses(e, path)

		// An incremental insertion at the end of the document.
		nLines := strings.Count(text, "\n")
		added := "\n// Extra is new: 😀 price.\nfunc Extra() int { return 42 }\n"
		text += added
		e.Change(path, 2, lsptest.Edit(lsptest.Range{Start: lsptest.Position{Line: nLines}, End: lsptest.Position{Line: nLines}}, added))
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), lenses(e, path)); diff != "" {
			t.Errorf("after an insertion (-want +got):\n%s", diff)
		}

		// An edit after a character outside the BMP: positions are UTF-16.
		line := nLines + 1 // "// Extra is new: 😀 price."
		col := len([]rune("// Extra is new: ")) + 2 + 1
		text = strings.Replace(text, "😀 price.", "😀 total price of everything in the cart.", 1)
		e.Change(path, 3, lsptest.Edit(lsptest.Range{Start: lsptest.Position{Line: line, Character: col}, End: lsptest.Position{Line: line, Character: col + len("price.")}},
			"total price of everything in the cart."))
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), lenses(e, path)); diff != "" {
			t.Errorf("after an edit behind an emoji (-want +got):\n%s", diff)
		}

		// A full-text change (no range) replaces the document.
		text = "package cart\n\n// Only is all that is left.\nfunc Only() {}\n"
		e.Change(path, 4, lsptest.Change{Text: text})
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), lenses(e, path)); diff != "" {
			t.Errorf("after a full change (-want +got):\n%s", diff)
		}
	})
}
