package chunker

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestSpanCountSplitsAtInnerCuts holds spanCount to the Counter on runs of
// lines whose ends are not cut points (a line before a blank one, a blank
// or indented line): counted as the bytes outside the run's outermost cut
// points plus the spans between, for every exact encoding whose spans
// answer, on the token corpus and Go, C and markdown sources. It fails if
// no run took that path (the test would then check nothing new).
func TestSpanCountSplitsAtInnerCuts(t *testing.T) {
	files := spanTestFiles(t)
	for _, enc := range tokenizer.Encodings() {
		tok, err := tokenizer.ForEncoding(enc)
		if err != nil {
			t.Fatal(err)
		}
		if !tok.Exact() {
			continue
		}
		t.Run(enc, func(t *testing.T) {
			derived, spans := 0, false
			for path, src := range files {
				sp := tokenizer.CountSpans(tok, string(src))
				if sp == nil {
					continue
				}
				spans = true
				l := newLayout(context.Background(), src, tok.Count, Options{})
				l.spans = sp
				n := l.li.count()
				step := max(1, n/40)
				for first := 0; first < n; first += step {
					for last := first; last < min(n, first+90); last += 1 + (last-first)/8 {
						sb, eb := l.li.start(first), l.li.end(last)
						got, ok := l.spanCount(sb, eb)
						if !ok {
							continue
						}
						if _, whole := sp.Count(sb, eb); !whole {
							derived++
						}
						if want := tok.Count(string(src[sb:eb])); got != want {
							t.Fatalf("%s lines %d–%d: spans %d, counter %d", path, first+1, last+1, got, want)
						}
					}
				}
			}
			if spans && derived == 0 {
				t.Fatal("no run was counted around inner cut points")
			}
		})
	}
}

// spanTestFiles returns the token corpus and a sample of Go's net/http,
// encoding/json and runtime sources.
func spanTestFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	add := func(dir string, keep func(string) bool, most int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if e.IsDir() || !keep(e.Name()) || n >= most {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Join(dir, e.Name())] = b
			n++
		}
	}
	all := func(string) bool { return true }
	add(filepath.Join("..", "testdata", "tokcorpus"), all, 1<<20)
	goroot := filepath.Join(runtime.GOROOT(), "src")
	add(filepath.Join(goroot, "net", "http"), func(n string) bool { return strings.HasSuffix(n, ".go") }, 12)
	add(filepath.Join(goroot, "encoding", "json"), all, 1<<20)
	add(filepath.Join(goroot, "runtime"), func(n string) bool { return strings.HasSuffix(n, ".s") || strings.HasSuffix(n, ".h") }, 8)
	return files
}
