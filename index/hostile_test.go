//go:build unix

package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
)

type chunkerChunk = chunker.Chunk

// The attacks of issue 21 on the index, each generated here and run under
// a deadline: a hang fails the test instead of blocking it.

// bounded runs f and fails the test when it has not returned within d.
func bounded(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v: a hang", d)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// useCache points the default cache (and a fresh state directory, so a
// fresh key) at new temporary directories and returns the cache's.
func useCache(t *testing.T) string {
	t.Helper()
	c := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(c, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", c)
	return c
}

// victim makes a directory of files that are not the index's: none may
// ever be removed or changed.
func victim(t *testing.T) (dir string, check func()) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "home")
	files := map[string]string{
		"Documents/thesis.txt":                      "chapter one",
		"Downloads/big.iso":                         strings.Repeat("x", 4096),
		"0123456789abcdef/notes.txt":                "a directory named like an index root",
		"0123456789abcdef/0000000000000001-1-1.seg": "a file named like a segment, in a directory that is not the index's",
	}
	for p, c := range files {
		write(t, filepath.Join(dir, p), c)
	}
	// A sparse file that makes the directory weigh more than the global
	// cap (4 GiB), so that a prune following a link would act.
	huge := filepath.Join(dir, "Downloads", "huge.img")
	write(t, huge, "")
	hugeOK := os.Truncate(huge, globalMax+1<<30) == nil
	return dir, func() {
		t.Helper()
		for p, c := range files {
			b, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil || string(b) != c {
				t.Errorf("the victim's %s was touched: %v", p, err)
			}
		}
		if fi, err := os.Stat(huge); hugeOK && (err != nil || fi.Size() != globalMax+1<<30) {
			t.Errorf("the victim's huge.img was touched: %v", err)
		}
	}
}

// TestFIFOSegmentNeverBlocks: a FIFO named as a segment, a symlink to a
// FIFO and a symlink to a regular file named as segments sit in the
// index directory. Opening, looking up, flushing, merging and closing
// never block on them, never remove them, and the index still works.
func TestFIFOSegmentNeverBlocks(t *testing.T) {
	for _, viaSet := range []bool{false, true} {
		t.Run(fmt.Sprintf("set=%v", viaSet), func(t *testing.T) {
			root := t.TempDir()
			paths := makeTree(t, root, 20, 0)
			var dir string
			if viaSet {
				useCache(t)
				d, err := Dir(root)
				if err != nil {
					t.Fatal(err)
				}
				dir = d
				if _, err := ownDirs(filepath.Dir(filepath.Dir(filepath.Dir(d))), "acode-lsp", "index", filepath.Base(d)); err != nil {
					t.Fatal(err)
				}
			} else {
				dir = t.TempDir()
			}
			outside := t.TempDir()
			mkfifo(t, filepath.Join(dir, "0000000000000001-1-1.seg"))
			mkfifo(t, filepath.Join(outside, "fifo"))
			symlink(t, filepath.Join(outside, "fifo"), filepath.Join(dir, "0000000000000002-1-2.seg"))
			write(t, filepath.Join(outside, "plain"), "not a segment")
			symlink(t, filepath.Join(outside, "plain"), filepath.Join(dir, "0000000000000003-1-3.seg"))
			bounded(t, 20*time.Second, func() {
				var x *Index
				if viaSet {
					s, err := OpenSet([]string{root}, Options{Version: "test"})
					if err != nil || len(s.idx) != 1 {
						t.Errorf("OpenSet: %v", err)
						return
					}
					defer s.Close()
					x = s.idx[0]
					x.now = later
				} else {
					x = openTest(t, root, dir)
				}
				for i := 0; i < maxSegments+2; i++ { // enough segments to merge
					for _, p := range paths[i : i+3] {
						put(t, x, p)
					}
					if err := x.Flush(); err != nil {
						t.Error(err)
					}
				}
				x.mu.Lock()
				x.compactLocked(true)
				x.mu.Unlock()
				if th, ch := checkHonest(t, x, root); th == 0 || ch == 0 {
					t.Errorf("the index stopped working: %d term hits, %d chunk hits", th, ch)
				}
			})
			for _, n := range []string{"0000000000000001-1-1.seg", "0000000000000002-1-2.seg", "0000000000000003-1-3.seg"} {
				if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
					t.Errorf("%s, not a regular file of the index, was removed: %v", n, err)
				}
			}
			if b, err := os.ReadFile(filepath.Join(outside, "plain")); err != nil || string(b) != "not a segment" {
				t.Errorf("the symlink's target was touched: %v", err)
			}
		})
	}
}

