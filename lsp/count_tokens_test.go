package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

func TestCountTokens(t *testing.T) {
	root := tempRoot(t)
	onDisk := "package disk\n\nfunc OnDisk() string { return \"disk\" }\n"
	withSecret := "package svc\n\nvar apiKey = \"sk-proj-Xq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt\"\n"
	writeFiles(t, root, map[string]string{
		"disk.go":    onDisk,
		"open.go":    "package open // the disk version\n",
		".env":       "API_KEY=abc\n",
		".gitignore": "ignored.go\n",
		"ignored.go": "package ignored\n",
		"empty.go":   "",
		"secret.go":  withSecret,
	})
	outside := tempRoot(t)
	writeFiles(t, outside, map[string]string{"x.go": "package x\n"})
	if err := os.Symlink(filepath.Join(outside, "x.go"), filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}

	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	openText := "package open // the editor's version, not saved\n"
	c.open(filepath.Join(root, "open.go"), "go", openText)

	count := func(model, text string) countTokensResult {
		tok, err := tokenizer.ForModel(model)
		if err != nil {
			t.Fatal(err)
		}
		return countTokensResult{Tokens: tok.Count(text), Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok)}
	}
	cl100k, _ := tokenizer.ForEncoding("cl100k_base")
	fileURI := func(name string) string { return string(pathToURI(filepath.Join(root, name))) }

	ok := []struct {
		name   string
		params map[string]any
		want   countTokensResult
	}{
		{"text", map[string]any{"text": "Hello, world!"}, count("gpt-4o", "Hello, world!")},
		{"empty text", map[string]any{"text": ""}, count("gpt-4o", "")},
		{"special token spelled out", map[string]any{"text": "a <|endoftext|> b"}, count("gpt-4o", "a <|endoftext|> b")},
		{"model", map[string]any{"text": "Hello, world!", "model": "gpt-4"}, count("gpt-4", "Hello, world!")},
		{"encoding", map[string]any{"text": "Hello, world!", "encoding": "cl100k_base"},
			countTokensResult{Tokens: cl100k.Count("Hello, world!"), Encoding: "cl100k_base", Exact: true}},
		{"unknown model is inexact", map[string]any{"text": strings.Repeat("x", 35), "model": "mystery-1"}, count("mystery-1", strings.Repeat("x", 35))},
		{"file on disk", map[string]any{"uri": fileURI("disk.go")}, count("gpt-4o", onDisk)},
		{"open document wins over disk", map[string]any{"uri": fileURI("open.go")}, count("gpt-4o", openText)},
		{"empty file", map[string]any{"uri": fileURI("empty.go")}, count("gpt-4o", "")},
		// issue 9: one number per file, the one the lens and `count` show;
		// the pack's (after redaction) beside it, with the reason.
		{"file with a secret", map[string]any{"uri": fileURI("secret.go")}, func() countTokensResult {
			r := count("gpt-4o", withSecret)
			redacted, n := collector.Redact(withSecret)
			if n == 0 {
				t.Fatal("the test's secret is not redacted")
			}
			packed := count("gpt-4o", redacted).Tokens
			r.PackedTokens, r.Redactions = &packed, n
			r.Note = fmt.Sprintf("a pack replaces %d secret value(s) in this file by [REDACTED] and counts %d tokens for it; the file as written has %d", n, packed, r.Tokens)
			return r
		}()},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			var got countTokensResult
			c.result(methodCountTokens, tt.params, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}

	refused := []struct {
		name   string
		uri    string
		reason string
	}{
		{"outside the workspace", string(pathToURI(filepath.Join(outside, "x.go"))), "outside_workspace"},
		{"symlink leaving the workspace", fileURI("link.go"), "outside_workspace"},
		{"secret file", fileURI(".env"), "secret"},
		{"ignored file", fileURI("ignored.go"), "ignored"},
		{"missing file", fileURI("nope.go"), "unreadable"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(methodCountTokens, map[string]any{"uri": tt.uri})
			if m.Error == nil || m.Error.Code != -32803 {
				t.Fatalf("got %+v, want -32803", m)
			}
			d := errData(t, m.Error)
			if d["code"] != string(errcode.TokenCount) || d["reason"] != tt.reason {
				t.Errorf("data %v, want code %s reason %s", d, errcode.TokenCount, tt.reason)
			}
		})
	}
}

// TestCountTokensMatchesLens: for a file a pack redacts, acode/countTokens
// by uri gives the number its file lens shows (the pack's count beside it).
func TestCountTokensMatchesLens(t *testing.T) {
	root := tempRoot(t)
	text := "package svc\n\nvar apiKey = \"sk-proj-Xq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt\"\n\nfunc F() int { return 1 }\n"
	writeFiles(t, root, map[string]string{"svc.go": text})
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	path := filepath.Join(root, "svc.go")
	c.open(path, "go", text)
	u := string(pathToURI(path))
	var got countTokensResult
	c.result(methodCountTokens, map[string]any{"uri": u}, &got)
	lenses := getLenses(t, c, u)
	if len(lenses) == 0 {
		t.Fatal("no lenses")
	}
	lensTokens := strings.ReplaceAll(strings.SplitN(lenses[0].Title, " tokens", 2)[0], ",", "")
	if lensTokens != fmt.Sprint(got.Tokens) {
		t.Errorf("lens says %q tokens, countTokens %d", lenses[0].Title, got.Tokens)
	}
	if got.PackedTokens == nil || *got.PackedTokens >= got.Tokens || got.Note == "" {
		t.Errorf("countTokens %+v: want the pack's smaller count and the reason beside it", got)
	}
}
