package index

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

// binaryRefusal is what the content rules say of "\x00bin…".
func binaryRefusal(size int64) collector.Refusal {
	return collector.Refusal{Reason: collector.ReasonBinary, Detail: "NUL byte in the first 8 KB", Size: size}
}

// TestRefusedRemembered: a refusal put for a file's stat is given back for
// that stat, by the same index and, once flushed, by a new one; not after
// the file changed (size, or mtime alone), and not when it was put while
// the file was changing (racy).
func TestRefusedRemembered(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "blob.bin")
	fi := write(t, p, "\x00binary")
	x := openTest(t, root, dir)
	if _, ok := x.Refused(p, fi); ok {
		t.Fatal("a refusal before any was put")
	}
	want := binaryRefusal(fi.Size())
	x.PutRefused(p, fi, want)
	if got, ok := x.Refused(p, fi); !ok || got != want {
		t.Fatalf("Refused = %+v, %v; want %+v", got, ok, want)
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	if got, ok := y.Refused(p, fi); !ok || got != want {
		t.Fatalf("after a flush, a new index: Refused = %+v, %v; want %+v", got, ok, want)
	}

	// The same size, another mtime: not the file refused.
	old := fi.ModTime().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	if _, ok := y.Refused(p, lstat(t, p)); ok {
		t.Fatal("a refusal used after the file's mtime changed")
	}
	// Another size.
	if _, ok := y.Refused(p, write(t, p, "\x00binary, longer")); ok {
		t.Fatal("a refusal used after the file's size changed")
	}

	// Racy: put by an index whose clock is the file's own time.
	z, err := Open(root, Options{Dir: t.TempDir(), Version: "test"}) // real clock
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	fi = write(t, p, "\x00fresh")
	z.PutRefused(p, fi, binaryRefusal(fi.Size()))
	if _, ok := z.Refused(p, fi); ok {
		t.Fatal("a refusal put while the file was changing was trusted")
	}
}

// TestRefusedOnlyContentRules: only refusals that pack into a number and
// match the stat's size are kept (a private key block, an unreadable
// file's error or a short read are not).
func TestRefusedOnlyContentRules(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "f")
	fi := write(t, p, "-----BEGIN RSA PRIVATE KEY-----\nx\n")
	x := openTest(t, root, t.TempDir())
	for _, r := range []collector.Refusal{
		{Reason: collector.ReasonSecret, Detail: "starts with a PEM private key block", Size: fi.Size()},
		{Reason: collector.ReasonUnreadable, Detail: "permission denied", Size: fi.Size()},
		binaryRefusal(fi.Size() - 1),
	} {
		x.PutRefused(p, fi, r)
		if got, ok := x.Refused(p, fi); ok {
			t.Errorf("%+v was kept: %+v", r, got)
		}
	}
}

// TestRedactedFileRemembered: a file whose text redaction touches is
// stored nowhere, but its keyed path hash and stat are: the next index
// marks it redacted from its stat alone (no term hasher, no redaction
// run), and not after it changed.
func TestRedactedFileRemembered(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "conf.go")
	secret := "package conf\nconst password = \"hunter2-Xq9v!zzK\"\n"
	fi := write(t, p, secret)
	x := openTest(t, root, dir)
	x.PutTerms(p, fi, []byte(secret), termsOf([]byte(secret)))
	if !x.isRedacted(p) {
		t.Fatal("a file with a secret was not marked redacted")
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	s := &Set{idx: []*Index{openTest(t, root, dir)}}
	f := collector.FileRef{Abs: p, Info: fi}
	if _, ok := s.Terms(f, asked); ok {
		t.Fatal("terms of a redacted file")
	}
	if s.TermHasher(p) != nil {
		t.Fatal("a file known redacted by its stat still gets a term hasher")
	}
	// Changed: checked again.
	s2 := &Set{idx: []*Index{openTest(t, root, dir)}}
	clean := "package conf\nconst name = \"x\"\n"
	f.Info = write(t, p, clean)
	s2.Terms(f, asked)
	if s2.TermHasher(p) == nil {
		t.Fatal("a file changed since it was redacted is still taken as redacted")
	}
	s2.idx[0].PutTerms(p, f.Info, []byte(clean), termsOf([]byte(clean)))
	if _, ok := s2.Terms(f, asked); !ok {
		t.Fatal("the clean file's terms were not stored")
	}
}

// TestKnownClean: a text is known clean when a term entry of its file was
// counted in the same text (same keyed hash), pending or in a segment;
// never another text, and never a text redaction touches.
func TestKnownClean(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "a.go")
	text := []byte("package a\n\nfunc alpha() {}\n")
	fi := write(t, p, string(text))
	x := openTest(t, root, dir)
	if x.KnownClean(p, text) {
		t.Fatal("known clean before any put")
	}
	x.PutTerms(p, fi, text, termsOf(text))
	if !x.KnownClean(p, text) {
		t.Fatal("a pending term entry does not vouch for its text")
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	if !y.KnownClean(p, text) {
		t.Fatal("a term entry in a segment does not vouch for its text")
	}
	if y.KnownClean(p, append(bytes.Clone(text), "// more\n"...)) {
		t.Fatal("another text taken for clean")
	}
	if y.KnownClean(filepath.Join(root, "b.go"), text) {
		t.Fatal("the text of another path taken for clean")
	}
	// A chunk set (stored from redacted text) vouches for nothing.
	q := filepath.Join(root, "c.go")
	qfi := write(t, q, string(text))
	y.PutChunks(q, qfi, text, "k1", chunksOf(text))
	if y.KnownClean(q, text) {
		t.Fatal("a chunk set taken as proof of a clean text")
	}
	secret := []byte("const password = \"hunter2-Xq9v!zzK\"\n")
	sfi := write(t, p, string(secret))
	y.PutTerms(p, sfi, secret, termsOf(secret))
	if y.KnownClean(p, secret) {
		t.Fatal("a text holding a secret taken for clean")
	}
}

