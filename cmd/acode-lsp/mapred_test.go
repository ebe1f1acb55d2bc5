package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/index"
)

// TestMapRedactedFactsCLI: a warm map answers the files redaction touches
// from the index's map facts of redacted files (mapred.tbl: numbers and
// keyed hashes only) instead of reading, redacting and cutting them again,
// and stays byte-identical to the map without an index — cold, warm,
// planned, and after editing a packed redacted file, a redacted file not
// packed, making a file secret and a secret file clean. No path, word or
// secret of a redacted file is in any file of the cache.
func TestMapRedactedFactsCLI(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const vaults = 30
	put := ringTree(t, root, ring{files: 120, funcs: 12, vaults: vaults, vfuncs: 4, same: true})
	put("dup/a.go", "package dup\n\nfunc Same() int { return 1 }\n")
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	time.Sleep(2100 * time.Millisecond) // let the files settle (ctime)
	pack := packer(t, "pack", root, "--root", root, "--budget", "5000")
	same := func(when string, extra ...string) string {
		t.Helper()
		got := pack(extra...)
		st := last
		if none := pack("--no-index"); got != none {
			t.Fatalf("%s: the pack (%d bytes) differs from the one without an index (%d bytes)", when, len(got), len(none))
		}
		if strings.Contains(got, fakeKey) {
			t.Fatalf("%s: the pack holds the secret", when)
		}
		last = st
		return got
	}
	first := same("cold")
	if !strings.Contains(first, "vault/") || !strings.Contains(first, "[REDACTED]") {
		t.Fatal("want a map that packs a redacted vault file")
	}
	same("warm", "--report")
	read := last.ChunkHits + last.ChunkMisses // files read and cut
	if read == 0 || read >= vaults/2 {
		t.Errorf("the warm map read %d files (%+v); want only the few it packs, not the %d redacted files again", read, last, vaults)
	}
	same("planned")
	scanCache(t, cache, root)
	var packed, notPacked string
	for i := 0; i < vaults; i++ {
		name := fmt.Sprintf("vault/v%03d.go", i)
		if strings.Contains(first, name) && packed == "" {
			packed = name
		} else if !strings.Contains(first, name) && notPacked == "" {
			notPacked = name
		}
	}
	if packed == "" || notPacked == "" {
		t.Fatal("want a map that packs a vault file and leaves one out")
	}
	for _, ed := range []struct{ name, file, from, to string }{
		{"packed redacted file", packed, "zebrastripe 1 ", "zebrastripe one "},
		{"redacted file not packed", notPacked, "+ len(awsKey)", "+ len(awsKey) + F0_1() + F0_2() + F0_3() + F1_4()"},
		{"file made secret", "gen/f007.go", "package gen\n", "package gen\n\nconst awsKey = \"" + fakeKey + "\"\n"},
		{"secret file made clean", packed, "const awsKey = \"" + fakeKey + "\"", "const awsKey = \"clean\""},
	} {
		p := filepath.Join(root, ed.file)
		b, _ := os.ReadFile(p)
		if !strings.Contains(string(b), ed.from) {
			t.Fatalf("%s: %s lacks %q", ed.name, ed.file, ed.from)
		}
		write(t, p, strings.Replace(string(b), ed.from, ed.to, 1))
		same(ed.name + ", racy")
		time.Sleep(2100 * time.Millisecond) // docs/index.md: racy stats
		same(ed.name+", settled", "--report")
		same(ed.name + ", planned")
		same(ed.name+", warm", "--report")
	}
	scanCache(t, cache, root)
}

// scanCache fails t when a file under cache holds a path, a word or the
// secret of the tree's redacted files (vault/).
func scanCache(t *testing.T, cache, root string) {
	t.Helper()
	n := 0
	filepath.WalkDir(cache, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		raw, _ := os.ReadFile(p)
		n++
		for _, s := range []string{"vault/", "v000", "zebrastripe", "Vault", "awsKey", fakeKey, root} {
			if strings.Contains(string(raw), s) {
				t.Errorf("%s holds %q", p, s)
			}
		}
		return nil
	})
	dir, err := index.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "mapred.tbl")); err != nil || n == 0 {
		t.Fatalf("no map facts of redacted files in the cache (%d files): %v", n, err)
	}
}

// ring is the shape of a tree ringTree writes: files Go files of funcs
// functions each, calling the next file's, the first's and a vault's;
// vaults files holding a fake AWS key (redacted) of vfuncs functions each,
// calling the next vault's and a file's; with same, each vault also
// defines Same.
type ring struct {
	files, funcs, vaults, vfuncs int
	same                         bool
}

// ringTree writes r under root with times an hour old and returns the
// writer it used (a path relative to root, the text).
func ringTree(t *testing.T, root string, r ring) func(rel, text string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	put := func(rel, text string) {
		p := filepath.Join(root, rel)
		write(t, p, text)
		os.Chtimes(p, old, old)
	}
	for i := 0; i < r.files; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < r.funcs; j++ {
			fmt.Fprintf(&b, "// step %d of file %d\nfunc F%d_%d() int { return F%d_%d() + F0_0() + Vault%d_%d() + %d }\n\n", j, i, i, j, (i+1)%r.files, j, i%r.vaults, j%r.vfuncs, i*j)
		}
		put(fmt.Sprintf("gen/f%03d.go", i), b.String())
	}
	for i := 0; i < r.vaults; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package vault\n\nconst awsKey = \"%s\"\n\n", fakeKey)
		for j := 0; j < r.vfuncs; j++ {
			fmt.Fprintf(&b, "// zebrastripe %d of vault %d\nfunc Vault%d_%d() int { return Vault%d_%d() + F%d_%d() + len(awsKey) }\n\n", j, i, i, j, (i+1)%r.vaults, j, i, j)
		}
		if r.same {
			b.WriteString("func Same() int { return 1 }\n")
		}
		put(fmt.Sprintf("vault/v%03d.go", i), b.String())
	}
	return put
}
