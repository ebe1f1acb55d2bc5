package collector

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWalkFactsSameAsWalk: what the directory loaders decide beside the
// walk (paths, display paths, ignore rules) makes the same listing — the
// same refs with the same fields, the same exclusions — as the walk
// deciding every entry itself: nested ignore files with negations and
// directory rules, context.exclude, default-ignored directories, secret
// names, a token in a file name (DisplayPath), symlinks to a file and to
// a directory (another chain), a second root nested in the first.
func TestWalkFactsSameAsWalk(t *testing.T) {
	tok := "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	entries := []fx{
		file(".gitignore", lines("*.log", "!keep.log", "build/", "/top.txt")),
		file("top.txt", "x\n"), file("a/top.txt", "x\n"), file("a/x.log", "x\n"), file("a/keep.log", "x\n"),
		file("a/.gitignore", lines("*.tmp", "!b/", "gen/**")),
		file("a/b/c.tmp", "x\n"), file("a/b/d.go", "package b\n"), file("a/gen/e.go", "package gen\n"),
		file("build/out.go", "package out\n"), file("src/build/x.go", "package x\n"),
		file("node_modules/m/index.js", "x\n"), file("vendor/v.go", "package v\n"),
		file("docs/skip.md", "x\n"), file("docs/read.md", "x\n"),
		file(".env", "A=1\n"), file("keys/id_rsa", "k\n"),
		file("fixtures/"+tok+".json", "{}\n"), file("sub/inner.go", "package sub\n"), file("sub/.gitignore", "*.go\n"),
		link("linkdir", "a/b"), link("linkfile.go", "a/b/d.go"),
	}
	for i := 0; i < 70; i++ { // a directory of more than one stat run
		entries = append(entries, file("many/f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt", "x\n"))
	}
	list := func(facts bool) (listing, []FileRef) {
		prepareFacts = facts
		defer func() { prepareFacts = true }()
		w, root := newWorkspace(t, Options{Exclude: []string{"docs/skip.md"}, FollowSymlinks: true}, entries...)
		w2, err := New(Options{Roots: []string{root, root + "/sub"}, Exclude: []string{"docs/skip.md"}, FollowSymlinks: true})
		if err != nil {
			t.Fatal(err)
		}
		var all listing
		var refs []FileRef
		for _, ws := range []*Workspace{w, w2} {
			r, excl, err := ws.List(context.Background(), OpenFile)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range r {
				all.Sources = append(all.Sources, f.Path+" "+strings.TrimPrefix(f.Abs, root)+" "+f.rel+" "+strings.TrimPrefix(f.alias, root))
			}
			for _, x := range excl {
				all.Exclusions = append(all.Exclusions, x.Path+" "+string(x.Reason)+" "+x.Detail)
			}
			refs = append(refs, r...)
		}
		return all, refs
	}
	without, _ := list(false)
	with, refs := list(true)
	if diff := cmp.Diff(without, with); diff != "" {
		t.Fatalf("listing with prepared facts differs from the walk's own (-walk +facts):\n%s", diff)
	}
	redacted := false
	for _, f := range refs {
		redacted = redacted || strings.Contains(f.Path, "[REDACTED-")
		if strings.Contains(f.Path, tok) {
			t.Fatalf("listed %q: the token of its name is shown", f.Path)
		}
	}
	if !redacted || len(refs) < 70 {
		t.Fatalf("the fixture did not exercise the walk: %d refs, a redacted name listed: %v", len(refs), redacted)
	}
}

// TestWalkFactsPrepared: a directory loaded for a walk comes with the
// facts of its entries for the root and chain it was named with, and
// none for another chain.
func TestWalkFactsPrepared(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, file("a.go", "package a\n"), file(".gitignore", "*.log\n"), file("b/c.go", "package b\n"))
	r := w.roots[0]
	pre := newPrefetcher(context.Background(), w)
	defer pre.stop()
	ld := pre.get(r.abs, walkedWith{r: r, above: r.chain})
	chain := r.chain.with(w.loadIgnore(r.abs, ".gitignore"))
	facts := ld.factsFor(r, chain)
	if facts == nil || len(facts) != len(ld.entries) {
		t.Fatalf("facts for the walk's root and chain: %d for %d entries", len(facts), len(ld.entries))
	}
	if got := ld.factsFor(r, r.chain); got != nil {
		t.Fatalf("facts given for a chain without the directory's ignore file")
	}
}

// TestRelSlash: relSlash without its prefix string answers as the
// definition (target has base plus a separator as its prefix).
func TestRelSlash(t *testing.T) {
	ref := func(base, target string) (string, bool) {
		if target == base {
			return ".", true
		}
		prefix := base
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if !strings.HasPrefix(target, prefix) {
			return "", false
		}
		return filepath.ToSlash(target[len(prefix):]), true
	}
	bases := []string{"", "/", "/a", "/a/", "/a/b", "/ab"}
	targets := []string{"", "/", "/a", "/a/", "/a/b", "/a/b/c", "/ab", "/ab/c", "/abc", "a", "/a//b"}
	for _, b := range bases {
		for _, tg := range targets {
			b, tg := filepath.FromSlash(b), filepath.FromSlash(tg)
			got, ok := relSlash(b, tg)
			want, wok := ref(b, tg)
			if got != want || ok != wok {
				t.Errorf("relSlash(%q, %q) = %q, %v; want %q, %v", b, tg, got, ok, want, wok)
			}
		}
	}
}
