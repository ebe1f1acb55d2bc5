//go:build linux

package collector

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// TestCompactStat checks that a kept listing's compact stat answers as
// os's stat result did, and that a read expecting it accepts the file and
// refuses another file put in its place.
func TestCompactStat(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "a.go")
	if err := os.WriteFile(abs, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	c := compactStat(abs, info)
	if _, ok := c.(*keptStat); !ok {
		t.Fatalf("compactStat kept %T", c)
	}
	if c.Name() != info.Name() || c.Size() != info.Size() || c.Mode() != info.Mode() || c.IsDir() != info.IsDir() ||
		c.ModTime() != info.ModTime() {
		t.Errorf("compact %v %d %v %v %v, os %v %d %v %v %v", c.Name(), c.Size(), c.Mode(), c.IsDir(), c.ModTime(),
			info.Name(), info.Size(), info.Mode(), info.IsDir(), info.ModTime())
	}
	cs, os1 := c.Sys().(*syscall.Stat_t), info.Sys().(*syscall.Stat_t)
	if cs.Ino != os1.Ino || cs.Dev != os1.Dev || cs.Ctim != os1.Ctim || cs.Mtim != os1.Mtim {
		t.Errorf("Sys: %+v, want ino, dev, ctime and mtime of %+v", cs, os1)
	}
	if _, err := safeio.ReadFile(context.Background(), abs, 1<<20, safeio.Options{NoFollow: true, Expect: c}); err != nil {
		t.Errorf("read expecting the compact stat: %v", err)
	}
	// Another file (another inode) with the same size and mtime.
	other := filepath.Join(dir, "b.go")
	if err := os.WriteFile(other, []byte("package b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, abs); err != nil {
		t.Fatal(err)
	}
	if _, err := safeio.ReadFile(context.Background(), abs, 1<<20, safeio.Options{NoFollow: true, Expect: c}); !errors.Is(err, safeio.ErrChanged) {
		t.Errorf("read of a replaced file expecting the compact stat: %v, want ErrChanged", err)
	}
	if got := compactStat("x", c); got != c {
		t.Errorf("compactStat of a compact stat made %T", got)
	}
}