// TestIndexDirSymlinkNotFollowed: acode-lsp/index, or acode-lsp itself, is
// a symlink to a directory of the user's files (planted in a cache that
// another user can write, or by a repository's script). The index is not
// used, and nothing there is removed, however much it weighs.
func TestIndexDirSymlinkNotFollowed(t *testing.T) {
	for _, link := range []string{"acode-lsp", "acode-lsp/index"} {
		t.Run(link, func(t *testing.T) {
			c := useCache(t)
			home, check := victim(t)
			if err := os.MkdirAll(filepath.Dir(filepath.Join(c, link)), 0o700); err != nil {
				t.Fatal(err)
			}
			symlink(t, home, filepath.Join(c, link))
			root := t.TempDir()
			makeTree(t, root, 5, 0)
			bounded(t, 20*time.Second, func() {
				s, err := OpenSet([]string{root}, Options{Version: "test"})
				if err == nil || !errors.Is(err, errUntrusted) && !strings.Contains(err.Error(), "symlink") {
					t.Errorf("OpenSet through a symlinked %s: err = %v, want it refused", link, err)
				}
				if s.Usable() {
					t.Errorf("the index is used through a symlinked %s", link)
				}
				s.Close()
			})
			check()
		})
	}
}

// TestPruneRemovesOnlyOwnFiles: past the global cap, prune removes other
// roots' segments — and nothing else: not a root directory that is a
// symlink (to the user's home), not files the index did not name, not a
// directory it did not make.
func TestPruneRemovesOnlyOwnFiles(t *testing.T) {
	parent := t.TempDir()
	home, check := victim(t)
	symlink(t, home, filepath.Join(parent, "fedcba9876543210"))                      // named as a root
	symlink(t, filepath.Join(home, "Documents"), filepath.Join(parent, "Documents")) // named otherwise
	if err := os.Mkdir(filepath.Join(parent, "00000000000000aa"), 0o700); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(parent, "00000000000000aa")
	seg := filepath.Join(old, "0000000000000001-1-1.seg")
	write(t, seg, strings.Repeat("s", 10000))
	write(t, filepath.Join(old, "stranger.txt"), "not the index's")
	symlink(t, filepath.Join(home, "Downloads", "big.iso"), filepath.Join(old, "0000000000000002-1-2.seg"))
	past := time.Now().Add(-time.Hour)
	for _, d := range []string{old, home} {
		os.Chtimes(d, past, past)
	}
	bounded(t, 20*time.Second, func() { prune(parent, map[string]bool{}, 100) })
	if _, err := os.Stat(seg); err == nil {
		t.Error("the old root's segment was not pruned")
	}
	if _, err := os.Stat(filepath.Join(old, "stranger.txt")); err != nil {
		t.Errorf("a file the index did not name was removed: %v", err)
	}
	for _, l := range []string{"fedcba9876543210", "Documents", "00000000000000aa/0000000000000002-1-2.seg"} {
		if _, err := os.Lstat(filepath.Join(parent, l)); err != nil {
			t.Errorf("%s was removed: %v", l, err)
		}
	}
	check()
}

