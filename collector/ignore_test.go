package collector

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestGitignoreLikeGit checks paths against a root and a nested .gitignore.
// The expectations were taken from `git check-ignore --no-index` (git 2.39)
// on the same tree.
func TestGitignoreLikeGit(t *testing.T) {
	root := lines(
		"*.log", "!important/", "/top.txt", "docs/gen", "build/", "a/**/b", "/*.tmp",
		"f?o.txt", "c++.txt", "[!x]y.txt", `\#hash.txt`, `space\ `, "*.min.js", "!keep.min.js",
		"gen2/**", "!gen2/keep.go",
	)
	sub := lines("!keep.log", "deep/", "*.txt")
	tests := []struct {
		path    string
		ignored bool
	}{
		{"a.log", true},
		{"important/debug.log", true}, // "!important/" re-includes the directory, not its logs
		{"sub/keep.log", false},       // the deeper file's negation wins
		{"sub/other.log", true},
		{"top.txt", true},
		{"sub/top.txt", true}, // by sub's *.txt, not by the anchored /top.txt
		{"x/top.txt", false},
		{"docs/gen/x.go", true},
		{"src/docs/gen/x.go", false}, // a slash in the middle anchors the pattern
		{"build/x", true},
		{"sub/build/y", true},
		{"a/b/z", true},
		{"a/x/b/z", true},
		{"a/x/y.go", false},
		{"x.tmp", true},
		{"sub/x.tmp", false},
		{"foo.txt", true},
		{"fxo.txt", true},
		{"c++.txt", true},
		{"ay.txt", true},
		{"xy.txt", false},
		{"#hash.txt", true},
		{"space ", true},
		{"x.min.js", true},
		{"keep.min.js", false},
		{"gen2/x.go", true},
		{"gen2/keep.go", false}, // gen2/** leaves gen2 itself in, so the negation works
		{"sub/deep/f.go", true},
		{"sub/a.go", false},
	}
	var entries []fx
	entries = append(entries, file(".gitignore", root), file("sub/.gitignore", sub))
	for _, tt := range tests {
		entries = append(entries, file(tt.path, "x\n"))
	}
	w, _ := newWorkspace(t, Options{}, entries...)
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, excl := w.Read(context.Background(), Reference, tt.path)
			got := excl != nil && excl.Reason == ReasonIgnored
			if got != tt.ignored {
				t.Errorf("ignored(%q) = %v (%+v), want %v", tt.path, got, excl, tt.ignored)
			}
		})
	}
	// A walk agrees with the per-path answers.
	srcs, _, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	walked := map[string]bool{}
	for _, s := range srcs {
		walked[s.Path] = true
	}
	for _, tt := range tests {
		if walked[tt.path] == tt.ignored {
			t.Errorf("walk listed %q = %v, want %v", tt.path, walked[tt.path], !tt.ignored)
		}
	}
}

