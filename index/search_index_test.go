package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/collector"
)

// searchSet is a Set as a collector.SearchIndex, counting the files its
// filter rules out.
type searchSet struct {
	*Set
	skipped *atomic.Int64
}

func (s searchSet) SearchFilter(re *syntax.Regexp) func(collector.FileRef) (bool, bool) {
	filter := s.Set.SearchFilter(re)
	if filter == nil {
		return nil
	}
	return func(f collector.FileRef) (bool, bool) {
		skip, known := filter(f)
		if skip {
			s.skipped.Add(1)
		}
		return skip, known
	}
}

func (s searchSet) Learn(f collector.FileRef, text string) { s.LearnTerms(f, text) }

// overlay is an editor's open documents.
type overlay map[string]string

func (o overlay) Open(abs string) (string, time.Time, bool) {
	text, ok := o[abs]
	return text, time.Time{}, ok
}

// TestSearchWithIndex: a search that asks the index (cold: it reads and
// learns every file; warm: it skips the files the index rules out) finds
// exactly what a search without one finds — sources, order, relevance,
// exclusions — for literal, case-insensitive and regex patterns with and
// without a certain word, a pattern nothing matches, after a file changed
// on disk, and with an open document whose unsaved text differs from the
// disk's. The warm searches do skip files.
func TestSearchWithIndex(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"transport.go": "package http\n\n// closeIdleConns closes the idle connections.\nfunc (t *Transport) closeIdleConns() {\n\tt.idleConn = nil\n}\n",
		"server.go":    "package http\n\n// Server has an idle connection timeout.\ntype Server struct {\n\tIdleTimeout time.Duration\n}\n",
		"client.go":    "package http\n\nfunc (c *Client) CloseIdleConnections() { c.transport().closeIdleConns() }\n",
		"docs/idle.md": "# Idle connection timeout\n\nThe server closes an idle connection after IdleTimeout.\n",
		"bom.go":       "\ufeffpackage http\n\nvar closeIdleConnsHook func()\n",
		"secret.go":    "package http\n\nconst password = \"hunter2-closeIdleConns-Tz9q\"\n",
		"empty.go":     "",
		"blank.go":     "   \n\n",
		"bin.dat":      "closeIdleConns\x00\x01\x02",
		".gitignore":   "ignored.go\n",
		"ignored.go":   "package http\n\nfunc closeIdleConns() {}\n",
		".env":         "closeIdleConns=1\n",
		"big.go":       "package http\n\n// closeIdleConns " + strings.Repeat("x", 3000) + "\n",
	}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("pkg%d/file.go", i)] = fmt.Sprintf("package pkg%d\n\nfunc Handle%d() error { return nil }\n", i, i)
	}
	for name, text := range files {
		write(t, filepath.Join(root, filepath.FromSlash(name)), text)
	}
	open := overlay{}
	ws, err := collector.New(collector.Options{Roots: []string{root}, MaxFileSize: 2048, Overlay: open})
	if err != nil {
		t.Fatal(err)
	}
	x, err := Open(root, Options{Dir: t.TempDir(), Version: "test", now: later})
	if err != nil {
		t.Fatal(err)
	}
	set := &Set{idx: []*Index{x}}
	defer set.Close()
	var skipped atomic.Int64
	idx := searchSet{Set: set, skipped: &skipped}

	patterns := []struct {
		pattern string
		regex   bool
		skips   bool // the warm search skips files
	}{
		{"closeIdleConns", false, true},
		{"idle connection timeout", false, true}, // any case
		{"Idle connection", false, false},        // "Idle" may follow a letter outside ASCII that cuts nothing
		{`func \(t \*Transport\) closeIdleConns`, true, true},
		{`(?i)IDLE CONNECTION`, true, false},
		{`(?i) IDLE CONNECTION `, true, true},
		{`idle.*timeout`, true, false}, // no certain word
		{`^package http$`, true, true},
		{"wombatNotAnywhere", false, true},
		{`(Handle3|Handle1)\(`, true, false},
	}
	check := func(stage string) {
		t.Helper()
		for _, p := range patterns {
			want, wantX, err := ws.Search(context.Background(), p.pattern, p.regex, 0, 2)
			if err != nil {
				t.Fatal(err)
			}
			skipped.Store(0)
			got, gotX, err := ws.SearchIndexed(context.Background(), idx, p.pattern, p.regex, 0, 2)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s %q: sources differ from the search without an index (-want +got):\n%s", stage, p.pattern, d)
			}
			if d := cmp.Diff(wantX, gotX); d != "" {
				t.Errorf("%s %q: exclusions differ (-want +got):\n%s", stage, p.pattern, d)
			}
			if stage != "cold" && p.skips && skipped.Load() == 0 {
				t.Errorf("%s %q: the index ruled out no file", stage, p.pattern)
			}
			if !p.skips && skipped.Load() != 0 {
				t.Errorf("%s %q: %d files ruled out for a pattern without a certain word", stage, p.pattern, skipped.Load())
			}
		}
	}
	check("cold")
	check("warm")
	if err := set.Flush(); err != nil {
		t.Fatal(err)
	}
	check("warm, from the segment")

	// A file changed after it was indexed: its new stat misses.
	write(t, filepath.Join(root, "pkg3", "file.go"), "package pkg3\n\n// closeIdleConns and an idle connection timeout, now here too.\nfunc Handle3() error { return nil }\n")
	check("a file changed")
	// An open document: the editor's text, never ruled out.
	open[filepath.Join(root, "pkg4", "file.go")] = "package pkg4\n\n// unsaved: closeIdleConns, the idle connection timeout, wombatNotAnywhere\n"
	check("an open document")
	// Nothing of the file redaction touched was learned.
	sec := filepath.Join(root, "secret.go")
	info, err := os.Stat(sec)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := set.Terms(collector.FileRef{Abs: sec, Path: "secret.go", Info: info}, []string{"password"}); ok {
		t.Error("the index holds terms of a file redaction touched")
	}
	if _, ok := set.Terms(collector.FileRef{Abs: filepath.Join(root, "server.go"), Path: "server.go", Info: statFile(t, filepath.Join(root, "server.go"))}, []string{"idle"}); !ok {
		t.Error("the index learned nothing of a file the searches read")
	}
	if os.Getenv("ACODE_SEARCH_STATS") != "" {
		t.Logf("index stats: %+v", set.Stats())
	}
}

func statFile(t *testing.T, p string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
