package collector

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// listed returns the paths and sizes List gives for the whole workspace.
func listed(t *testing.T, w *Workspace) map[string]int64 {
	t.Helper()
	refs, _, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, f := range refs {
		out[f.Path] = f.Info.Size()
	}
	return out
}

// TestKeptListings: with listings kept, every change FileChanged reports
// is seen by the next List, which equals a fresh walk; a change it is not
// told of is not (the listing was kept); changes in ignored places keep
// the listing.
func TestKeptListings(t *testing.T) {
	w, root := newWorkspace(t, Options{}, file("a.go", "package a\n"), file("sub/b.go", "package b\n"),
		file(".gitignore", "gen/\n"), file("gen/x.go", "package gen\n"))
	w.KeepListings(nil)
	fresh := func() map[string]int64 {
		w2, err := New(Options{Roots: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		return listed(t, w2)
	}
	write := func(rel, content string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	check := func(step string) {
		t.Helper()
		if diff := cmp.Diff(fresh(), listed(t, w)); diff != "" {
			t.Errorf("%s: kept listing differs from a fresh walk (-fresh +kept):\n%s", step, diff)
		}
	}
	check("first")
	if n := len(w.lists.entries); n != 1 {
		t.Fatalf("%d listings kept, want 1", n)
	}

	// Not told: the kept listing still has the old size (proof it is kept).
	p := write("a.go", "package a\n\nfunc A() {}\n")
	if got := listed(t, w)["a.go"]; got != int64(len("package a\n")) {
		t.Fatalf("a.go listed with size %d before the change was reported: not kept", got)
	}
	w.FileChanged(p)
	check("changed file")
	if n := len(w.lists.entries); n != 1 {
		t.Errorf("a changed file dropped the listing (%d kept), want it patched", n)
	}

	w.FileChanged(write("gen/y.go", "package gen\n")) // ignored: nothing changes
	w.FileChanged(filepath.Join(root, ".git", "index"))
	w.FileChanged(filepath.Join(filepath.Dir(root), "outside.go"))
	if n := len(w.lists.entries); n != 1 {
		t.Errorf("an ignored change dropped the listing (%d kept)", n)
	}
	check("ignored change")

	w.FileChanged(write("sub/c.go", "package b\n"))
	check("new file")
	p = filepath.Join(root, "sub", "b.go")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	w.FileChanged(p)
	check("deleted file")
	w.FileChanged(write(".gitignore", ""))
	check("ignore file")
	if _, ok := listed(t, w)["gen/x.go"]; !ok {
		t.Error("gen/x.go not listed after .gitignore stopped ignoring it")
	}
	w.FileChanged(write("big.go", string(make([]byte, DefaultMaxFileSize+1))))
	check("too large")
}

// TestKeptListingsWatch: a listing is kept only once the watcher says its
// directories were all watched before the walk.
func TestKeptListingsWatch(t *testing.T) {
	w, root := newWorkspace(t, Options{}, file("a.go", "package a\n"), file("sub/deep/b.go", "package b\n"))
	watched := map[string]bool{}
	w.KeepListings(func(dirs []string) bool {
		all := true
		for _, d := range dirs {
			if !watched[d] {
				watched[d], all = true, false
			}
		}
		return all
	})
	listed(t, w)
	if len(w.lists.entries) != 0 {
		t.Fatal("a listing was kept before its directories were watched")
	}
	for _, d := range []string{root, filepath.Join(root, "sub"), filepath.Join(root, "sub", "deep")} {
		if !watched[d] {
			t.Errorf("%s not watched", d)
		}
	}
	listed(t, w)
	if len(w.lists.entries) != 1 {
		t.Fatal("the second walk was not kept")
	}
}

// TestKeptListingStale: a change the workspace was not told of (a watcher
// that missed it) still reads the file as it is now, and the next List
// walks again.
func TestKeptListingStale(t *testing.T) {
	w, root := newWorkspace(t, Options{}, file("a.go", "package a\n"))
	w.KeepListings(nil)
	listed(t, w)
	p := filepath.Join(root, "a.go")
	if err := os.WriteFile(p, []byte("package a // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs, _, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	s, x := w.ReadRef(context.Background(), OpenFile, refs[0])
	if x != nil {
		t.Fatalf("stale listing: %s excluded (%s: %s), want it read", x.Path, x.Reason, x.Detail)
	}
	if s.Content != "package a // changed\n" {
		t.Errorf("read %q, want the file's new text", s.Content)
	}
	if len(w.lists.entries) != 0 {
		t.Error("the stale listing is still kept")
	}
}

// TestKnownExclusions: with listings kept, a file excluded for its
// content is not read again while its stat is unchanged (shown by
// changing its content behind the workspace's back, same size and time),
// and is read again once its change is reported.
func TestKnownExclusions(t *testing.T) {
	bin := "ab\x00cd\x00ef\n"
	w, root := newWorkspace(t, Options{}, file("a.go", "package a\n"), file("blob.bin", bin))
	w.KeepListings(nil)
	ctx := context.Background()
	read := func() *Exclusion {
		t.Helper()
		refs, _, err := w.List(ctx, OpenFile)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range refs {
			if f.Path == "blob.bin" {
				_, x := w.ReadRef(ctx, OpenFile, f)
				return x
			}
		}
		t.Fatal("blob.bin not listed")
		return nil
	}
	if x := read(); x == nil || x.Reason != ReasonBinary {
		t.Fatalf("blob.bin: %+v, want excluded as binary", x)
	}
	p := filepath.Join(root, "blob.bin")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("abcdefghi\n"), 0o644); err != nil { // same size
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if x := read(); x == nil || x.Reason != ReasonBinary {
		t.Fatalf("blob.bin read again although its stat did not change: %+v", x)
	}
	w.FileChanged(p)
	if x := read(); x != nil {
		t.Fatalf("blob.bin after its change was reported: %+v, want it read as text", x)
	}
}
