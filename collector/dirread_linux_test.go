//go:build linux

package collector

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// sameFileInfo reports whether a (os's stat result) and b (the walk's, a
// keptStat) name the same file: same device and inode.
func sameFileInfo(a, b fs.FileInfo) bool {
	st, ok := a.Sys().(*syscall.Stat_t)
	id, isID := b.(interface{ FileID() (dev, ino uint64) })
	if !ok || !isID {
		return os.SameFile(a, b)
	}
	dev, ino := id.FileID()
	return uint64(st.Dev) == dev && st.Ino == ino //nolint:unconvert // Dev's type differs by architecture
}

// TestOpenedDirMatchesOS: the walk's directory reader (getdents, fstatat
// on the open directory) gives the entries, types and stat results
// os.ReadDir and os.Stat give: names in the same order, the same type
// bits, and for each entry the same name, size, mode (permission and
// special bits included), modification time, device, inode and change
// time; a failed stat is a *fs.PathError naming the whole path.
func TestOpenedDirMatchesOS(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int, mode os.FileMode) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("b.go", 10, 0o644)
	write("a.txt", 0, 0o600)
	write("Z upper", 3, 0o755|os.ModeSetgid)
	write("sticky", 7, 0o640|os.ModeSticky)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.go", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere", filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ { // more than one getdents buffer's worth of names
		write(fmt.Sprintf("long-%s-%03d", strings.Repeat("n", 150), i), i, 0o644)
	}

	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	got, err := d.read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d entries, os.ReadDir %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
			t.Fatalf("entry %d: got %q %v, os.ReadDir %q %v", i, g.Name(), g.Type(), w.Name(), w.Type())
		}
		wi, werr := os.Stat(filepath.Join(dir, w.Name()))
		gi, gerr := d.statEntry(g.Name())
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%s: stat error %v, os.Stat %v", w.Name(), gerr, werr)
		}
		if werr != nil {
			var pe *fs.PathError
			if !errors.As(gerr, &pe) || pe.Path != filepath.Join(dir, w.Name()) || !errors.Is(gerr, fs.ErrNotExist) || gerr.Error() != werr.Error() {
				t.Fatalf("%s: stat error %q, os.Stat's %q", w.Name(), gerr, werr)
			}
			continue
		}
		ws := wi.Sys().(*syscall.Stat_t)
		ino, ctime := gi.(*keptStat).StatID()
		if gi.Name() != wi.Name() || gi.Size() != wi.Size() || gi.Mode() != wi.Mode() || gi.IsDir() != wi.IsDir() ||
			!gi.ModTime().Equal(wi.ModTime()) || !sameFileInfo(wi, gi) || ino != ws.Ino || ctime != ws.Ctim.Nano() {
			t.Fatalf("%s: stat %v %d %v %v, os.Stat %v %d %v %v", w.Name(), gi.Name(), gi.Size(), gi.Mode(), gi.ModTime(),
				wi.Name(), wi.Size(), wi.Mode(), wi.ModTime())
		}
	}
}

// TestOpenDirErrors: a directory that cannot be read is the error
// os.ReadDir gives (an *fs.PathError wrapping the same errno).
func TestOpenDirErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), f} {
		_, werr := os.ReadDir(p)
		_, gerr := openDir(p)
		if werr == nil || gerr == nil || gerr.Error() != werr.Error() || describeErr(gerr) != describeErr(werr) {
			t.Errorf("%s: openDir error %v, os.ReadDir's %v", p, gerr, werr)
		}
	}
}

// TestLoadStatsNoSubdirectory: a directory's loader stats its files (the
// index's validity) but not its subdirectories, which the listing types
// as directories: their info is a listedDir of their name (no fstatat),
// and a symlink to a directory is left to the walk as before.
func TestLoadStatsNoSubdirectory(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"sub", "sub2"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte("package f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	ld := &dirLoad{}
	ld.load(dir)
	if ld.err != nil {
		t.Fatal(ld.err)
	}
	got := map[string]string{}
	for i, e := range ld.entries {
		switch info := ld.infos[i].(type) {
		case nil:
			got[e.name] = "none"
		case listedDir:
			if !info.IsDir() || info.Name() != e.name || info.Size() != 0 {
				t.Errorf("%s: listedDir %v %q %d", e.name, info.IsDir(), info.Name(), info.Size())
			}
			got[e.name] = "listed"
		case *keptStat:
			got[e.name] = "stated"
		default:
			got[e.name] = fmt.Sprintf("%T", info)
		}
	}
	want := map[string]string{"sub": "listed", "sub2": "listed", "f.go": "stated", "link": "none"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("infos %v, want %v", got, want)
	}
}
