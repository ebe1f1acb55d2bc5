package collector

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mapPlain is a PlainPaths in memory that counts its answers.
type mapPlain struct {
	mu        sync.Mutex
	m         map[string]bool
	hits, put int
}

func (p *mapPlain) KnownPlain(abs, listed string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m[listed] {
		p.hits++
	}
	return p.m[listed]
}

func (p *mapPlain) PutPlain(abs, listed string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]bool{}
	}
	p.m[listed] = true
	p.put++
}

// TestPlainPathsSameListing: a walk whose path verdicts come from a store
// of plain paths lists what a walk computing them lists (refs with all
// their fields, exclusions) — first filling the store, then answered by
// it, then after files are added, renamed to a secret's name or to a name
// holding a token, and removed; the store is told only plain paths.
func TestPlainPathsSameListing(t *testing.T) {
	tok := "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	w, root := newWorkspace(t, Options{FollowSymlinks: true},
		file(".gitignore", "*.log\n"), file("a/b.go", "package a\n"), file("a/c.json", "{}\n"), file("x.log", "x\n"),
		file(".env", "A=1\n"), file("keys/id_rsa", "k\n"), file("fixtures/"+tok+".json", "{}\n"),
		file("pw/password=Hunter2xQ9vZ7/r.txt", "x\n"), link("l.go", "a/b.go"), file("conf/app.yaml", "a: 1\n"))
	store := &mapPlain{}
	_ = w
	var exclude []string
	// Each listing is a new workspace (a new process: nothing cached in
	// memory but the store).
	list := func(p PlainPaths) listing {
		ws, err := New(Options{Roots: []string{root}, FollowSymlinks: true, Exclude: exclude})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetPlainPaths(p)
		refs, excl, err := ws.List(context.Background(), OpenFile)
		if err != nil {
			t.Fatal(err)
		}
		var l listing
		for _, f := range refs {
			l.Sources = append(l.Sources, f.Path+" "+f.Abs+" "+f.rel+" "+f.alias)
		}
		for _, x := range excl {
			l.Exclusions = append(l.Exclusions, x.Path+" "+string(x.Reason)+" "+x.Detail)
		}
		return l
	}
	same := func(step string) {
		t.Helper()
		want := list(nil)
		for _, what := range []string{"filling the store", "answered by the store"} {
			if diff := cmp.Diff(want, list(store)); diff != "" {
				t.Fatalf("%s, %s: listing differs (-computed +store):\n%s", step, what, diff)
			}
		}
		for p := range store.m {
			if DisplayPath(p) != p {
				t.Fatalf("%s: the store was told %q, which DisplayPath changes", step, p)
			}
			if s, _ := IsSecretPath(p); s {
				t.Fatalf("%s: the store was told %q, a secret's name", step, p)
			}
		}
	}
	same("first walk")
	if store.hits < 4 {
		t.Fatalf("the store answered %d paths; the walk did not consult it", store.hits)
	}
	// A file added; one renamed to a secret's name, one to a name holding a
	// token; one removed; a directory added.
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/new.go", "package a\n")
	write("d2/e.go", "package d2\n")
	must(t, os.Rename(filepath.Join(root, "a/c.json"), filepath.Join(root, "a/credentials.json")))
	must(t, os.Rename(filepath.Join(root, "conf/app.yaml"), filepath.Join(root, "conf/"+tok+".yaml")))
	must(t, os.Remove(filepath.Join(root, "a/b.go")))
	same("after changes")
	// Ignore files edited, in the directory and an ancestor; an exclude
	// pattern; a symlink swapped to another file and to a directory.
	write("a/.gitignore", "new.go\n")
	same("a .gitignore added")
	write(".gitignore", "*.log\nd2/\n")
	same("an ancestor's .gitignore edited")
	exclude = []string{"a/credentials.json", "fixtures/"}
	same("exclude patterns")
	must(t, os.Remove(filepath.Join(root, "l.go")))
	must(t, os.Symlink("conf", filepath.Join(root, "l.go")))
	same("a symlink swapped")
	exclude = nil
	l := list(store)
	shown := strings.Join(l.Exclusions, "\n")
	for _, s := range l.Sources {
		shown += "\n" + strings.Fields(s)[0] // the path shown (Abs and rel hold it raw, by design)
	}
	if strings.Contains(shown, tok) || !strings.Contains(shown, "a/credentials.json secret") {
		t.Fatalf("after the renames, the listing shows a token or lets in a secret's name:\n%s", shown)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPathRulesProbeChanges: the probe changes with the tables of secret
// names and with what DisplayPath makes of a path, so a store of verdicts
// under it is not read by a program of other rules.
func TestPathRulesProbeChanges(t *testing.T) {
	before := PathRulesProbe()
	if before != PathRulesProbe() {
		t.Fatal("the probe is not stable")
	}
	secretNames["zz-probe-name"] = "test"
	changed := PathRulesProbe()
	delete(secretNames, "zz-probe-name")
	if changed == before {
		t.Fatal("the probe did not change with the secret names")
	}
	if PathRulesProbe() != before {
		t.Fatal("the probe did not come back")
	}
	if !strings.Contains(before, "[REDACTED-") {
		t.Fatal("no probe path is redacted: the probe does not exercise DisplayPath")
	}
}
