package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

const lensSrc = `package a

import "fmt"

// A says hi.
func A() {
	fmt.Println("hi")
}

type T struct{ X int }

func (t T) M() int { return t.X }
`

// lensView is a code lens as the tests compare it.
type lensView struct {
	Line  int
	Title string
}

// getLenses asks for the code lenses of u.
func getLenses(t *testing.T, c *fakeClient, u string) []lensView {
	t.Helper()
	var lenses []struct {
		Range struct {
			Start struct{ Line int } `json:"start"`
		} `json:"range"`
		Command struct {
			Title   string `json:"title"`
			Command string `json:"command"`
		} `json:"command"`
	}
	c.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	got := []lensView{}
	for _, l := range lenses {
		got = append(got, lensView{l.Range.Start.Line, stripWhatIf(l.Command.Title)})
	}
	return got
}

// stripWhatIf removes the what-if part of a lens title (computed in the
// background, so present or not depending on timing; whatif_test.go tests
// it).
func stripWhatIf(title string) string {
	for _, sep := range []string{" · ✓ in context", " · +", " · not packed: "} {
		if i := strings.Index(title, sep); i >= 0 {
			return title[:i]
		}
	}
	return title
}

// wantLenses computes the lenses of text independently of the server: the
// whole text counted by a fresh tokenizer, and the chunker's top-level
// chunks.
func wantLenses(t *testing.T, model, path, text string, available int) []lensView {
	t.Helper()
	tok, err := tokenizer.ForModel(model)
	if err != nil {
		t.Fatal(err)
	}
	approx := ""
	if !tok.Exact() {
		approx = "≈"
	}
	n := tok.Count(text)
	pct := math.Round(float64(n)*1000/float64(available)) / 10
	want := []lensView{{0, fmt.Sprintf("%s%s tokens · %.1f%% of budget", approx, thousands(n), pct)}}
	chunks, err := chunker.Split(context.Background(), path, []byte(text), tok.Count, chunker.Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range chunks {
		if ch.TopLevel {
			want = append(want, lensView{ch.StartLine - 1, fmt.Sprintf("%s%s tokens", approx, thousands(tok.Count(ch.Content)))})
		}
	}
	return want
}

func lines(ls []lensView) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.Line)
	}
	return out
}

// change sends one didChange with the given content changes.
func change(c *fakeClient, u string, version int, changes ...map[string]any) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": version},
		"contentChanges": changes,
	})
}

func rng(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}
}

