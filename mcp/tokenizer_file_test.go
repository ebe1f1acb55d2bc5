package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestConfigTokenizerFile: context.tokenizer.file of the config is the
// tokenizer of every tool that is given no model or encoding — count_tokens
// counts with the encoding pack_context packs with.
func TestConfigTokenizerFile(t *testing.T) {
	// A small byte-level BPE tokenizer.json committed for tests
	// (testdata/tokenizer/README.md): no npm install needed.
	abs, err := filepath.Abs(filepath.Join("..", "testdata", "tokenizer", "small-bpe.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{}
	for k, v := range sampleFiles {
		files[k] = v
	}
	// A repository's config may only name a tokenizer file inside the
	// workspace (issue 21): copy Llama 3's there.
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	abs = filepath.Join(root, "tokenizer.json")
	files["tokenizer.json"] = string(data)
	files[".agent/config.yml"] = "context:\n  tokenizer:\n    file: " + abs + "\n"
	writeTree(t, root, files)
	cs, _ := connect(t, Options{Root: root}, nil)
	want, err := tokenizer.ForFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(want.Encoding(), tokenizer.FilePrefix) {
		t.Fatalf("ForFile encoding = %q, want the %q prefix", want.Encoding(), tokenizer.FilePrefix)
	}

	p := callTool(t, cs, "pack_context", map[string]any{"query": "checkout"})
	if p.isError {
		t.Fatal(p.text)
	}
	content, summary := splitSummary(t, p.text)
	if n := want.Count(content); !strings.Contains(summary, fmt.Sprintf(" %s tokens", comma(n))) || n == o200k(t).Count(content) {
		t.Fatalf("pack_context summary %q does not count with the tokenizer file (%d tokens)", summary, n)
	}
	text := "func (s *Service) Checkout(ctx context.Context) error { return nil }"
	r := callTool(t, cs, "count_tokens", map[string]any{"text": text})
	if r.isError || r.structured["encoding"] != want.Encoding() || num(r.structured, "tokens") != want.Count(text) {
		t.Errorf("count_tokens = %+v, want encoding %q and %d tokens", r, want.Encoding(), want.Count(text))
	}
	// An explicit encoding still wins over the config.
	r = callTool(t, cs, "count_tokens", map[string]any{"text": "hello world", "encoding": "cl100k_base"})
	if r.isError || r.structured["encoding"] != "cl100k_base" || num(r.structured, "tokens") != 2 {
		t.Errorf("count_tokens with encoding = %+v", r)
	}
}
