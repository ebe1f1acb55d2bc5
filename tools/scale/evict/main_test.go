package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// writeSynced writes a file and syncs it: DONTNEED drops clean pages only.
func writeSynced(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Repeat("x", size)); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(path); err != nil { // in the page cache
		t.Fatal(err)
	}
}

// residentOf is the resident pages of the file at path.
func residentOf(t *testing.T, path string) int64 {
	t.Helper()
	fd, err := unix.Open(path, unix.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	n, err := resident(fd, st.Size)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEvictTree: every regular file under the tree is advised and leaves
// the page cache; a link to a file outside it is not followed (its target
// stays resident), a FIFO is not opened (the walk would hang on it
// otherwise: run under the test's deadline) and an empty file counts.
func TestEvictTree(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeSynced(t, filepath.Join(root, "one.txt"), 3*os.Getpagesize()+1)
	writeSynced(t, filepath.Join(root, "a", "b", "two.go"), 100)
	writeSynced(t, filepath.Join(root, "a", "empty"), 0)
	target := filepath.Join(outside, "target.txt")
	writeSynced(t, target, 2*os.Getpagesize())
	if err := os.Symlink(target, filepath.Join(root, "a", "link")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(root, "a", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := evictTree(root, true)
	if err != nil {
		t.Fatal(err)
	}
	wantBytes := int64(3*os.Getpagesize() + 1 + 100)
	if s.files != 3 || s.failed != 0 || s.bytes != wantBytes || s.pages != 5 {
		t.Fatalf("files %d failed %d bytes %d pages %d; want 3, 0, %d, 5", s.files, s.failed, s.bytes, s.pages, wantBytes)
	}
	if s.before != s.pages {
		t.Fatalf("resident before %d of %d pages; the files were just read", s.before, s.pages)
	}
	if s.after != 0 {
		var fs unix.Statfs_t
		if err := unix.Statfs(root, &fs); err == nil && fs.Type == unix.TMPFS_MAGIC {
			t.Skipf("%s is tmpfs: its pages are the files and cannot be dropped", root)
		}
		t.Fatalf("resident after %d of %d pages; want 0", s.after, s.pages)
	}
	if got := residentOf(t, target); got != 2 {
		t.Errorf("the link's target has %d resident pages, want 2: the link was followed", got)
	}
}

// TestEvictTreeMissing: a directory that does not exist is an error.
func TestEvictTreeMissing(t *testing.T) {
	if _, err := evictTree(filepath.Join(t.TempDir(), "none"), false); err == nil {
		t.Fatal("no error for a missing directory")
	}
}