func TestIgnoreDetail(t *testing.T) {
	w, _ := newWorkspace(t, Options{Exclude: []string{"*.gen.go"}},
		file(".gitignore", lines("# comment", "*.log")),
		file("sub/.gitignore", lines("", "tmp/")),
		file("a.log", "x"), file("sub/tmp/t.go", "x"), file("z.gen.go", "x"))
	tests := []struct {
		path, detail string
	}{
		{"a.log", "matches .gitignore line 2 (*.log)"},
		{"sub/tmp/t.go", "directory sub/tmp matches sub/.gitignore line 2 (tmp/)"},
		{"z.gen.go", `matches context.exclude pattern "*.gen.go"`},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			_, excl := w.Read(context.Background(), Reference, tt.path)
			if excl == nil {
				t.Fatalf("Read(%q) let the file in", tt.path)
			}
			if diff := cmp.Diff(tt.detail, excl.Detail); diff != "" {
				t.Errorf("detail (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGitignoreAboveRoot checks that a workspace root inside a repository
// honours the repository's .gitignore files above it and info/exclude.
func TestGitignoreAboveRoot(t *testing.T) {
	tmp := t.TempDir()
	build(t, tmp,
		file(".git/info/exclude", "*.local\n"), file(".gitignore", "node_modules/\n*.log\n"),
		file("services/.gitignore", "dist/\n"),
		file("services/api/main.go", "x"), file("services/api/node_modules/m.js", "x"),
		file("services/api/dist/d.js", "x"), file("services/api/a.log", "x"), file("services/api/cfg.local", "x"))
	w, err := New(Options{Roots: []string{filepath.Join(tmp, "services", "api")}})
	if err != nil {
		t.Fatal(err)
	}
	srcs, excl, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	want := listing{
		Sources:    []string{"main.go"},
		Exclusions: []string{"a.log ignored", "cfg.local ignored", "dist ignored", "node_modules ignored"},
	}
	if diff := cmp.Diff(want, summarize(srcs, excl)); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
}

// TestGitignoreReloaded checks that a changed .gitignore takes effect.
func TestGitignoreReloaded(t *testing.T) {
	w, root := newWorkspace(t, Options{}, file(".gitignore", "*.log\n"), file("a.log", "x"), file("b.txt", "x"))
	if _, excl := w.Read(context.Background(), OpenFile, "b.txt"); excl != nil {
		t.Fatalf("b.txt excluded before the change: %+v", excl)
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n*.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, excl := w.Read(context.Background(), OpenFile, "b.txt"); excl == nil || excl.Reason != ReasonIgnored {
		t.Errorf("b.txt after the change: %+v, want ignored", excl)
	}
}

func TestLibPattern(t *testing.T) {
	tests := []struct {
		line, pat      string
		negate, inside bool
		ok             bool
	}{
		{"", "", false, false, false},
		{"# comment", "", false, false, false},
		{"!", "", false, false, false},
		{`trailing\`, "", false, false, false},
		{"*.log", "*.log", false, false, true},
		{"!keep.log", "keep.log", true, false, true},
		{"docs/gen", "/docs/gen", false, false, true},
		{"/top.txt", "/top.txt", false, false, true},
		{"build/", "build/", false, false, true},
		{"**/x/y", "**/x/y", false, false, true},
		{"abc/**", "/abc", false, true, true},
		{"f?o", "f[^/]o", false, false, true},
		{"[!a-c]x", "[^a-c]x", false, false, true},
		{"c++", `c\+\+`, false, false, true},
		{`\#x`, "[#]x", false, false, true},
		{`a\*b`, `a\*b`, false, false, true},
		{"x  ", "x", false, false, true},
		{`x\ `, "x[ ]", false, false, true},
		{"[z-a]", `\[z-a\]`, false, false, true},
		{"line\r", "line", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			pat, negate, inside, ok := libPattern(tt.line)
			got := []any{pat, negate, inside, ok}
			if diff := cmp.Diff([]any{tt.pat, tt.negate, tt.inside, tt.ok}, got); diff != "" {
				t.Errorf("libPattern(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}

// FuzzIgnorePattern checks that any .gitignore line compiles without a
// panic, and that a literal file name written as an escaped pattern matches
// that name.
func FuzzIgnorePattern(f *testing.F) {
	for _, s := range []string{"*.log", "[!x", "a/**/b", `\`, "c++(x)", "x[[:alpha:]]", "**", "/**/", "[]]"} {
		f.Add(s, "name.txt")
	}
	f.Fuzz(func(t *testing.T, line, name string) {
		l, _ := compileIgnore("/base", ".gitignore", []string{line})
		l.match("a/b", false)
		l.match("a/", true)
		if name == "" || !utf8.ValidString(name) || strings.ContainsAny(name, "/\r\n") || strings.TrimSpace(name) != name {
			return
		}
		var esc strings.Builder
		for i := 0; i < len(name); i++ {
			esc.WriteByte('\\')
			esc.WriteByte(name[i])
		}
		lit, bad := compileIgnore("/base", ".gitignore", []string{esc.String()})
		if len(bad) > 0 || len(lit.rules) != 1 {
			t.Fatalf("escaped %q did not compile", name)
		}
		if decided, ignored, _ := lit.match(name, false); !decided || !ignored {
			t.Fatalf("escaped pattern for %q does not match it", name)
		}
		if decided, _, _ := lit.match(name+"x", false); decided {
			t.Fatalf("escaped pattern for %q matches %q", name, name+"x")
		}
	})
}
