package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/index"
)

// cacheHome points the user's cache and state directories at fresh ones
// and returns the directory of every workspace's index.
func cacheHome(t *testing.T) string {
	t.Helper()
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	base, err := indexBase()
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// indexedWorkspace is a workspace packed once with the index on; it
// returns the root and the directory of its index, which must hold files.
func indexedWorkspace(t *testing.T) (root, dir string) {
	t.Helper()
	root = seedWorkspace(t, "")
	if code, _, errs := runCLI(t, root, "", "pack", ".", "--budget", "2k"); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errs)
	}
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	d, err := index.Dir(resolved)
	if err != nil {
		t.Fatal(err)
	}
	des, err := os.ReadDir(d)
	if err != nil || len(des) == 0 {
		t.Fatalf("the pack wrote no index in %s: %v", d, err)
	}
	return resolved, d
}

// TestClearCache (seed 000, scenario 7): clear-cache removes the
// workspace's index, all of it, and the next pack is the same pack.
func TestClearCache(t *testing.T) {
	cacheHome(t)
	root, dir := indexedWorkspace(t)
	_, before, _ := runCLI(t, root, "", "pack", ".", "--budget", "2k")

	code, out, errs := runCLI(t, root, "", "clear-cache")
	if code != 0 {
		t.Fatalf("clear-cache: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "workspace "+root) || !strings.Contains(out, "removed ") {
		t.Errorf("clear-cache says:\n%s", out)
	}
	if des, err := os.ReadDir(dir); err != nil || len(des) != 0 {
		t.Fatalf("the index directory is not empty (it stays, for a running server): %v %v", des, err)
	}
	code, out, _ = runCLI(t, root, "", "clear-cache")
	if code != 0 || !strings.Contains(out, "nothing to clear") {
		t.Errorf("second clear-cache: exit %d:\n%s", code, out)
	}
	if _, after, _ := runCLI(t, root, "", "pack", ".", "--budget", "2k"); after != before {
		t.Errorf("the pack after clear-cache differs:\n%s\nvs\n%s", after, before)
	}
}

// TestClearCacheAll clears the index of two workspaces at once.
func TestClearCacheAll(t *testing.T) {
	cacheHome(t)
	a, da := indexedWorkspace(t)
	_, db := indexedWorkspace(t)
	code, out, errs := runCLI(t, a, "", "clear-cache", "--all")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, d := range []string{da, db} {
		if des, err := os.ReadDir(d); err != nil || len(des) != 0 {
			t.Errorf("%s not emptied: %v %v\n%s", d, des, err, out)
		}
	}
}

// TestClearCacheHostile: clear-cache never follows a link out of the
// cache, never removes a directory tree, and never removes what the index
// did not make.
func TestClearCacheHostile(t *testing.T) {
	t.Run("the workspace's directory is a link", func(t *testing.T) {
		cacheHome(t)
		root, dir := indexedWorkspace(t)
		victim := t.TempDir()
		seg := filepath.Join(victim, "0123456789abcdef-1-1.seg")
		write(t, seg, "not the index's")
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, dir); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, root, "", "clear-cache")
		if code != 1 || !strings.Contains(errs, "symbolic link") {
			t.Errorf("exit %d, want 1 naming the link: %s", code, errs)
		}
		if _, err := os.Stat(seg); err != nil {
			t.Errorf("the file behind the link was removed: %v", err)
		}
	})
	t.Run("links, directories and other files inside", func(t *testing.T) {
		cacheHome(t)
		root, dir := indexedWorkspace(t)
		victim := filepath.Join(t.TempDir(), "precious.txt")
		write(t, victim, "keep me")
		link := filepath.Join(dir, "fedcba9876543210-2-2.seg")
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, "0000000000000000-3-3.seg")
		write(t, filepath.Join(sub, "inner"), "a tree, never removed")
		notes := filepath.Join(dir, "notes.txt")
		write(t, notes, "not the index's")
		code, out, errs := runCLI(t, root, "", "clear-cache")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(out, "left 3 entries") {
			t.Errorf("clear-cache does not count what it left:\n%s", out)
		}
		for _, p := range []string{victim, link, filepath.Join(sub, "inner"), notes} {
			if _, err := os.Lstat(p); err != nil {
				t.Errorf("%s was removed: %v", p, err)
			}
		}
		des, _ := os.ReadDir(dir)
		if len(des) != 3 {
			t.Errorf("want only the 3 foreign entries left, got %v", des)
		}
	})
	t.Run("writable by others", func(t *testing.T) {
		base := cacheHome(t)
		root, dir := indexedWorkspace(t)
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, root, "", "clear-cache")
		if code != 1 || !strings.Contains(errs, "writable by others") {
			t.Errorf("exit %d, want 1 naming the mode: %s", code, errs)
		}
		if des, _ := os.ReadDir(dir); len(des) == 0 {
			t.Errorf("files were removed from an untrusted directory")
		}
	})
}

// TestClearCacheWhileOpen: a process with the index open (a language
// server) goes on using it after clear-cache: its next segment is written
// into the directory that clear-cache emptied.
func TestClearCacheWhileOpen(t *testing.T) {
	cacheHome(t)
	root, dir := indexedWorkspace(t)
	x, err := index.Open(root, index.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer x.Close()
	if code, _, errs := runCLI(t, root, "", "clear-cache"); code != 0 {
		t.Fatalf("clear-cache: exit %d: %s", code, errs)
	}
	if des, _ := os.ReadDir(dir); len(des) != 0 {
		t.Fatalf("clear-cache left %v", des)
	}
	file := filepath.Join(root, "checkout.go")
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	content, _ := os.ReadFile(file)
	x.PutTerms(file, fi, content, map[string]int{"checkout": 2, "cart": 1})
	if err := x.Flush(); err != nil {
		t.Fatalf("the open index cannot write after clear-cache: %v", err)
	}
	if des, _ := os.ReadDir(dir); len(des) == 0 {
		t.Errorf("the open index wrote nothing into %s", dir)
	}
}
