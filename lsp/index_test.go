package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

// TestWorkspaceIndexWatchedFiles: with the workspace index on, the server
// opens it for its root, asks to watch every file, and a watched change
// makes the file's entries miss; open documents' terms stay out of it.
func TestWorkspaceIndexWatchedFiles(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := tempRoot(t)
	a, b := filepath.Join(root, "a.go"), filepath.Join(root, "b.go")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
	// Entries of files changed in the last 2 s are racy (docs/index.md).
	time.Sleep(2100 * time.Millisecond)
	var srv *Server
	c := startServer(t, Options{ConfigPollInterval: time.Hour, WorkspaceIndex: true}, func(s *Server) { srv = s })
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c.initialize(caps, nil, root)
	reg, _ := c.waitNote("client/registerCapability", 0, nil)
	if !strings.Contains(string(reg.Params), `"**/*"`) {
		t.Errorf("no watcher of every file: %s", reg.Params)
	}
	ix := srv.conf.cur.Load().engine.Index
	if ix == nil {
		t.Fatal("no workspace index on the engine")
	}
	ref := func(p string) collector.FileRef {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return collector.FileRef{Abs: p, Path: filepath.Base(p), Info: fi}
	}
	for _, p := range []string{a, b} {
		ix.PutTerms(ref(p), []byte("package a\n"), map[string]int{"package": 1})
		if _, ok := ix.Terms(ref(p), []string{"package"}); !ok {
			t.Fatalf("%s: no hit right after a put", p)
		}
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": string(pathToURI(a)), "type": 2},
	}})
	status(t, c) // a request answered after the notification was handled
	if _, ok := ix.Terms(ref(a), []string{"package"}); ok {
		t.Error("a watched change did not drop the file's entry")
	}
	if _, ok := ix.Terms(ref(b), []string{"package"}); !ok {
		t.Error("an unchanged file's entry was dropped")
	}

	// An open document's text is the editor's: its terms are neither
	// looked up nor stored.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(pathToURI(b)), "languageId": "go", "version": 1, "text": "package b\n"}})
	status(t, c)
	if _, ok := ix.Terms(ref(b), []string{"package"}); ok {
		t.Error("the index answered for a document open in the editor")
	}
}
