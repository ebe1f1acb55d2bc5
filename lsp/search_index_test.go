package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSearchUsesIndex: acode/packContext with a search in a server whose
// workspace index is on gives byte for byte the result of a server
// without one — for literal, case-insensitive and regex patterns with and
// without a certain word, a pattern nothing matches, after a file changed
// (reported by didChangeWatchedFiles), and with an open document whose
// unsaved text differs from the disk's — and the indexed server answers
// from the index: the files' terms, learned by its first search, are
// asked on the next.
func TestSearchUsesIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the index's entries to settle (2 s)")
	}
	root := tempRoot(t)
	files := map[string]string{
		"transport.go": "package http\n\n// closeIdleConns closes the idle connections.\nfunc (t *Transport) closeIdleConns() {\n\tt.idleConn = nil\n}\n",
		"server.go":    "package http\n\n// Server has an idle connection timeout.\ntype Server struct {\n\tIdleTimeout time.Duration\n}\n",
		"client.go":    "package http\n\nfunc (c *Client) CloseIdleConnections() { c.transport().closeIdleConns() }\n",
		"docs/idle.md": "# Idle connection timeout\n\nThe server closes an idle connection after IdleTimeout.\n",
		"secret.go":    "package http\n\n// closeIdleConns is not here.\nconst password = \"hunter2-9xTq2Lz\"\n",
	}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("pkg%d/file.go", i)] = fmt.Sprintf("package pkg%d\n\nfunc Handle%d() error { return nil }\n", i, i)
	}
	writeFiles(t, root, files)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	time.Sleep(2100 * time.Millisecond) // entries of files changed 2 s ago are trusted (docs/index.md)

	watch := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	start := func(indexed bool) (*fakeClient, *Server) {
		var srv *Server
		c := startServer(t, Options{ConfigPollInterval: time.Hour, WorkspaceIndex: indexed}, func(s *Server) { srv = s })
		c.initialize(watch, nil, root)
		c.waitNote("client/registerCapability", 0, nil)
		for deadline := time.Now().Add(10 * time.Second); !srv.watching.Load(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the registration was not answered in 10 s")
			}
		}
		return c, srv
	}
	with, srv := start(true)
	without, _ := start(false)
	patterns := []struct {
		pattern string
		regex   bool
	}{
		{"closeIdleConns", false},
		{"idle connection timeout", false},
		{`func \(t \*Transport\) closeIdleConns`, true},
		{`(?i) IDLE CONNECTION `, true},
		{`idle.*timeout`, true},
		{"wombatNotAnywhere", false},
	}
	pack := func(c *fakeClient, pattern string, regex bool) string {
		t.Helper()
		m := c.call("acode/packContext", map[string]any{"query": "idle connection timeout", "includeOpenFiles": true,
			"search": map[string]any{"pattern": pattern, "regex": regex}})
		if m.Error != nil {
			return "error: " + m.Error.Message
		}
		return string(m.Result)
	}
	check := func(stage string) {
		t.Helper()
		for _, p := range patterns {
			want, got := pack(without, p.pattern, p.regex), pack(with, p.pattern, p.regex)
			if got != want {
				t.Errorf("%s %q: the indexed server's result differs:\n got %s\nwant %s", stage, p.pattern, got, want)
			}
		}
	}
	check("first")
	hits := srv.conf.index.set.Stats().TermHits
	check("warm")
	if srv.conf.index.set.Stats().TermHits == hits {
		t.Error("the warm searches asked the index nothing")
	}

	changed := func(rel string, text string) {
		writeFiles(t, root, map[string]string{rel: text})
		for _, c := range []*fakeClient{with, without} {
			c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
				{"uri": string(pathToURI(filepath.Join(root, filepath.FromSlash(rel)))), "type": 2}}})
		}
	}
	changed("pkg3/file.go", "package pkg3\n\n// closeIdleConns, and an idle connection timeout, now here too.\nfunc Handle3() error { return nil }\n")
	check("a file changed")
	if got := pack(with, "closeIdleConns", false); !strings.Contains(got, "now here too") {
		t.Error("the changed file's new match is not in the pack")
	}
	for _, c := range []*fakeClient{with, without} {
		c.open(filepath.Join(root, "pkg4", "file.go"), "go", "package pkg4\n\n// unsaved: closeIdleConns, the idle connection timeout, wombatNotAnywhere\n")
	}
	check("an open document")
	if got := pack(with, "wombatNotAnywhere", false); !strings.Contains(got, "unsaved") {
		t.Error("the open document's unsaved match is not in the pack")
	}
}