// TestRefusedTableOnDisk: the table holds no path and no text, and a
// table that is not this user's acode-lsp's — forged, of another key, a
// FIFO, a symlink — is ignored without hanging.
func TestRefusedTableOnDisk(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "secret-name-dir", "blob.bin")
	fi := write(t, p, "\x00binary text")
	x := openTest(t, root, dir)
	x.PutRefused(p, fi, binaryRefusal(fi.Size()))
	x.putRefusal(filepath.Join(root, "pw.txt"), mustStat(t, fi), codeRedacted)
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	tbl := filepath.Join(dir, refusedName)
	b, err := os.ReadFile(tbl)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{root, "secret-name-dir", "blob.bin", "pw.txt", "binary text", "NUL"} {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("the table holds %q", s)
		}
	}
	if n := len(readRefused(tbl, x.k, x.refusedVH())); n != 2 {
		t.Fatalf("read back %d records, want 2", n)
	}

	// Forged: one byte flipped.
	b[refusedHeader+3] ^= 1
	if err := os.WriteFile(tbl, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if recs := readRefused(tbl, x.k, x.refusedVH()); recs != nil {
		t.Fatal("a table with a bad MAC was read")
	}
	// Another rules version.
	b[refusedHeader+3] ^= 1
	if err := os.WriteFile(tbl, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if recs := readRefused(tbl, x.k, x.refusedVH()+1); recs != nil {
		t.Fatal("a table of other rules was read")
	}

	// A FIFO and a symlink in its place: ignored, at once.
	os.Remove(tbl)
	if err := syscall.Mkfifo(tbl, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan []refusedRec, 1)
	go func() { done <- readRefused(tbl, x.k, x.refusedVH()) }()
	select {
	case recs := <-done:
		if recs != nil {
			t.Fatal("a FIFO read as a table")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO named as the table hangs")
	}
	os.Remove(tbl)
	other := filepath.Join(t.TempDir(), "t")
	os.WriteFile(other, b, 0o600)
	if err := os.Symlink(other, tbl); err != nil {
		t.Fatal(err)
	}
	if recs := readRefused(tbl, x.k, x.refusedVH()); recs != nil {
		t.Fatal("a table read through a symlink")
	}
	// A flush replaces the link, never writes through it.
	z := openTest(t, root, dir)
	z.PutRefused(p, fi, binaryRefusal(fi.Size()))
	if err := z.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(other); !bytes.Equal(got, b) {
		t.Fatal("a flush wrote through a symlink")
	}
	if fi, err := os.Lstat(tbl); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the table is not a regular file after a flush: %v", err)
	}
}

// countingSet counts the refusals a Set answered.
type countingSet struct {
	*Set
	hits int
}

func (c *countingSet) Refused(abs string, fi fs.FileInfo) (collector.Refusal, bool) {
	r, ok := c.Set.Refused(abs, fi)
	if ok {
		c.hits++
	}
	return r, ok
}

// TestRefusedFromCollector: a workspace with the index as its store reads
// a binary once; a new workspace and index refuse it from its stat alone,
// with the same exclusion; once the file changed (its ctime, size and
// mtime kept), it is read again.
func TestRefusedFromCollector(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	root, _ = filepath.EvalSymlinks(root)
	p := filepath.Join(root, "blob.bin")
	write(t, p, "\x00\x01\x02 binary")
	read := func() (*collector.Exclusion, int) {
		x := openTest(t, root, dir)
		s := &countingSet{Set: &Set{idx: []*Index{x}}}
		ws, err := collector.New(collector.Options{Roots: []string{root}})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetRefusedFiles(s)
		refs, _, err := ws.List(context.Background(), collector.OpenFile)
		if err != nil || len(refs) != 1 {
			t.Fatalf("List: %v, %d refs", err, len(refs))
		}
		_, ex := ws.ReadRef(context.Background(), collector.OpenFile, refs[0])
		if err := x.Flush(); err != nil {
			t.Fatal(err)
		}
		return ex, s.hits
	}
	first, hits := read()
	if first == nil || first.Reason != collector.ReasonBinary || hits != 0 {
		t.Fatalf("first read: %+v, %d hits", first, hits)
	}
	second, hits := read()
	if second == nil || *second != *first || hits != 1 {
		t.Fatalf("second read: %+v, %d hits; want %+v from the table", second, hits, first)
	}
	// The same size and mtime, a text now: the ctime moved with the
	// write, so the stat is not the one remembered and the text is read.
	fi := lstat(t, p)
	if err := os.WriteFile(p, []byte("text binar"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if now := lstat(t, p); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
		t.Fatal("test setup: size or mtime differ")
	}
	if ex, hits := read(); ex != nil || hits != 0 {
		t.Fatalf("a file changed since it was refused (ctime) is still refused: %+v, %d hits", ex, hits)
	}
}

func mustStat(t *testing.T, fi fs.FileInfo) stat {
	t.Helper()
	st, ok := statOf(fi)
	if !ok {
		t.Fatal("not a regular file")
	}
	return st
}
