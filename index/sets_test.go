package index

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// TestStatSets: sets put for a file are found by content (Set) and, while
// the file's stat is the one they were put with, by stat alone (StatSets),
// from the pending entry and from a segment; an edit, a racy entry, a
// forgotten file or a missing key make StatSets miss.
func TestStatSets(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "a.go")
	content := []byte("package a\n\nfunc A() {}\n")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(p)
	outline := []chunker.Chunk{{StartLine: 3, EndLine: 3}}
	summary := []chunker.Chunk{{Name: "ident", StartByte: 17}}
	x := openTest(t, root, dir)
	x.PutChunks(p, fi, content, "k", chunksOf(content))
	x.PutSet(p, fi, content, "outline", outline)
	x.PutSet(p, fi, content, "summary", summary)
	check := func(when string, x *Index) {
		t.Helper()
		got, ok := x.Set(p, fi, content, "outline")
		if !ok || !cmp.Equal(got, outline) {
			t.Errorf("%s: Set = %v, %v", when, got, ok)
		}
		sets, ok := x.StatSets(p, fi, []string{"k", "outline", "summary"})
		if !ok || !cmp.Equal(sets, [][]chunker.Chunk{chunksOf(content), outline, summary}) {
			t.Errorf("%s: StatSets = %v, %v", when, sets, ok)
		}
		if _, ok := x.StatSets(p, fi, []string{"outline", "other"}); ok {
			t.Errorf("%s: StatSets of a key never put hits", when)
		}
	}
	check("pending", x)
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	check("segment", y)

	// An edit (another stat) misses, even with the old content's sets kept.
	time.Sleep(10 * time.Millisecond)
	edited := append(append([]byte(nil), content...), "func B() {}\n"...)
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Lstat(p)
	if _, ok := y.StatSets(p, fi2, []string{"outline"}); ok {
		t.Error("StatSets hits after an edit")
	}
	// A put of the new text replaces the entry: the old content's sets go.
	y.PutSet(p, fi2, edited, "outline", nil)
	if sets, ok := y.StatSets(p, fi2, []string{"outline"}); !ok || len(sets[0]) != 0 {
		t.Errorf("after a put of the edit: %v, %v", sets, ok)
	}
	if _, ok := y.StatSets(p, fi2, []string{"summary"}); ok {
		t.Error("a set of the old text answers for the new one")
	}
	y.Forget(p)
	if _, ok := y.StatSets(p, fi2, []string{"outline"}); ok {
		t.Error("StatSets hits a forgotten file")
	}

	// Racy: put right after the file changed (the real clock).
	z, err := Open(root, Options{Dir: t.TempDir(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	z.PutSet(p, fi2, edited, "outline", nil)
	if _, ok := z.StatSets(p, fi2, []string{"outline"}); ok {
		t.Error("StatSets trusts a racy entry")
	}
	if _, ok := z.Set(p, fi2, edited, "outline"); !ok {
		t.Error("Set misses a racy entry (the content is at hand)")
	}
}

// TestStatSetsAfterMerge: a merge keeps what StatSets needs of a file
// that has sets only (no terms): its content hash, while the file is the
// one on disk.
func TestStatSetsAfterMerge(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "a.go")
	content := []byte("package a\n")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Lstat(p)
	for _, key := range []string{"one", "two"} {
		x := openTest(t, root, dir)
		x.PutSet(p, fi, content, key, []chunker.Chunk{{StartLine: 1, EndLine: 1, Name: key}})
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
	}
	x := openTest(t, root, dir)
	x.mu.Lock()
	err := x.compactLocked(true)
	n := len(x.segs)
	x.mu.Unlock()
	if err != nil || n != 1 {
		t.Fatalf("merge: %v, %d segments", err, n)
	}
	sets, ok := x.StatSets(p, fi, []string{"one", "two"})
	if !ok || sets[0][0].Name != "one" || sets[1][0].Name != "two" {
		t.Fatalf("after the merge: %v, %v", sets, ok)
	}
}
