package collector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListReadsNothing: List decides by names and stats alone — a file it
// lists may be unreadable (mode 000) and is only found so by ReadRef;
// exclusions that need no content (secret name, size cap, ignored) come
// from List itself.
func TestListReadsNothing(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Log("running as root: mode 000 does not stop reading; the unreadable file is checked by name only")
	}
	w, root := newWorkspace(t, Options{MaxFileSize: 64},
		file(".gitignore", "*.log\n"), file("a.go", "package a\n"), file("locked.go", "package l\n"),
		file("big.txt", string(make([]byte, 100))), file(".env", "A=1\n"), file("x.log", "x"), file("bin.dat", "\x00\x01"))
	if err := os.Chmod(filepath.Join(root, "locked.go"), 0); err != nil {
		t.Fatal(err)
	}
	refs, excl, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range refs {
		paths = append(paths, r.Path)
		if r.Abs != filepath.Join(root, filepath.FromSlash(r.Path)) || r.Info == nil || r.Info.Size() == 0 {
			t.Errorf("ref %s: Abs %q Info %v", r.Path, r.Abs, r.Info)
		}
	}
	want := []string{".gitignore", "a.go", "bin.dat", "locked.go"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("List paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".env secret", "big.txt too_large", "x.log ignored"}, summarize(nil, excl).Exclusions); diff != "" {
		t.Errorf("List exclusions (-want +got):\n%s", diff)
	}
	// ReadRef applies the content rules, as Walk does.
	s, x := w.ReadRef(context.Background(), OpenFile, refs[1])
	if x != nil || s.Content != "package a\n" || s.Path != "a.go" {
		t.Errorf("ReadRef(a.go) = %+v, %+v", s, x)
	}
	if _, x := w.ReadRef(context.Background(), OpenFile, refs[2]); x == nil || x.Reason != ReasonBinary {
		t.Errorf("ReadRef(bin.dat) exclusion = %+v, want binary", x)
	}
}

// TestListDeterministic: the parallel directory reads do not change the
// result — a deep and wide tree with a symlinked directory (which a walk
// enters once, by the first path met in order) lists the same every time,
// and Walk equals List followed by ReadRef.
func TestListDeterministic(t *testing.T) {
	var entries []fx
	for i := 0; i < 12; i++ {
		for j := 0; j < 6; j++ {
			entries = append(entries, file(fmt.Sprintf("d%02d/s%d/deep/f.go", i, j), "package f\n"), file(fmt.Sprintf("d%02d/s%d/g.go", i, j), "package g\n"))
		}
	}
	entries = append(entries, link("a-link", "d05"), link("zz-link", "d07"), file(".gitignore", "d03/\n"))
	w, _ := newWorkspace(t, Options{FollowSymlinks: true}, entries...)
	first, firstExcl, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 11*12+1 {
		t.Errorf("listed %d files, want %d", len(first), 11*12+1)
	}
	for run := 0; run < 20; run++ {
		refs, excl, err := w.List(context.Background(), OpenFile)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(summarizeRefs(first, firstExcl), summarizeRefs(refs, excl)); diff != "" {
			t.Fatalf("run %d differs (-first +now):\n%s", run, diff)
		}
	}
	srcs, excl, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summarizeRefs(first, firstExcl), summarize(srcs, excl)); diff != "" {
		t.Errorf("Walk differs from List (-list +walk):\n%s", diff)
	}
}

func summarizeRefs(refs []FileRef, excl []Exclusion) listing {
	l := summarize(nil, excl)
	for _, r := range refs {
		l.Sources = append(l.Sources, r.Path)
	}
	return l
}

// TestReadRawNotRedacted: ReadRaw applies the content rules of ReadRef
// (same exclusions) but returns the text as read, without redaction and
// without a byte order mark.
func TestReadRawNotRedacted(t *testing.T) {
	w, _ := newWorkspace(t, Options{},
		file("a.go", "\ufeffpackage a\n\nconst apiKey = \""+fakeHex+"\"\n"), file("bin.dat", "\x00\x01"), file("blank.txt", " \n"))
	refs, _, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		raw, rx := w.ReadRaw(context.Background(), OpenFile, r)
		s, sx := w.ReadRef(context.Background(), OpenFile, r)
		if (rx == nil) != (sx == nil) || rx != nil && (rx.Reason != sx.Reason || rx.Detail != sx.Detail) {
			t.Errorf("%s: ReadRaw exclusion %+v, ReadRef %+v", r.Path, rx, sx)
		}
		if r.Path == "a.go" {
			if want := "package a\n\nconst apiKey = \"" + fakeHex + "\"\n"; string(raw) != want {
				t.Errorf("ReadRaw(a.go) = %q, want %q", raw, want)
			}
			if s.Redactions != 1 {
				t.Errorf("ReadRef(a.go) made %d redactions, want 1", s.Redactions)
			}
		}
	}
}

// TestListStatsLargeDirectories: the stats of directories larger than one
// helper's run (taken in parallel) land on their own entries: every
// listed file's Info is its own stat, in the order of a sequential walk,
// with symlinks among them resolved in order.
func TestListStatsLargeDirectories(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for d := 0; d < 3; d++ {
		for i := 0; i < 5*statRun+7; i++ {
			rel := fmt.Sprintf("d%d/f%04d.txt", d, i)
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, make([]byte, 1+i%97+d), 0o644); err != nil {
				t.Fatal(err)
			}
			want = append(want, rel)
		}
	}
	if err := os.Symlink("f0003.txt", filepath.Join(root, "d1", "f0100.link")); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Roots: []string{root}, FollowSymlinks: true})
	if err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 3; run++ {
		refs, _, err := w.List(context.Background(), OpenFile)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range refs {
			got = append(got, r.Path)
			fi, err := os.Stat(r.Abs)
			if err != nil {
				t.Fatal(err)
			}
			if !sameFileInfo(fi, r.Info) || fi.Size() != r.Info.Size() {
				t.Fatalf("%s: Info is another file's stat (size %d, want %d)", r.Path, r.Info.Size(), fi.Size())
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("listed paths (-want +got):\n%s", diff)
		}
	}
}
