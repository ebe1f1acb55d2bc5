package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/index"
)

// TestMapSumCLI: a map after an edit takes the files the edit left alone
// from the map summary (map.sum, pack/mapsum.go) and packs the text of
// the map without an index after every kind of edit — a comment
// appended, a definition added, a use added, a file removed, a file
// added, a redacted file edited, a file made secret — right after the
// edit (racy), once settled, and warm again. The summary is rewritten
// after an edit that changes a file's words (not after a comment) and holds no path, word or secret of the tree's redacted
// files (nor any file of the cache).
func TestMapSumCLI(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ringTree(t, root, ring{files: 90, funcs: 10, vaults: 12, vfuncs: 3})
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	settle := func() { time.Sleep(2100 * time.Millisecond) } // docs/index.md: racy stats
	settle()
	dir, err := index.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	sumFile := filepath.Join(dir, "map.sum")
	pack := packer(t, "pack", root, "--root", root, "--budget", "4000")
	same := func(when string) {
		t.Helper()
		got := pack()
		if none := pack("--no-index"); got != none {
			t.Fatalf("%s: the pack (%d bytes) differs from the one without an index (%d bytes)", when, len(got), len(none))
		}
	}
	same("cold")
	same("warm")
	if _, err := os.Stat(sumFile); err != nil {
		t.Fatalf("no map summary after a map: %v", err)
	}
	for _, ed := range []struct{ name, file, from, to string }{
		{"comment appended", "gen/f050.go", "package gen\n", "package gen\n// x y z\n"}, // no word changed: not rewritten
		{"definition added", "gen/f051.go", "package gen\n", "package gen\n\nfunc Fresh() int { return 1 }\n"},
		{"use added", "gen/f052.go", "package gen\n", "package gen\n\nvar _ = Fresh() + F3_3() + F4_4()\n"},
		{"file removed", "gen/f053.go", "", ""},
		{"file added", "gen/added.go", "", "package gen\n\n// Added uses its neighbours.\nfunc Added() int { return F1_1() + F2_2() + Fresh() }\n"},
		{"redacted file edited", "vault/v003.go", "+ len(awsKey)", "+ len(awsKey) + F0_1() + F0_2() + Fresh()"},
		{"file made secret", "gen/f007.go", "package gen\n", "package gen\n\nconst awsKey = \"" + fakeKey + "\"\n"},
	} {
		p := filepath.Join(root, ed.file)
		b, _ := os.ReadFile(p)
		switch {
		case ed.from == "" && ed.to == "":
			os.Remove(p)
		case ed.from == "":
			write(t, p, ed.to)
		default:
			if !strings.Contains(string(b), ed.from) {
				t.Fatalf("%s: %s lacks %q", ed.name, ed.file, ed.from)
			}
			write(t, p, strings.Replace(string(b), ed.from, ed.to, 1))
		}
		before, _ := os.Stat(sumFile)
		same(ed.name + ", racy")
		settle()
		same(ed.name + ", settled")
		after, err := os.Stat(sumFile)
		if rewritten := err == nil && before != nil && after.ModTime().After(before.ModTime()); rewritten != (ed.name != "comment appended") {
			t.Errorf("%s: the map summary written again: %v, want %v (only when a file's words change) (%v)", ed.name, rewritten, !rewritten, err)
		}
		same(ed.name + ", warm")
	}
	scanCache(t, cache, root)
}
