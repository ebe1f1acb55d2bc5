package collector

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fx is one entry of a test tree. Kinds: "" a file with content, "dir",
// "link" a symlink to content, "fifo" a named pipe.
type fx struct {
	path    string
	content string
	kind    string
}

func file(path, content string) fx { return fx{path: path, content: content} }
func link(path, target string) fx  { return fx{path: path, content: target, kind: "link"} }
func dir(path string) fx           { return fx{path: path, kind: "dir"} }
func fifo(path string) fx          { return fx{path: path, kind: "fifo"} }

// build creates the entries under base.
func build(t testing.TB, base string, entries ...fx) {
	t.Helper()
	for _, e := range entries {
		p := filepath.Join(base, filepath.FromSlash(e.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch e.kind {
		case "":
			err = os.WriteFile(p, []byte(e.content), 0o644)
		case "dir":
			err = os.MkdirAll(p, 0o755)
		case "link":
			err = os.Symlink(filepath.FromSlash(e.content), p)
		case "fifo":
			err = mkfifo(t, p)
		default:
			t.Fatalf("unknown fixture kind %q", e.kind)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// newWorkspace builds a tree in a temporary directory laid out as
// tmp/ws (the root, where the entries go) and tmp/outside, and returns the
// workspace with the root's resolved path.
func newWorkspace(t testing.TB, opts Options, entries ...fx) (*Workspace, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "ws")
	build(t, tmp, dir("ws"), file("outside/secret.txt", "not yours\n"), file("outside/dir/f.go", "package f\n"))
	build(t, root, entries...)
	opts.Roots = append([]string{root}, opts.Roots...)
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return w, root
}

// listing is a compact, comparable view of a walk's result.
type listing struct {
	Sources    []string
	Exclusions []string // "path reason"
}

func summarize(srcs []Source, excl []Exclusion) listing {
	l := listing{Sources: []string{}, Exclusions: []string{}}
	for _, s := range srcs {
		l.Sources = append(l.Sources, s.Path)
	}
	for _, e := range excl {
		l.Exclusions = append(l.Exclusions, e.Path+" "+string(e.Reason))
	}
	return l
}

// fakeOverlay is an in-memory Overlay keyed by absolute path.
type fakeOverlay map[string]string

var overlayTime = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func (o fakeOverlay) Open(abs string) (string, time.Time, bool) {
	text, ok := o[abs]
	return text, overlayTime, ok
}

// lines joins lines with newlines, ending with one.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
