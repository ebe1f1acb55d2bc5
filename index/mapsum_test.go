package index

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

func testSums(t *testing.T) (sumStore, string) {
	t.Helper()
	dir := t.TempDir()
	x := openTest(t, t.TempDir(), dir)
	return sumStore{x: x, mu: &sync.Mutex{}}, filepath.Join(dir, sumName)
}

// putBody stores body under key as a map does (written through PutSum's
// writer, in two parts).
func putBody(ss sumStore, key [32]byte, body []byte) {
	ss.PutSum(key, len(body), func(w io.Writer) error {
		h := len(body) / 2
		if _, err := w.Write(body[:h]); err != nil {
			return err
		}
		_, err := w.Write(body[h:])
		return err
	})
}

// TestSumWriteRefused: a body that writes more or less than it announced,
// or fails, leaves the summary there was, and no temporary file.
func TestSumWriteRefused(t *testing.T) {
	ss, p := testSums(t)
	putBody(ss, planKey(1), []byte("kept"))
	for name, write := range map[string]func(io.Writer) error{
		"short":  func(w io.Writer) error { _, err := w.Write([]byte("abc")); return err },
		"long":   func(w io.Writer) error { _, err := w.Write([]byte("abcdefgh")); return err },
		"failed": func(w io.Writer) error { w.Write([]byte("abcd")); return errors.New("no") },
	} {
		ss.PutSum(planKey(2), 4, write)
		if b, ok := ss.Sum(planKey(1)); !ok || string(b) != "kept" {
			t.Errorf("%s: the summary there was is gone (%q, %v)", name, b, ok)
		}
		if _, ok := ss.Sum(planKey(2)); ok {
			t.Errorf("%s: the refused body was stored", name)
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Errorf("the index directory holds %d files, want map.sum alone", len(ents))
	}
}

// TestSumRoundTrip: a summary comes back for its key only, a later one
// replaces it, one over maxSumBody is not kept, and the file holds
// neither the key as given nor (beyond the body) anything but the MAC.
func TestSumRoundTrip(t *testing.T) {
	ss, p := testSums(t)
	if _, ok := ss.Sum(planKey(1)); ok {
		t.Fatal("a summary without a file")
	}
	putBody(ss, planKey(1), []byte("one"))
	if b, ok := ss.Sum(planKey(1)); !ok || string(b) != "one" {
		t.Fatalf("summary = %q, %v", b, ok)
	}
	if _, ok := ss.Sum(planKey(2)); ok {
		t.Error("a summary for another key")
	}
	putBody(ss, planKey(2), []byte("two"))
	if _, ok := ss.Sum(planKey(1)); ok {
		t.Error("the summary of another key was kept beside the new one")
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	k := planKey(2)
	if bytes.Contains(raw, k[:]) || len(raw) != sumHeader+sumRecHead+3+sideMAC {
		t.Errorf("the file (%d bytes) holds the key as given, or more than header, record and MAC", len(raw))
	}
}

// TestSumFileUntrusted: a summary file altered anywhere, cut short, or
// replaced by a link is ignored; the next map writes a good one.
func TestSumFileUntrusted(t *testing.T) {
	ss, p := testSums(t)
	putBody(ss, planKey(1), []byte("summary body"))
	good, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 1
		os.WriteFile(p, bad, 0o600)
		if _, ok := ss.Sum(planKey(1)); ok {
			t.Fatalf("a file flipped at byte %d was read", i)
		}
	}
	os.WriteFile(p, good[:len(good)-1], 0o600)
	if _, ok := ss.Sum(planKey(1)); ok {
		t.Error("a short file was read")
	}
	other := filepath.Join(t.TempDir(), "other")
	os.WriteFile(other, good, 0o600)
	os.Remove(p)
	if err := os.Symlink(other, p); err != nil {
		t.Fatal(err)
	}
	if _, ok := ss.Sum(planKey(1)); ok {
		t.Error("a summary was read through a link")
	}
	os.Remove(p)
	putBody(ss, planKey(3), []byte("again"))
	if b, ok := ss.Sum(planKey(3)); !ok || string(b) != "again" {
		t.Errorf("after a bad file, summary = %q, %v", b, ok)
	}
}

// TestSumStamp: a file's stamp changes with its size, its paths and its
// content under the same size, is keyed (not the path's plain hash), and
// a file changed just now has none.
func TestSumStamp(t *testing.T) {
	ss, _ := testSums(t)
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	ref := collector.FileRef{Abs: p, Path: "a.go", Info: write(t, p, "package a\n")}
	base, ok := ss.Stamp(ref)
	if !ok || base == 0 {
		t.Fatal("a settled file has no stamp")
	}
	if again, _ := ss.Stamp(ref); again != base {
		t.Error("the stamp of one stat differs")
	}
	moved := ref
	moved.Path = "b.go"
	if s, _ := ss.Stamp(moved); s == base {
		t.Error("the display path does not change the stamp")
	}
	time.Sleep(10 * time.Millisecond)
	grown := collector.FileRef{Abs: p, Path: "a.go", Info: write(t, p, "package b\n")}
	if s, _ := ss.Stamp(grown); s == base {
		t.Error("a rewrite (same size, new mtime) does not change the stamp")
	}
	if ss.PathHash("a.go") == ss.PathHash("b.go") {
		t.Error("two paths share a hash")
	}
	ss.x.now = func() time.Time { return time.Now() }
	if _, ok := ss.Stamp(ref); ok {
		t.Error("a file written just now has a stamp")
	}
}
