package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/index"
)

// copyTree copies src to dst, every file dated an hour ago (so that index
// entries are settled, not racy: docs/index.md).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			return err
		}
		return os.Chtimes(to, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPackWithIndexEqualsWithout packs one tree without an index, with a
// cold one (written), with a warm one (read), and again after an edit: the
// outputs are identical byte for byte.
func TestPackWithIndexEqualsWithout(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root := t.TempDir()
	copyTree(t, sample, root)
	// Enough files for file-first selection (docs/ranking.md), which is
	// what reads term statistics from the index.
	words := []string{"checkout", "cart", "empty", "price", "discount", "rounding", "order", "customer", "total", "tax"}
	for i := 0; i < 150; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < 30; j++ {
			fmt.Fprintf(&b, "// %s %s of item %d\nfunc %s%d_%d() int { return %d }\n\n", words[(i+j)%10], words[(i*j)%10], j, words[(i+2*j)%10], i, j, i*j)
		}
		p := filepath.Join(root, "gen", fmt.Sprintf("f%03d.go", i))
		write(t, p, b.String())
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	// Entries of files changed in the last 2 s are racy, not trusted on
	// their stat (docs/index.md): let the copy settle.
	time.Sleep(2100 * time.Millisecond)
	for _, q := range []string{"why does checkout fail for empty carts", "discount price rounding"} {
		pack := packer(t, "pack", root, "--root", root, "--query", q, "--budget", "3000")
		none := pack("--no-index")
		if _, err := os.Stat(filepath.Join(cache, "acode-lsp", "index")); q == "why does checkout fail for empty carts" && err == nil {
			t.Fatal("--no-index wrote an index")
		}
		last = index.Stats{}
		cold := pack()
		coldStats := last
		warm := pack()
		if cold != none || warm != none {
			t.Fatalf("%q: packs differ: without index %d bytes, cold %d, warm %d", q, len(none), len(cold), len(warm))
		}
		// The warm pack was served by the index: every file's terms and
		// every chunked file's chunks. The two term misses are
		// assets/logo.png, refused by its content (binary) and so never
		// put, and cart/service.go, whose text holds a key that redaction
		// replaces: the index never stores a redacted file (DESIGN rule
		// 10), so it is read (and, when packed, cut) again on every pack.
		const refused = 2
		// cart/service.go is a chunk miss when the pack cuts it.
		if last.TermHits == 0 || last.TermMisses != refused || last.ChunkHits == 0 || last.ChunkMisses > 1 {
			t.Errorf("%q: warm pack: %+v (cold: %+v), want only hits", q, last, coldStats)
		}
		// Outlines (selection's rule 8): parsed and stored when cold,
		// read from the index when warm (but cart/service.go's).
		if coldStats.SetMisses == 0 || last.SetHits == 0 || last.SetMisses > 1 {
			t.Errorf("%q: outlines: warm %+v, cold %+v; want outlines stored cold and read warm", q, last, coldStats)
		}
		set, err := index.OpenSet([]string{root}, index.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := set.Stats()
		set.Close()
		if st.Segments == 0 {
			t.Fatalf("no index written: %+v", st)
		}
	}
	// An edit: the warm index must not serve the old version.
	p := filepath.Join(root, "cart", "model.go") // indexed (service.go is redacted: never stored)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "empty", "vacant", -1)), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"pack", root, "--root", root, "--query", "empty vacant cart checkout", "--budget", "3000"}
	_, warm, _ := runCLI(t, "", "", args...)
	// Misses: the edited file's terms and chunks, plus the two of the warm
	// packs above (cart/service.go's chunks when the pack cuts it).
	if last.TermMisses != 2+1 || last.ChunkMisses < 1 || last.ChunkMisses > 2 || last.TermHits == 0 {
		t.Errorf("after an edit of one file: %+v, want one term miss and one chunk miss more", last)
	}
	_, none, _ := runCLI(t, "", "", append(args, "--no-index")...)
	if warm != none {
		t.Fatal("after an edit, the pack with the index differs from the pack without")
	}
}

// TestPackWithoutQueryUsesIndex packs a tree with no query — the walk
// that reads every file — without an index, with a cold one and with a
// warm one, then after an edit: the outputs are identical byte for byte,
// and the warm pack cuts no file the index already holds (before the walk
// kept each file's listing, every warm pack re-parsed every file).
func TestPackWithoutQueryUsesIndex(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root := t.TempDir()
	copyTree(t, sample, root)
	for i := 0; i < 20; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&b, "// step %d of file %d\nfunc f%d_%d() int { return %d }\n\n", j, i, i, j, i*j)
		}
		p := filepath.Join(root, "gen", fmt.Sprintf("f%03d.go", i))
		write(t, p, b.String())
		old := time.Now().Add(-time.Hour)
		os.Chtimes(p, old, old)
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	time.Sleep(2100 * time.Millisecond) // let the copy settle (docs/index.md)
	args := []string{"pack", root, "--root", root, "--budget", "7000"}
	pack := func(extra ...string) string {
		t.Helper()
		code, out, errs := runCLI(t, "", "", append(append([]string{}, args...), extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return out
	}
	none := pack("--no-index")
	last = index.Stats{}
	cold := pack()
	coldStats := last
	// The walk of a warm map, not its plan (mapplan_test.go).
	warm := pack("--report")
	if cold != none || warm != none {
		t.Fatalf("packs differ: without index %d bytes, cold %d, warm %d", len(none), len(cold), len(warm))
	}
	if coldStats.ChunkMisses < 20 {
		t.Errorf("cold pack: %+v, want a chunk miss (and put) for every generated file", coldStats)
	}
	// cart/service.go holds a key that redaction replaces: never stored,
	// so cut again on every pack (DESIGN rule 10).
	if last.ChunkHits < 20 || last.ChunkMisses > 1 {
		t.Errorf("warm pack: %+v (cold: %+v), want only chunk hits", last, coldStats)
	}
	// The map's outlines: parsed and stored by the cold pack, read from
	// the index by the warm one (never parsed again), but for the file
	// redaction touches (never stored: it misses once in each of the map's
	// rounds, as its facts do; pack/mapindex.go).
	if coldStats.SetMisses < 1 || last.SetHits < 1 || last.SetMisses > last.StatMisses {
		t.Errorf("outlines: cold %+v, warm %+v; want misses when cold, only hits when warm", coldStats, last)
	}
	p := filepath.Join(root, "gen", "f007.go")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), "step 3 ", "stage 3 ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	edited := pack()
	if last.ChunkMisses < 1 || last.ChunkMisses > 2 {
		t.Errorf("after an edit of one file: %+v, want one chunk miss more", last)
	}
	if after := pack("--no-index"); edited != after {
		t.Fatal("after an edit, the pack with the index differs from the pack without")
	}
}

// TestMapReadsOnlyWhatItPacks: a warm pack without a query (a map) of a
// tree of 200 files answers the files it does not pack from the index —
// reading only those whose text reaches the pack — and prints what the
// packs without an index print, in markdown and in xml; after an edit of
// a file it packs, too.
func TestMapReadsOnlyWhatItPacks(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root := t.TempDir()
	const files = 200
	old := time.Now().Add(-time.Hour)
	for i := 0; i < files; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < 20; j++ {
			// Each file calls the next: a ring, with file 0 used by all.
			fmt.Fprintf(&b, "// step %d of file %d\nfunc F%d_%d() int { return F%d_%d() + F0_0() + %d }\n\n", j, i, i, j, (i+1)%files, j, i*j)
		}
		p := filepath.Join(root, "gen", fmt.Sprintf("f%03d.go", i))
		write(t, p, b.String())
		os.Chtimes(p, old, old)
	}
	write(t, filepath.Join(root, "dup", "a.go"), "package dup\n\nfunc Same() int { return 1 }\n")
	write(t, filepath.Join(root, "dup", "b.go"), "package dup\n\nfunc Same() int { return 1 }\n")
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	time.Sleep(2100 * time.Millisecond) // let the files settle (docs/index.md)
	for _, format := range []string{"markdown", "xml"} {
		args := []string{"pack", root, "--root", root, "--budget", "6000", "--format", format}
		pack := func(extra ...string) string {
			t.Helper()
			code, out, errs := runCLI(t, "", "", append(append([]string{}, args...), extra...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			return out
		}
		none := pack("--no-index")
		cold := pack()
		// The walk of a warm map, not its plan (mapplan_test.go).
		warm := pack("--report")
		read := last.ChunkHits + last.ChunkMisses // files read and cut
		if cold != none || warm != none {
			t.Fatalf("%s: packs differ: without index %d bytes, cold %d, warm %d", format, len(none), len(cold), len(warm))
		}
		if read == 0 || read > files/4 {
			t.Errorf("%s: the warm map read %d of %d files (%+v), want only the few it packs", format, read, files+2, last)
		}
		if !strings.Contains(none, "gen/f000.go") {
			t.Errorf("%s: the map does not pack its most central file", format)
		}
	}
	// An edit of the most central file: the map reads it again.
	p := filepath.Join(root, "gen", "f000.go")
	b, _ := os.ReadFile(p)
	write(t, p, strings.Replace(string(b), "step 3 ", "stage 3 ", 1))
	args := []string{"pack", root, "--root", root, "--budget", "6000"}
	_, edited, _ := runCLI(t, "", "", args...)
	_, none, _ := runCLI(t, "", "", append(args, "--no-index")...)
	if edited != none || !strings.Contains(none, "stage 3 ") {
		t.Fatal("after an edit, the map with the index differs from the map without (or lacks the edit)")
	}
}

// packer returns a run of the CLI with args and more, failing t unless it
// exits 0; its standard output.
func packer(t *testing.T, args ...string) func(extra ...string) string {
	return func(extra ...string) string {
		t.Helper()
		code, out, errs := runCLI(t, "", "", append(append([]string{}, args...), extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return out
	}
}

// TestSearchPackWithIndexEqualsWithout: the CLI's --search asks the index
// (collector.SearchIndex, through pack.IndexAs) which files cannot match:
// packs with the index, cold and warm, equal the pack without it, and the
// warm search is answered by the index (term hits), not by reading every
// file again.
func TestSearchPackWithIndexEqualsWithout(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := 0; i < 60; i++ {
		body := fmt.Sprintf("package p%d\n\n// Handle%d answers a request.\nfunc Handle%d() error { return nil }\n", i, i, i)
		if i%7 == 0 {
			body += fmt.Sprintf("\n// closeIdleConns closes idle connection %d.\nfunc closeIdleConns%d() {}\n", i, i)
		}
		p := filepath.Join(root, fmt.Sprintf("p%02d", i), "file.go")
		write(t, p, body)
		os.Chtimes(p, old, old)
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	time.Sleep(2100 * time.Millisecond) // entries of files changed in the last 2 s are racy
	pack := packer(t, "pack", root, "--root", root, "--search", "closeIdleConns", "--budget", "4000")
	none := pack("--no-index")
	if !strings.Contains(none, "closeIdleConns14") {
		t.Fatalf("the search found nothing:\n%s", none)
	}
	cold := pack()
	last = index.Stats{}
	warm := pack()
	if cold != none || warm != none {
		t.Fatalf("packs differ: without index %d bytes, cold %d, warm %d", len(none), len(cold), len(warm))
	}
	if last.TermHits < 60 {
		t.Errorf("warm search: %+v, want the index to answer for every file", last)
	}
}