// TestSharedCache: a cache directory every user can write (mode 1777).
// acode-lsp gets a private subdirectory there; when another user made
// acode-lsp first (a directory of theirs, or a symlink to the victim's
// home), the index is off and nothing of the victim's is touched.
func TestSharedCache(t *testing.T) {
	shared := func(t *testing.T) string {
		c := useCache(t)
		if err := os.Chmod(c, os.ModeSticky|0o777); err != nil {
			t.Fatal(err)
		}
		return c
	}
	t.Run("private subdirectory", func(t *testing.T) {
		c := shared(t)
		root := t.TempDir()
		paths := makeTree(t, root, 5, 0)
		s, err := OpenSet([]string{root}, Options{Version: "test"})
		if err != nil || !s.Usable() {
			t.Fatalf("OpenSet in a shared cache: %v", err)
		}
		s.idx[0].now = later
		for _, p := range paths {
			put(t, s.idx[0], p)
		}
		s.Close()
		fi, err := os.Lstat(filepath.Join(c, "acode-lsp"))
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Fatalf("acode-lsp in a shared cache: %v, %v; want a directory of mode 0700", fi.Mode(), err)
		}
		if uid, ok := ownerOf(fi); ok && uid != os.Geteuid() {
			t.Fatalf("acode-lsp belongs to uid %d", uid)
		}
	})
	t.Run("world-writable without the sticky bit", func(t *testing.T) {
		c := useCache(t)
		os.Chmod(c, 0o777)
		s, err := OpenSet([]string{t.TempDir()}, Options{Version: "test"})
		if err == nil || s.Usable() {
			t.Fatalf("OpenSet in a cache anyone can rename entries of: %v", err)
		}
	})
	t.Run("acode-lsp writable by others", func(t *testing.T) {
		c := shared(t)
		if err := os.Mkdir(filepath.Join(c, "acode-lsp"), 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(c, "acode-lsp"), 0o777)
		s, err := OpenSet([]string{t.TempDir()}, Options{Version: "test"})
		if err == nil || s.Usable() || !strings.Contains(err.Error(), "acode-lsp is writable by others") {
			t.Fatalf("OpenSet with a world-writable acode-lsp: %v", err)
		}
	})
	for _, planted := range []string{"directory", "symlink"} {
		t.Run("another user's "+planted, func(t *testing.T) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to make a file of another user (uid 65534)")
			}
			c := shared(t)
			home, check := victim(t)
			a := filepath.Join(c, "acode-lsp")
			if planted == "directory" {
				// The other user's acode-lsp, its index a link to the home.
				if err := os.Mkdir(a, 0o755); err != nil {
					t.Fatal(err)
				}
				symlink(t, home, filepath.Join(a, "index"))
				for _, p := range []string{filepath.Join(a, "index"), a} {
					if err := os.Lchown(p, 65534, 65534); err != nil {
						t.Fatal(err)
					}
				}
			} else {
				symlink(t, home, a)
				if err := os.Lchown(a, 65534, 65534); err != nil {
					t.Fatal(err)
				}
			}
			root := t.TempDir()
			makeTree(t, root, 5, 0)
			bounded(t, 20*time.Second, func() {
				s, err := OpenSet([]string{root}, Options{Version: "test"})
				if err == nil || s.Usable() || !strings.Contains(err.Error(), a) {
					t.Errorf("OpenSet under another user's acode-lsp: %v, want %s refused", err, a)
				}
				s.Close()
			})
			check()
		})
	}
}

// TestOwnDirRefusesOthersWritable: an explicit index directory must be
// this user's and writable by no one else.
func TestOwnDirRefusesOthersWritable(t *testing.T) {
	d := t.TempDir()
	os.Chmod(d, 0o777)
	if _, err := Open(t.TempDir(), Options{Dir: d, Version: "test"}); err == nil {
		t.Fatal("opened an index in a world-writable directory")
	}
	l := filepath.Join(t.TempDir(), "link")
	symlink(t, t.TempDir(), l)
	if _, err := Open(t.TempDir(), Options{Dir: l, Version: "test"}); err == nil {
		t.Fatal("opened an index through a symlink")
	}
}

