package collector

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestWalkExclusionReasons(t *testing.T) {
	big := strings.Repeat("x", 100) + "\n"
	tests := []struct {
		name    string
		opts    Options
		entries []fx
		want    listing
	}{
		{
			name:    "binary by NUL byte and by control bytes",
			entries: []fx{file("a.go", "package a\n"), file("img.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), file("blob.dat", strings.Repeat("\x01\x02\x03abc", 50))},
			want:    listing{Sources: []string{"a.go"}, Exclusions: []string{"blob.dat binary", "img.png binary"}},
		},
		{
			name:    "invalid UTF-8",
			entries: []fx{file("latin1.txt", "caf\xe9 cr\xe8me\n"), file("utf8.txt", "café crème\n")},
			want:    listing{Sources: []string{"utf8.txt"}, Exclusions: []string{"latin1.txt invalid_utf8"}},
		},
		{
			name:    "too large",
			opts:    Options{MaxFileSize: 64},
			entries: []fx{file("big.txt", big), file("small.txt", "ok\n")},
			want:    listing{Sources: []string{"small.txt"}, Exclusions: []string{"big.txt too_large"}},
		},
		{
			name:    "empty and white space only",
			entries: []fx{file("empty.txt", ""), file("blank.txt", " \n\t\n"), file("bom.txt", "\ufeff\n"), file("x.txt", "x")},
			want:    listing{Sources: []string{"x.txt"}, Exclusions: []string{"blank.txt empty", "bom.txt empty", "empty.txt empty"}},
		},
		{
			name: "secret files by name and by content",
			entries: []fx{
				file(".env", "A=1\n"), file(".env.local", "A=1\n"), file("cfg/.env.production", "A=1\n"),
				file(".env.example", "A=\n"), file("id_rsa", "k\n"), file("id_ed25519.pub", "k\n"),
				file("tls/server.pem", "k\n"), file("tls/server.key", "k\n"), file("store.p12", "k\n"),
				file("credentials.json", "{}\n"), file(".aws/credentials", "[default]\n"), file(".npmrc", "x\n"),
				file(".docker/config.json", "{}\n"), file("secrets.yaml", "a: b\n"),
				file("auth/credentials.go", "package auth\n"), file("notes.txt", pemBegin+"\nMIIE\n"+pemEnd+"\n"),
				file("doc.md", "The header is "+pemBegin+".\n"),
			},
			want: listing{
				Sources: []string{".env.example", "auth/credentials.go", "doc.md"},
				Exclusions: []string{
					".aws/credentials secret", ".docker/config.json secret", ".env secret", ".env.local secret",
					".npmrc secret", "cfg/.env.production secret", "credentials.json secret", "id_ed25519.pub secret",
					"id_rsa secret", "notes.txt secret", "secrets.yaml secret", "store.p12 secret",
					"tls/server.key secret", "tls/server.pem secret",
				},
			},
		},
		{
			name: "nested .gitignore with negation, directories not entered",
			entries: []fx{
				file(".gitignore", lines("*.log", "build/", "/top.txt", "docs/gen")),
				file("sub/.gitignore", lines("!keep.log")),
				file("a.log", "x"), file("sub/keep.log", "x"), file("sub/other.log", "x"),
				file("build/out.go", "x"), file("sub/build/out.go", "x"),
				file("top.txt", "x"), file("sub/top.txt", "x"),
				file("docs/gen/x.go", "x"), file("src/docs/gen/x.go", "x"),
			},
			want: listing{
				Sources: []string{".gitignore", "src/docs/gen/x.go", "sub/.gitignore", "sub/keep.log", "sub/top.txt"},
				Exclusions: []string{
					"a.log ignored", "build ignored", "docs/gen ignored", "sub/build ignored",
					"sub/other.log ignored", "top.txt ignored",
				},
			},
		},
		{
			name: "context.exclude globs with ** and negation",
			// (Default ignores off: this case is about anchoring "/vendor".)
			opts: Options{Exclude: []string{"**/gen/**", "*.min.js", "!keep.min.js", "/vendor"}, NoIgnoreDefaults: true},
			entries: []fx{
				file("a/gen/x.go", "x"), file("gen/y.go", "x"), file("app.min.js", "x"), file("keep.min.js", "x"),
				file("vendor/v.go", "x"), file("src/vendor/v.go", "x"), file("main.go", "x"),
			},
			want: listing{
				Sources:    []string{"keep.min.js", "main.go", "src/vendor/v.go"},
				Exclusions: []string{"a/gen/x.go ignored", "app.min.js ignored", "gen/y.go ignored", "vendor ignored"},
			},
		},
		{
			name: "symlinks escaping the workspace",
			opts: Options{FollowSymlinks: true},
			entries: []fx{
				file("in.go", "x"), link("leak.txt", "../outside/secret.txt"), link("leakdir", "../outside/dir"),
				link("abs", "/etc"),
			},
			want: listing{
				Sources:    []string{"in.go"},
				Exclusions: []string{"abs outside_workspace", "leak.txt outside_workspace", "leakdir outside_workspace"},
			},
		},
		{
			name: "symlink loops do not hang",
			opts: Options{FollowSymlinks: true},
			entries: []fx{
				file("sub/f.go", "x"), link("sub/up", ".."), link("self", "self"), link("sub/again", "../sub"),
				link("p", "q"), link("q", "p"),
			},
			want: listing{
				Sources: []string{"sub/f.go"},
				Exclusions: []string{
					"p unreadable", "q unreadable", "self unreadable", "sub/again ignored", "sub/up ignored",
				},
			},
		},
		{
			name: "symlinks inside the workspace followed once",
			opts: Options{FollowSymlinks: true},
			entries: []fx{
				file("real/a.go", "x"), link("alias", "real"), link("b.go", "real/a.go"), file("c.go", "y"),
				link("zz.go", "real/a.go"), link("real/z.go", "a.go"), link("real/0.go", "../c.go"),
				link("env", ".env.local"), file(".env.local", "A=1\n"), link(".env", "conf/values.txt"), file("conf/values.txt", "A=1\n"),
				file(".gitignore", "/hidden/\n"), file("hidden/h.go", "x"), link("peek.go", "hidden/h.go"),
			},
			want: listing{
				Sources: []string{".gitignore", "c.go", "conf/values.txt", "real/a.go"},
				Exclusions: []string{
					".env secret", ".env.local secret", "hidden ignored", "peek.go ignored",
				},
			},
		},
		{
			name:    "symlinks not followed by default",
			entries: []fx{file("real/a.go", "x"), link("alias", "real"), link("b.go", "real/a.go")},
			want:    listing{Sources: []string{"real/a.go"}, Exclusions: []string{"alias ignored", "b.go ignored"}},
		},
		{
			name:    "unreadable: named pipe and dangling symlink",
			opts:    Options{FollowSymlinks: true},
			entries: []fx{fifo("pipe"), link("dangling", "nowhere"), file("ok.go", "x")},
			want:    listing{Sources: []string{"ok.go"}, Exclusions: []string{"dangling unreadable", "pipe unreadable"}},
		},
		{
			name:    ".git is skipped silently",
			entries: []fx{file(".git/config", "[core]\n"), file(".git/HEAD", "ref\n"), file("main.go", "x")},
			want:    listing{Sources: []string{"main.go"}, Exclusions: []string{}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, _ := newWorkspace(t, tt.opts, tt.entries...)
			srcs, excl, err := w.Walk(context.Background(), OpenFile)
			if err != nil {
				t.Fatalf("Walk: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(srcs, excl)); diff != "" {
				t.Errorf("Walk mismatch (-want +got):\n%s", diff)
			}
			for _, s := range srcs {
				if rel, inside := w.Rel(s.AbsPath); !inside || rel != s.Path {
					t.Errorf("source %s: Rel(AbsPath) = %q, %v", s.Path, rel, inside)
				}
				if s.Type != OpenFile || strings.TrimSpace(s.Content) == "" || !utf8.ValidString(s.Content) {
					t.Errorf("source %s: type %q, content %q", s.Path, s.Type, s.Content)
				}
			}
			for _, e := range excl {
				if e.Detail == "" {
					t.Errorf("exclusion %s (%s) has no detail", e.Path, e.Reason)
				}
				if e.Type != OpenFile {
					t.Errorf("exclusion %s has type %q", e.Path, e.Type)
				}
			}
		})
	}
}

func TestWalkSourceFields(t *testing.T) {
	w, root := newWorkspace(t, Options{},
		file("a.go", "package a\n\nconst apiKey = \""+fakeHex+"\"\n"),
		file("sub/b.md", "# B\n"))
	srcs, _, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 2 {
		t.Fatalf("got %d sources, want 2", len(srcs))
	}
	a := srcs[0]
	want := Source{
		Type:       OpenFile,
		Path:       "a.go",
		AbsPath:    filepath.Join(root, "a.go"),
		Content:    "package a\n\nconst apiKey = \"[REDACTED]\"\n",
		Redactions: 1,
	}
	a.Timestamp = a.Timestamp.UTC()
	if a.Timestamp.IsZero() {
		t.Errorf("Timestamp is zero, want the file's mtime")
	}
	a.Timestamp = want.Timestamp
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("source mismatch (-want +got):\n%s", diff)
	}
	if srcs[1].Path != "sub/b.md" || srcs[1].AbsPath != filepath.Join(root, "sub", "b.md") {
		t.Errorf("second source = %q %q", srcs[1].Path, srcs[1].AbsPath)
	}
}

func TestWalkOverlayPreferred(t *testing.T) {
	ov := fakeOverlay{}
	w, root := newWorkspace(t, Options{Overlay: ov}, file("a.go", "on disk\n"), file("b.go", "disk b\n"))
	ov[filepath.Join(root, "a.go")] = "in editor\n"
	srcs, _, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range srcs {
		got[s.Path] = s.Content
		if s.Path == "a.go" && !s.Timestamp.Equal(overlayTime) {
			t.Errorf("overlay timestamp = %v, want %v", s.Timestamp, overlayTime)
		}
	}
	if diff := cmp.Diff(map[string]string{"a.go": "in editor\n", "b.go": "disk b\n"}, got); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
}

func TestWalkPaths(t *testing.T) {
	entries := []fx{
		file(".gitignore", "ignored/\n"), file("src/a.go", "x"), file("src/b/c.go", "x"), file("docs/d.md", "x"),
		file("ignored/i.go", "x"), file("src/.gitignore", "*.gen.go\n"), file("src/b/x.gen.go", "x"),
	}
	tests := []struct {
		name  string
		paths []string
		want  listing
	}{
		{"relative directory", []string{"src"}, listing{Sources: []string{"src/.gitignore", "src/a.go", "src/b/c.go"}, Exclusions: []string{"src/b/x.gen.go ignored"}}},
		{"nested directory keeps outer .gitignore", []string{"src/b"}, listing{Sources: []string{"src/b/c.go"}, Exclusions: []string{"src/b/x.gen.go ignored"}}},
		{"single file", []string{"docs/d.md"}, listing{Sources: []string{"docs/d.md"}, Exclusions: []string{}}},
		{"ignored file named directly", []string{"ignored/i.go"}, listing{Sources: []string{}, Exclusions: []string{"ignored/i.go ignored"}}},
		{"ignored generated file named directly", []string{"src/b/x.gen.go"}, listing{Sources: []string{}, Exclusions: []string{"src/b/x.gen.go ignored"}}},
		{"overlapping paths list each file once", []string{"src", "src/a.go", "."}, listing{
			Sources:    []string{".gitignore", "docs/d.md", "src/.gitignore", "src/a.go", "src/b/c.go"},
			Exclusions: []string{"ignored ignored", "src/b/x.gen.go ignored"},
		}},
		{"escaping with ..", []string{"../outside"}, listing{Sources: []string{}, Exclusions: []string{"OUTSIDE outside_workspace"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, root := newWorkspace(t, Options{}, entries...)
			srcs, excl, err := w.Walk(context.Background(), OpenFile, tt.paths...)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			for i, e := range want.Exclusions {
				want.Exclusions[i] = strings.Replace(e, "OUTSIDE", filepath.Join(filepath.Dir(root), "outside"), 1)
			}
			if diff := cmp.Diff(want, summarize(srcs, excl)); diff != "" {
				t.Errorf("Walk(%q) mismatch (-want +got):\n%s", tt.paths, diff)
			}
		})
	}
}

func TestWalkErrors(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, file("a.go", "x"))
	if _, _, err := w.Walk(context.Background(), OpenFile, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Walk(missing) error = %v, want fs.ErrNotExist", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := w.Walk(ctx, OpenFile); !errors.Is(err, context.Canceled) {
		t.Errorf("Walk(canceled) error = %v, want context.Canceled", err)
	}
}

func TestWalkMultipleRoots(t *testing.T) {
	_, root := newWorkspace(t, Options{}, file("a.go", "x"))
	other := filepath.Join(filepath.Dir(root), "outside")
	w, err := New(Options{Roots: []string{root, other, root}})
	if err != nil {
		t.Fatal(err)
	}
	srcs, excl, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	want := listing{Sources: []string{"a.go", "outside/dir/f.go", "outside/secret.txt"}, Exclusions: []string{}}
	if diff := cmp.Diff(want, summarize(srcs, excl)); diff != "" {
		t.Errorf("Walk mismatch (-want +got):\n%s", diff)
	}
}

func BenchmarkWalk(b *testing.B) {
	tmp := b.TempDir()
	var entries []fx
	entries = append(entries, file(".gitignore", lines("*.log", "build/", "!keep.log")))
	for d := 0; d < 20; d++ {
		for f := 0; f < 50; f++ {
			p := filepath.Join("pkg"+string(rune('a'+d)), "file"+string(rune('a'+f%26))+string(rune('a'+f/26))+".go")
			entries = append(entries, file(p, strings.Repeat("func f() { return tokenCount + 1 }\n", 40)))
		}
	}
	build(b, tmp, entries...)
	w, err := New(Options{Roots: []string{tmp}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := w.Walk(context.Background(), OpenFile); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMayHoldIgnoreFile: the walk reads a directory's ignore file only
// when the listing holds its name up to case, and then obeys it.
func TestMayHoldIgnoreFile(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a/.gitignore", "a/x.log", "a/y.go", "b/x.log", "c/.GitIgnore"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		body := "package y\n"
		if filepath.Base(f) == ".gitignore" || filepath.Base(f) == ".GitIgnore" {
			body = "*.log\n"
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]bool{"a": true, "b": false, "c": true} {
		ld := &dirLoad{}
		ld.load(filepath.Join(root, dir))
		if got := ld.mayHold(".gitignore"); got != want {
			t.Errorf("%s: mayHold = %v, want %v", dir, got, want)
		}
	}
	w, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	refs, _, err := w.List(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range refs {
		got = append(got, r.Path)
	}
	if want := []string{"a/.gitignore", "a/y.go", "b/x.log", "c/.GitIgnore"}; !slices.Equal(got, want) {
		t.Fatalf("listed %q, want %q (a/x.log ignored by a/.gitignore)", got, want)
	}
}
