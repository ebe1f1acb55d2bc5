package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// TestTokenizerFileSpellingsBounded replays issue 21's growth: the
// server compiled and kept a tokenizer file per spelling of its path
// (+25 MiB a request, for the life of the process). 1,000 tokenizerFile
// requests naming Llama 3's tokenizer.json in different ways must leave
// the heap at most 200 MB larger, and all count the same.
// hfLlama3JSON is Llama 3's tokenizer.json, installed by make
// tokenizer-hf-ref (npm).
var hfLlama3JSON = filepath.Join("..", "tools", "hf-tokenizers-ref", "node_modules", "@lenml", "tokenizer-llama3", "models", "tokenizer.json")

func TestTokenizerFileSpellingsBounded(t *testing.T) {
	// The quick suite uses the committed small file (no npm needed); the
	// full suite the real, large one whose compile made the growth.
	src := hfLlama3JSON
	if testing.Short() {
		src = smallBPEJSON
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatalf("Llama 3's tokenizer.json is not installed (%v): run make tokenizer-hf-ref", err)
	}
	root := tempRoot(t)
	if err := os.MkdirAll(filepath.Join(root, "models", "x", "y"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "models", "tokenizer.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	data = nil
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	n := 1000
	if testing.Short() {
		n = 200
	}
	spell := func(i int) string {
		switch i % 4 {
		case 0:
			return "models" + strings.Repeat("/.", i/4+1) + "/tokenizer.json"
		case 1:
			return root + "/models/" + strings.Repeat("x/../", i%50+1) + "/tokenizer.json"
		case 2:
			return "./models/" + strings.Repeat("x/y/../../", i%30+1) + strings.Repeat("/", i%9+1) + "tokenizer.json"
		}
		return filepath.Join(root, "models") + strings.Repeat("/", i/4+2) + "tokenizer.json"
	}
	content := "a line\nanother line\n"
	var m0, m1 runtime.MemStats
	first := -1
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			file, _ := json.Marshal(spell(i))
			var fit conversation.FitResult
			c.result(methodFitToolResult, json.RawMessage(`{"tool":"read_file","content":"a line\nanother line\n","tokenizerFile":`+string(file)+`}`), &fit)
			if first < 0 {
				first = fit.Tokens
				runtime.GC()
				runtime.ReadMemStats(&m0) // after the one compile
			} else if fit.Tokens != first {
				t.Errorf("%s: %d tokens, want %d", spell(i), fit.Tokens, first)
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		t.Fatal("1,000 tokenizerFile requests did not finish within 5 minutes")
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	grew := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
	t.Logf("%d requests for %q: heap %+.1f MiB after the first (total %.1f MiB)", n, content[:6], float64(grew)/(1<<20), float64(m1.HeapAlloc)/(1<<20))
	if grew > 200<<20 || m1.HeapAlloc > 400<<20 {
		t.Errorf("heap grew by %.1f MiB to %.1f MiB over %d requests, want ≤ 200 MB", float64(grew)/(1<<20), float64(m1.HeapAlloc)/(1<<20), n)
	}
}