// TestKeyFile: the per-user key is made once, mode 0600, and read back; a
// key that is not a private regular file of the right size makes the index
// off (with the reason), and never blocks.
func TestKeyFile(t *testing.T) {
	state := func(t *testing.T) string {
		s := filepath.Join(t.TempDir(), "state")
		t.Setenv("XDG_STATE_HOME", s)
		return filepath.Join(s, "acode-lsp", "index.key")
	}
	t.Run("made", func(t *testing.T) {
		p := state(t)
		k1, err := loadKeys()
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode().Perm() != 0o600 || fi.Size() != keySize {
			t.Fatalf("key file: %v %v", fi, err)
		}
		loaded.Delete(p)
		k2, err := loadKeys()
		if err != nil || k2.id != k1.id {
			t.Fatalf("key read back: %v (ids %x, %x)", err, k1.id, k2.id)
		}
	})
	bad := map[string]func(t *testing.T, p string){
		"readable by others": func(t *testing.T, p string) { os.WriteFile(p, make([]byte, keySize), 0o644) },
		"short":              func(t *testing.T, p string) { os.WriteFile(p, make([]byte, 8), 0o600) },
		"fifo":               func(t *testing.T, p string) { mkfifo(t, p) },
		"symlink": func(t *testing.T, p string) {
			o := filepath.Join(t.TempDir(), "k")
			os.WriteFile(o, make([]byte, keySize), 0o600)
			symlink(t, o, p)
		},
	}
	for name, plant := range bad {
		t.Run(name, func(t *testing.T) {
			p := state(t)
			os.MkdirAll(filepath.Dir(p), 0o700)
			plant(t, p)
			useCache(t)
			bounded(t, 10*time.Second, func() {
				s, err := OpenSet([]string{t.TempDir()}, Options{Version: "test"})
				if err == nil || s.Usable() || !strings.Contains(err.Error(), "index key") {
					t.Errorf("OpenSet with a key that is %s: %v", name, err)
				}
			})
		})
	}
}

// sealedHeader returns a header that passes every check of checkHeader
// under k for a file of the given sections (off, len in writer order).
func sealedHeader(k *keys, vh uint64, nFiles, tsize int, lens [numSections]int) []byte {
	h := make([]byte, headerSize)
	copy(h, magic)
	le.PutUint32(h[8:], FormatVersion)
	le.PutUint64(h[16:], vh)
	le.PutUint64(h[24:], k.id)
	le.PutUint32(h[32:], uint32(nFiles))
	le.PutUint32(h[44:], uint32(tsize))
	off := headerSize
	for _, i := range []int{secPostings, secChunks, secFiles, secPaths, secTable, secDict, secFences} {
		le.PutUint64(h[64+24*i:], uint64(off))
		le.PutUint64(h[64+24*i+8:], uint64(lens[i]))
		off += lens[i]
	}
	copy(h[macOff:], k.headerMAC(h))
	le.PutUint32(h[headerSize-4:], checksum(h[:headerSize-4]))
	return h
}

// TestSparseSegmentRejected: a sparse segment claiming 16 GiB of records
// (its header sealed with the user's own key, the worst case) is refused
// from its header and allocation, without reading what it claims (reading
// it would take about 40 s); one not sealed with the key is refused from
// its header alone.
func TestSparseSegmentRejected(t *testing.T) {
	k := testKeys(t)
	const vh = 7
	nFiles := (16 << 30) / recSize
	tsize := 1
	for tsize < 2*nFiles {
		tsize <<= 1
	}
	var lens [numSections]int
	lens[secFiles] = nFiles * recSize
	lens[secTable] = 4 * tsize
	size := int64(headerSize + lens[secFiles] + lens[secTable])
	for _, sealed := range []bool{true, false} {
		t.Run(fmt.Sprintf("sealed=%v", sealed), func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "0000000000000001-1-1.seg")
			h := sealedHeader(k, vh, nFiles, tsize, lens)
			if !sealed {
				h[macOff] ^= 1
				le.PutUint32(h[headerSize-4:], checksum(h[:headerSize-4]))
			}
			if err := os.WriteFile(p, h, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(p, size); err != nil {
				t.Skipf("no sparse file of %d bytes here: %v", size, err)
			}
			bounded(t, 10*time.Second, func() {
				_, err := openSegment(p, k, vh)
				want, kind := "sparse", errSparse
				if !sealed {
					want, kind = "header MAC", errCorrupt
				}
				if !errors.Is(err, kind) || !strings.Contains(err.Error(), want) {
					t.Errorf("openSegment of a sparse %d-byte segment: %v, want %q", size, err, want)
				}
			})
		})
	}
	// The same header over a file shorter than it claims: refused by the
	// layout check.
	p := filepath.Join(t.TempDir(), "0000000000000001-1-1.seg")
	os.WriteFile(p, sealedHeader(k, vh, nFiles, tsize, lens), 0o600)
	if _, err := openSegment(p, k, vh); !errors.Is(err, errCorrupt) {
		t.Errorf("a header claiming more than the file holds: %v", err)
	}
}

