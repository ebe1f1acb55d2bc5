package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

func TestCountTokens(t *testing.T) {
	root := tempRoot(t)
	onDisk := "package disk\n\nfunc OnDisk() string { return \"disk\" }\n"
	writeFiles(t, root, map[string]string{
		"disk.go":    onDisk,
		"open.go":    "package open // the disk version\n",
		".env":       "API_KEY=abc\n",
		".gitignore": "ignored.go\n",
		"ignored.go": "package ignored\n",
		"empty.go":   "",
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
			if d["code"] != CodeCountFailed || d["reason"] != tt.reason {
				t.Errorf("data %v, want code %s reason %s", d, CodeCountFailed, tt.reason)
			}
		})
	}
}
