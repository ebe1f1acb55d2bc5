package index

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPlainPathsRemembered: a plain path put is known by the same index
// and, once flushed, by a new one; other paths are not; the table on disk
// holds no path; a table of other rules is not read.
func TestPlainPathsRemembered(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	x := openTest(t, root, dir)
	if x.KnownPlain("pkg/a.go") {
		t.Fatal("a path known before any was put")
	}
	x.PutPlain("pkg/a.go")
	x.PutPlain("pkg/b.go")
	if !x.KnownPlain("pkg/a.go") || x.KnownPlain("pkg/c.go") {
		t.Fatal("KnownPlain wrong after PutPlain")
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	for p, want := range map[string]bool{"pkg/a.go": true, "pkg/b.go": true, "pkg/c.go": false, "pkg/a.go ": false, "": false} {
		if got := y.KnownPlain(p); got != want {
			t.Errorf("after a flush, a new index: KnownPlain(%q) = %v, want %v", p, got, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, plainName))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"pkg", "a.go", root} {
		if bytes.Contains(b, []byte(s)) {
			t.Errorf("the table holds %q", s)
		}
	}
	// The index that flushed still knows what it put, and flushes nothing
	// more (a server flushes after each pack).
	if !x.KnownPlain("pkg/a.go") {
		t.Fatal("after its flush, the index forgot a path it put")
	}
	fi, _ := os.Stat(filepath.Join(dir, plainName))
	x.PutPlain("pkg/a.go")
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(filepath.Join(dir, plainName)); !os.SameFile(fi, fi2) {
		t.Fatal("a flush with nothing new rewrote the table")
	}
	if hs := readPlain(filepath.Join(dir, plainName), x.k, x.plainVH()+1); hs != nil {
		t.Fatal("a table of other rules was read")
	}
	if hs := readPlain(filepath.Join(dir, plainName), x.k, x.plainVH()); len(hs) != 2 {
		t.Fatalf("read back %d hashes, want 2", len(hs))
	}
}

// TestPlainPathsMany: the bucket index finds every hash put and none
// other, for tables of many sizes (empty buckets, crowded ones).
func TestPlainPathsMany(t *testing.T) {
	for _, n := range []int{1, 2, 3, 63, 64, 65, 1000, 20000} {
		root, dir := t.TempDir(), t.TempDir()
		x := openTest(t, root, dir)
		for i := 0; i < n; i++ {
			x.PutPlain(fmt.Sprintf("d%d/f%d.go", i%7, i))
		}
		if err := x.Flush(); err != nil {
			t.Fatal(err)
		}
		y := openTest(t, root, dir)
		for i := 0; i < n; i++ {
			if !y.KnownPlain(fmt.Sprintf("d%d/f%d.go", i%7, i)) {
				t.Fatalf("n=%d: path %d not found", n, i)
			}
			if y.KnownPlain(fmt.Sprintf("d%d/g%d.go", i%7, i)) {
				t.Fatalf("n=%d: path %d found though never put", n, i)
			}
		}
	}
}

// TestPlainTableHostile: a table truncated, forged, oversized, or a
// symlink or a FIFO in its place is ignored at once (nothing known), and
// the next flush writes a good table in its place (never through a link).
func TestPlainTableHostile(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	tbl := filepath.Join(dir, plainName)
	x := openTest(t, root, dir)
	x.PutPlain("a.go")
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(tbl)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(other, good, 0o600); err != nil {
		t.Fatal(err)
	}
	flip := bytes.Clone(good)
	flip[plainHeader+2] ^= 1
	cases := map[string]func(){
		"truncated": func() { os.WriteFile(tbl, good[:len(good)-5], 0o600) },
		"forged":    func() { os.WriteFile(tbl, flip, 0o600) },
		"oversized": func() {
			os.WriteFile(tbl, good, 0o600)
			os.Truncate(tbl, plainHeader+8*(maxPlain+1)+sideMAC) // sparse: never read
		},
		"symlink": func() { symlink(t, other, tbl) },
		"fifo":    func() { mkfifo(t, tbl) },
	}
	for name, spoil := range cases {
		t.Run(name, func(t *testing.T) {
			os.Remove(tbl)
			spoil()
			bounded(t, 5*time.Second, func() {
				y := openTest(t, root, dir)
				if y.KnownPlain("a.go") {
					t.Error("a spoiled table was trusted")
				}
				y.PutPlain("b.go")
				if err := y.Flush(); err != nil {
					t.Error(err)
				}
			})
			if fi, err := os.Lstat(tbl); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("not a regular table after a flush: %v", err)
			}
			if got, _ := os.ReadFile(other); !bytes.Equal(got, good) {
				t.Fatal("a flush wrote through a symlink")
			}
			if z := openTest(t, root, dir); !z.KnownPlain("b.go") {
				t.Fatal("the table written after a spoiled one is not read")
			}
		})
	}
}

// TestPlainTableCapped: past the cap, a flush keeps what this process
// looked up or put and drops the rest.
func TestPlainTableCapped(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	x := openTest(t, root, dir)
	hs := make([]uint64, 0, maxPlain)
	for i := 0; i < maxPlain; i++ {
		hs = append(hs, uint64(i)<<20+1)
	}
	if err := writePlain(dir, filepath.Join(dir, plainName), x.k, x.plainVH(), hs); err != nil {
		t.Fatal(err)
	}
	y := openTest(t, root, dir)
	if !y.plainTab().snap.Load().hitHash(hs[5]) {
		t.Fatal("a hash on disk not found")
	}
	y.PutPlain("new.go")
	if err := y.Flush(); err != nil {
		t.Fatal(err)
	}
	got := readPlain(filepath.Join(dir, plainName), x.k, x.plainVH())
	if len(got) != 2 {
		t.Fatalf("past the cap, %d hashes kept; want the one looked up and the one put", len(got))
	}
}