func TestCodeLensesAfterEdits(t *testing.T) {
	root := tempRoot(t)
	path := filepath.Join(root, "a.go")
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	u := c.open(path, "go", lensSrc)

	got := getLenses(t, c, u)
	if diff := cmp.Diff([]int{0, 4, 9, 11}, lines(got)); diff != "" {
		t.Errorf("lens lines: one on line 0 and one per top-level declaration (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantLenses(t, "gpt-4o", path, lensSrc, 90000), got); diff != "" {
		t.Errorf("initial lenses (-want +got):\n%s", diff)
	}

	steps := []struct {
		name    string
		changes []map[string]any
		text    string // the document after the change
	}{
		{"insert a line in a body",
			[]map[string]any{{"range": rng(6, 19, 6, 19), "text": "\n\tfmt.Println(\"and bye\")"}},
			strings.Replace(lensSrc, "\"hi\")\n", "\"hi\")\n\tfmt.Println(\"and bye\")\n", 1)},
		{"insert at 0:0 is an insertion, not a replacement",
			[]map[string]any{{"range": rng(0, 0, 0, 0), "text": "// Package a.\n"}},
			"// Package a.\n" + strings.Replace(lensSrc, "\"hi\")\n", "\"hi\")\n\tfmt.Println(\"and bye\")\n", 1)},
		{"delete a declaration",
			[]map[string]any{{"range": rng(11, 0, 13, 0), "text": ""}},
			"// Package a.\n" + strings.Replace(strings.Replace(lensSrc, "\"hi\")\n", "\"hi\")\n\tfmt.Println(\"and bye\")\n", 1), "type T struct{ X int }\n\n", "", 1)},
		{"full replacement",
			[]map[string]any{{"text": "package b\n\nfunc B() {}\n"}},
			"package b\n\nfunc B() {}\n"},
		{"several changes in order",
			[]map[string]any{
				{"range": rng(2, 5, 2, 6), "text": "Bee"},
				{"range": rng(3, 0, 3, 0), "text": "\nfunc C() {}\n"},
			},
			"package b\n\nfunc Bee() {}\n\nfunc C() {}\n"},
	}
	for i, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			change(c, u, i+2, st.changes...)
			var count countTokensResult
			c.result(methodCountTokens, map[string]any{"uri": u}, &count)
			tok, _ := tokenizer.ForModel("gpt-4o")
			if count.Tokens != tok.Count(st.text) {
				t.Fatalf("the server's text differs from the expected text (%d tokens, want %d)", count.Tokens, tok.Count(st.text))
			}
			if diff := cmp.Diff(wantLenses(t, "gpt-4o", path, st.text, 90000), getLenses(t, c, u)); diff != "" {
				t.Errorf("lenses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCodeLensesUnderAnInexactModel(t *testing.T) {
	root := tempRoot(t)
	path := filepath.Join(root, "a.go")
	c := startServer(t, Options{}, nil)
	c.initialize(nil, map[string]any{"model": "mystery-model-9", "budget": map[string]any{"totalTokens": 1000, "systemReserve": 0, "responseReserve": 0}}, root)
	u := c.open(path, "go", lensSrc)
	got := getLenses(t, c, u)
	if diff := cmp.Diff(wantLenses(t, "mystery-model-9", path, lensSrc, 1000), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(got[0].Title, "≈") {
		t.Errorf("inexact count without ≈: %q", got[0].Title)
	}
}

func TestCodeLensesOfUnknownAndUntitledDocuments(t *testing.T) {
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	if got := getLenses(t, c, "file:///not/open.go"); len(got) != 0 {
		t.Errorf("lenses of a closed document: %v", got)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1", "languageId": "go", "version": 1, "text": lensSrc}})
	got := getLenses(t, c, "untitled:Untitled-1")
	if diff := cmp.Diff(wantLenses(t, "gpt-4o", "Untitled-1.go", lensSrc, 90000), got); diff != "" {
		t.Errorf("untitled Go document (-want +got):\n%s", diff)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "untitled:Untitled-1"}})
	if got := getLenses(t, c, "untitled:Untitled-1"); len(got) != 0 {
		t.Errorf("lenses after close: %v", got)
	}
}

func TestLensJSONShape(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}, nil, root)
	path := filepath.Join(root, "x.txt")
	u := c.open(path, "plaintext", "hello\n")
	c.waitNote("workspace/codeLens/refresh", 0, nil)
	m := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}})
	var lenses []map[string]any
	if err := json.Unmarshal(m.Result, &lenses); err != nil || len(lenses) != 1 {
		t.Fatalf("lenses of a text file: %s", m.Result)
	}
	tok, _ := tokenizer.ForModel("gpt-4o")
	n := tok.Count("hello\n")
	want := fmt.Sprintf(`{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"command":{"title":"%d tokens · 0.0%% of budget · ✓ in context","command":"acode.showChunkReport",`+
		`"arguments":[{"uri":%q,"path":%q,"startLine":1,"endLine":2,"tokens":%d,"inContext":true,"score":%s,"budgetTotal":100000,"budgetAvailable":90000,"wholeFile":true}]}}`,
		n, u, path, n, scoreOf(t, lenses[0]))
	got, _ := json.Marshal(lenses[0])
	if !jsonEqual([]byte(want), got) {
		t.Errorf("lens JSON:\nwant %s\n got %s", want, got)
	}
}

// scoreOf returns the score argument of a lens command as JSON text (the
// ranking's business, not the lens's).
func scoreOf(t *testing.T, lens map[string]any) string {
	t.Helper()
	cmd, _ := lens["command"].(map[string]any)
	args, _ := cmd["arguments"].([]any)
	if len(args) != 1 {
		t.Fatalf("lens command arguments: %v", cmd)
	}
	b, _ := json.Marshal(args[0].(map[string]any)["score"])
	return string(b)
}
