package pack

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// spanFiles returns the token corpus and the Go, C and markdown files of
// net/http and encoding/json in GOROOT: code the chunker cuts structurally
// and into pieces.
func spanFiles(t testing.TB, max int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	add := func(dir string, keep func(string) bool) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || !keep(e.Name()) || len(files) >= max {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Join(dir, e.Name())] = b
		}
	}
	all := func(string) bool { return true }
	add(filepath.Join("..", "testdata", "tokcorpus"), all)
	goroot := filepath.Join(runtime.GOROOT(), "src")
	add(filepath.Join(goroot, "net", "http"), func(n string) bool { return strings.HasSuffix(n, ".go") })
	add(filepath.Join(goroot, "encoding", "json"), all)
	add(filepath.Join(goroot, "runtime"), func(n string) bool { return strings.HasSuffix(n, ".s") || strings.HasSuffix(n, ".h") })
	return files
}

// TestSpanCountsSameChunks checks that counting a file once (the
// spanCounter the pack gives the chunker) yields exactly the chunks —
// bounds, names and token counts — of counting every range directly, for
// every exact encoding, at the chunk sizes packs use.
func TestSpanCountsSameChunks(t *testing.T) {
	files := spanFiles(t, 1<<30)
	paths := slices.Sorted(maps.Keys(files))
	for _, enc := range tokenizer.Encodings() {
		tok, err := tokenizer.ForEncoding(enc)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(enc, func(t *testing.T) {
			for i, path := range paths {
				if step := map[bool]int{true: 3, false: 12}[enc == tokenizer.O200kBase]; i%step != 0 {
					continue // a sample of the files: the test stays quick
				}
				src := files[path]
				for _, max := range []int{400, 2000} {
					opts := chunker.Options{MaxTokens: max, MinTokens: 100, PreferStructural: true}
					want, err := chunker.Split(context.Background(), path, src, tok.Count, opts)
					if err != nil {
						t.Fatal(err)
					}
					opts.Spans = spanCounter{tok}
					got, err := chunker.Split(context.Background(), path, src, tok.Count, opts)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("%s max %d (-direct +spans):\n%s", path, max, diff)
					}
				}
			}
		})
	}
}

// BenchmarkCutNetHTTP measures chunking and counting every Go file of
// net/http as a cold pack does (a fresh count cache, chunks of 400
// tokens): "direct" counts every range it needs, "spans" counts each file
// once and derives what it can.
func BenchmarkCutNetHTTP(b *testing.B) {
	files := spanFiles(b, 1<<30)
	for k := range files {
		if !strings.Contains(k, filepath.Join("net", "http")) {
			delete(files, k)
		}
	}
	tok, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"direct", "spans"} {
		b.Run(mode, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				c := tokenizer.NewCached(tok, 0)
				opts := chunker.Options{MaxTokens: 400, MinTokens: 100, PreferStructural: true}
				if mode == "spans" {
					opts.Spans = spanCounter{c}
				}
				for path, src := range files {
					if _, err := chunker.Split(context.Background(), path, src, c.Count, opts); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
