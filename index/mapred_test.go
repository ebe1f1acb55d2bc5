package index

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
)

// TestMapRedactedRoundTrip: a record comes back for its file's very stat
// and chunking key only, across a flush and a new open (from the file);
// the file holds no path; a body over maxRedBody is not kept; an altered
// file is ignored; the word hashes and keyed marks are stable and keyed.
func TestMapRedactedRoundTrip(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	x := openTest(t, root, dir)
	s := &Set{idx: []*Index{x}}
	p := filepath.Join(root, "secret_holder.go")
	ref := collector.FileRef{Abs: p, Path: "secret_holder.go", Info: write(t, p, "package a\n")}
	if _, ok := s.MapRedacted(ref, "k"); ok {
		t.Fatal("a record before any put")
	}
	s.PutMapRedacted(ref, "k", []byte("body one"))
	if b, ok := s.MapRedacted(ref, "k"); !ok || string(b) != "body one" {
		t.Fatalf("record = %q, %v", b, ok)
	}
	if _, ok := s.MapRedacted(ref, "other key"); ok {
		t.Error("a record for another chunking key")
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	s2 := &Set{idx: []*Index{y}}
	if b, ok := s2.MapRedacted(ref, "k"); !ok || string(b) != "body one" {
		t.Fatalf("after a new open: record = %q, %v", b, ok)
	}
	changed := collector.FileRef{Abs: p, Path: ref.Path, Info: write(t, p, "package ab\n")}
	if _, ok := s2.MapRedacted(changed, "k"); ok {
		t.Error("a record for another stat")
	}
	raw, err := os.ReadFile(filepath.Join(dir, redName))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"secret_holder", root} {
		if bytes.Contains(raw, []byte(w)) {
			t.Errorf("the file holds %q", w)
		}
	}
	raw[len(raw)/2] ^= 1
	os.WriteFile(filepath.Join(dir, redName), raw, 0o600)
	if recs := readRed(filepath.Join(dir, redName), y.k, y.refusedVH()); recs != nil {
		t.Error("an altered file was read")
	}
	s2.PutMapRedacted(changed, "k", make([]byte, maxRedBody+1))
	if _, ok := s2.MapRedacted(changed, "k"); ok {
		t.Error("a body over maxRedBody was kept")
	}
	if s.MapWordHash("Alpha") != s2.MapWordHash("Alpha") || s.MapWordHash("Alpha") == s.MapWordHash("Beta") ||
		s.MapWordHash("Alpha") == x.k.termHash("Alpha") {
		t.Error("word hashes are not stable, not distinct, or not under their own key")
	}
	m := string(bytes.Repeat([]byte{7}, 16))
	if km := s.MapMark(m); len(km) != 16 || km == m || km != s2.MapMark(m) {
		t.Errorf("keyed mark %x of %x", km, m)
	}
}
