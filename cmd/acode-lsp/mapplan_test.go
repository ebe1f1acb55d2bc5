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

// TestMapPlanCLI: a warm pack without a query of an unchanged tree is
// answered from its map plan (the index is asked for no file's facts or
// chunks), with the text of the pack without an index; so after an edit
// of a file the plan packs, of one it does not, and of one that comes to
// hold a secret: right after the edit, once settled (the map runs and
// plans again) and from the new plan. The plan file holds no path and
// no text of the tree.
func TestMapPlanCLI(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	var last index.Stats
	indexClosed = func(st index.Stats) { last = st }
	t.Cleanup(func() { indexClosed = nil })
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const files = 80
	for i := 0; i < files; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen\n\n")
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&b, "// step %d of file %d\nfunc F%d_%d() int { return F%d_%d() + F0_0() + %d }\n\n", j, i, i, j, (i+1)%files, j, i*j)
		}
		write(t, filepath.Join(root, "gen", fmt.Sprintf("f%03d.go", i)), b.String())
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	settle := func() { time.Sleep(2100 * time.Millisecond) } // docs/index.md: racy stats
	settle()
	pack := packer(t, "pack", root, "--root", root, "--budget", "4000")
	asked := func() int64 { return last.StatHits + last.StatMisses + last.ChunkHits + last.ChunkMisses }
	same := func(when string) string {
		t.Helper()
		got := pack()
		n := asked()
		if none := pack("--no-index"); got != none {
			t.Fatalf("%s: the pack (%d bytes) differs from the one without an index (%d bytes)", when, len(got), len(none))
		}
		if when == "planned" && n != 0 {
			t.Errorf("the planned pack asked the index for %d files (%+v), want none", n, last)
		}
		return got
	}
	same("cold")
	first := same("planned")
	pack("--report")
	if asked() == 0 {
		t.Fatal("a pack with --report asked the index for nothing: it was planned, or the index is off")
	}
	dir, err := index.Dir(root)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "map.plan"))
	if err != nil {
		t.Fatalf("no plan file: %v", err)
	}
	for _, s := range []string{"gen/", "f000", "step", "func", root} {
		if strings.Contains(string(raw), s) {
			t.Errorf("the plan file holds %q", s)
		}
	}
	var notPacked string
	for i := files - 1; i >= 0; i-- {
		if name := fmt.Sprintf("gen/f%03d.go", i); !strings.Contains(first, name) {
			notPacked = name
			break
		}
	}
	if notPacked == "" || !strings.Contains(first, "gen/f000.go") {
		t.Fatal("want a map that packs gen/f000.go and leaves a file out")
	}
	for _, ed := range []struct{ name, file, from, to string }{
		{"packed file", "gen/f000.go", "step 3 ", "stage 3 "},
		{"file not packed", notPacked, "+ F0_0()", "+ F0_0() + F0_1() + F0_2() + F0_3() + F0_4()"},
		{"file made secret", "gen/f000.go", "package gen\n", "package gen\n\nconst awsKey = \"" + fakeKey + "\"\n"},
	} {
		p := filepath.Join(root, ed.file)
		b, _ := os.ReadFile(p)
		write(t, p, strings.Replace(string(b), ed.from, ed.to, 1))
		same(ed.name + ", racy")
		settle()
		same(ed.name + ", settled")
		got := same("planned")
		if strings.Contains(got, fakeKey) || ed.name == "file made secret" && !strings.Contains(got, "[REDACTED]") {
			t.Errorf("%s: the planned pack holds the secret, or is not redacted", ed.name)
		}
	}
}

// fakeKey is an AWS key id's shape (split: no secret in the source).
const fakeKey = "AKIA" + "Q3ZR7XK2M4PL8NB5"
