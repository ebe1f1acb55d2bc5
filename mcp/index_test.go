package mcp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/pack"
)

// TestWarmServerReadsOnlyWhatChanged: with the workspace index, a second
// pack of the tree takes every file's term statistics from the index, and
// after one file changes only that file is read again; the packs are the
// same as without the index.
func TestWarmServerReadsOnlyWhatChanged(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	words := []string{"checkout", "cart", "empty", "price", "discount", "rounding", "order", "customer", "total", "tax"}
	const n = 150 // enough for file-first selection (docs/ranking.md)
	old := time.Now().Add(-time.Hour)
	var files []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < 30; j++ {
			fmt.Fprintf(&b, "// %s %s of item %d\nfunc %s%d_%d() int { return %d }\n\n", words[(i+j)%10], words[(i*j)%10], j, words[(i+2*j)%10], i, j, i*j)
		}
		p := filepath.Join(root, fmt.Sprintf("f%03d.go", i))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
		files = append(files, p)
	}
	time.Sleep(2100 * time.Millisecond) // no racy entries (docs/index.md)
	cs, srv := connect(t, Options{Root: root, WorkspaceIndex: true}, nil)
	plain, _ := connect(t, Options{Root: root}, nil)
	type counts struct {
		index.Stats
		kept int64
	}
	stats := func() counts {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return counts{srv.index.Stats(), pack.KeptTermsHits(srv.indexMemo)}
	}
	args := map[string]any{"query": "checkout cart discount", "budget": 3000}
	pack := func() (hits, misses int64) {
		t.Helper()
		before := stats()
		r := callTool(t, cs, "pack_context", args)
		if r.isError {
			t.Fatal(r.text)
		}
		after := stats()
		if want := callTool(t, plain, "pack_context", args); want.text != r.text {
			t.Fatal("the pack with the index differs from the pack without")
		}
		// An answer the server kept from the index is a hit too.
		return after.TermHits - before.TermHits + after.kept - before.kept, after.TermMisses - before.TermMisses
	}
	if h, m := pack(); h != 0 || m != n {
		t.Fatalf("cold pack: %d term hits, %d misses; want 0 and %d", h, m, n)
	}
	if h, m := pack(); h != n || m != 0 {
		t.Fatalf("warm pack: %d term hits, %d misses; want %d and 0", h, m, n)
	}
	b, _ := os.ReadFile(files[7])
	if err := os.WriteFile(files[7], append(b, "// checkout\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if h, m := pack(); h != n-1 || m != 1 {
		t.Fatalf("after one change: %d term hits, %d misses; want %d and 1", h, m, n-1)
	}
}