// TestLyingChunksRejected: a segment sealed with the user's key (what a
// re-sealed segment is) whose chunks claim lines the file does not have,
// or lines their bytes do not span, is a miss; the honest entry is a hit.
func TestLyingChunksRejected(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	p := filepath.Join(root, "a.txt")
	fi := write(t, p, "one\ntwo\nthree\n")
	b, _ := os.ReadFile(p)
	honest := chunksOf(b)
	lie := func(f func(cs []chunkerChunk)) []chunkerChunk {
		cs := append([]chunkerChunk(nil), honest...)
		f(cs)
		return cs
	}
	cases := map[string][]chunkerChunk{
		"honest":             honest,
		"end past the file":  lie(func(cs []chunkerChunk) { cs[2].EndLine = 1000 }),
		"lines shifted":      lie(func(cs []chunkerChunk) { cs[1].StartLine, cs[1].EndLine = 5, 5; cs[2].StartLine, cs[2].EndLine = 6, 6 }),
		"two lines claimed":  lie(func(cs []chunkerChunk) { cs[0].EndLine = 2 }),
		"ends mid-line":      lie(func(cs []chunkerChunk) { cs[0].EndByte = 2; cs[1].StartByte = 2 }),
		"start at line zero": lie(func(cs []chunkerChunk) { cs[0].StartLine = 0 }),
		"does not cover all": honest[:2],
		"past the last byte": lie(func(cs []chunkerChunk) { cs[2].EndByte = 100 }),
	}
	for name, cs := range cases {
		t.Run(name, func(t *testing.T) {
			x := openTest(t, root, filepath.Join(dir, strings.ReplaceAll(name, " ", "-")))
			x.PutChunks(p, fi, b, "k1", cs)
			if got, ok := x.Chunks(p, fi, b, "k1"); ok != (name == "honest") {
				t.Fatalf("pending entry: hit %v (%v)", ok, got)
			}
			x.Close()
			y := openTest(t, root, x.dir)
			if got, ok := y.Chunks(p, fi, b, "k1"); ok != (name == "honest") {
				t.Fatalf("from the segment: hit %v (%v)", ok, got)
			}
		})
	}
}

// TestPruneRemovesFormat1: a root directory of format 1 (plain paths,
// unkeyed term hashes; marked by its root file) is removed at the next
// prune, whatever the cap — its own files only.
func TestPruneRemovesFormat1(t *testing.T) {
	parent := t.TempDir()
	old := filepath.Join(parent, "0123456789abcdef")
	write(t, filepath.Join(old, "root"), "/home/u/proj\n")
	write(t, filepath.Join(old, "0000000000000001-1-1.seg"), "ACIDXSEG…")
	os.Chmod(old, 0o700)
	kept := filepath.Join(parent, "fedcba9876543210")
	write(t, filepath.Join(kept, "0000000000000001-1-1.seg"), "current")
	os.Chmod(kept, 0o700)
	prune(parent, map[string]bool{}, 1<<40)
	if _, err := os.Lstat(old); err == nil {
		t.Error("the format-1 directory was kept")
	}
	if _, err := os.Lstat(filepath.Join(kept, "0000000000000001-1-1.seg")); err != nil {
		t.Errorf("a current root under the cap was pruned: %v", err)
	}
}

// TestKeyMadeOnceConcurrently: processes (here goroutines, the same race)
// starting at once with no key agree on one key: it is linked into place,
// never replaced, never read half-written.
func TestKeyMadeOnceConcurrently(t *testing.T) {
	p := filepath.Join(t.TempDir(), "state", "acode-lsp", "index.key")
	const n = 16
	got := make(chan string, n)
	bounded(t, 20*time.Second, func() {
		for i := 0; i < n; i++ {
			go func() {
				b, err := readOrMakeKey(p)
				if err != nil {
					got <- "error: " + err.Error()
					return
				}
				got <- string(b)
			}()
		}
		first := <-got
		for i := 1; i < n; i++ {
			if k := <-got; k != first || len(k) != keySize {
				t.Errorf("two keys made at once differ (or failed): %q", k)
			}
		}
	})
	des, _ := os.ReadDir(filepath.Dir(p))
	if len(des) != 1 {
		t.Errorf("left in the state directory: %v, want the key alone", des)
	}
}
