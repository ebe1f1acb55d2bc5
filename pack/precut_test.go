package pack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestPutChunks: chunks given with PutChunks for an open file's text, path
// and the engine's chunk options are the ones a pack of that file uses
// (planted here as one chunk of the whole file, which Split would never
// cut); given for another text or path they are not.
func TestPutChunks(t *testing.T) {
	root := t.TempDir()
	var sb strings.Builder
	sb.WriteString("package a\n\n")
	for _, name := range []string{"Alpha", "Beta", "Gamma", "Delta"} {
		sb.WriteString("// " + name + " does a thing.\nfunc " + name + "() int {\n\tx := 1\n\treturn x + 2\n}\n\n")
	}
	text := sb.String()
	abs := filepath.Join(root, "a.go")
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Context.Chunking.MinChunkTokens = 0 // no merging: Split cuts one chunk per function
	tok, err := tokenizer.ForEncoding("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	whole := []chunker.Chunk{{StartLine: 1, EndLine: strings.Count(text, "\n"), StartByte: 0, EndByte: len(text), Kind: "lines", Tokens: tok.Count(text)}}
	entries := func(path, content string) int {
		e := NewEngine(cfg, ws)
		e.PutChunks(path, content, e.ChunkOptions(""), "o200k_base", true, whole)
		total := 100000
		res, err := e.Pack(context.Background(), Request{Budget: &config.BudgetOverrides{TotalTokens: &total}}, []OpenDoc{{AbsPath: abs}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Included)
	}
	if n := entries("a.go", text); n != 1 {
		t.Errorf("the given chunks were not used: %d items included, want the 1 planted", n)
	}
	if n := entries("b.go", text); n < 4 {
		t.Errorf("chunks given for another path were used: %d items included", n)
	}
	if n := entries("a.go", text+"\n"); n < 4 {
		t.Errorf("chunks given for another text were used: %d items included", n)
	}
}
