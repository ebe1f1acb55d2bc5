package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"
)

// TestLensSettle: an edit that leaves a syntax error is answered from the
// window around it (provisional lenses); after a quiet period the server
// settles the document by a whole parse, the lenses equal a fresh
// parse's, and the client is asked to refresh them because the whole
// parse read the error differently.
func TestLensSettle(t *testing.T) {
	root := tempRoot(t)
	path := filepath.Join(root, "cookie.go")
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "cookie.go"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	settles := make(chan bool, 16)
	c := startServer(t, Options{}, func(s *Server) {
		s.onSettle = func(_ protocol.DocumentURI, changed bool) { settles <- changed }
	})
	c.initialize(map[string]any{"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}}}, nil, root)
	u := c.open(path, "go", text)
	getLenses(t, c, u) // the first, whole parse

	// "func validCookieExpires(" becomes "fu(nc validCookieExpires(": a
	// whole parse lets the error swallow the functions after it; the
	// window around it reads it alone.
	lines := strings.Split(text, "\n")
	line := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "func validCookieExpires(") {
			line = i
		}
	}
	if line < 0 {
		t.Fatal("no func validCookieExpires in GOROOT's net/http/cookie.go")
	}
	edited := strings.Join(append(append(append([]string{}, lines[:line]...), "fu(nc"+strings.TrimPrefix(lines[line], "func")), lines[line+1:]...), "\n")
	mark := c.noteCount()
	change(c, u, 2, map[string]any{"range": rng(line, 2, line, 2), "text": "("})
	provisional := getLenses(t, c, u)
	want := wantLenses(t, "gpt-4o", path, edited, 90000)
	if cmp.Equal(want, provisional) {
		t.Fatal("the lenses right after the edit are already those of a whole parse: the edit does not show the provisional path")
	}
	select {
	case changed := <-settles:
		if !changed {
			t.Error("settling did not change the provisional lenses")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the document was not settled within 10 s")
	}
	if diff := cmp.Diff(want, getLenses(t, c, u)); diff != "" {
		t.Errorf("settled lenses differ from a whole parse's (-want +got):\n%s", diff)
	}
	c.waitNote("workspace/codeLens/refresh", mark, nil)
}
