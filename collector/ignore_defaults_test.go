package collector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultIgnores checks rule 9's default ignores: without a
// .gitignore, dependency and build trees are left out (reason ignored, not
// entered); vendor, build, dist, target and coverage are kept inside a Go
// module; a .gitignore in force, context.ignore_defaults: false or a
// context.exclude negation lets them in.
func TestDefaultIgnores(t *testing.T) {
	trees := []fx{
		file("node_modules/left-pad/index.js", "x"), file("web/node_modules/react/index.js", "x"),
		file(".venv/lib/site.py", "x"), file("pkg/__pycache__/m.cpython-312.pyc", "x"),
		file("dist/app.js", "x"), file("build/out.js", "x"), file("target/debug/x.d", "x"),
		file("coverage/lcov.info", "x"), file(".next/server.js", "x"),
		file(".hg/store", "x"), file(".svn/entries", "x"), file("vendor/lib/v.go", "x"),
		file("src/main.go", "x"), file("src/builder.go", "x"),
	}
	tests := []struct {
		name    string
		opts    Options
		entries []fx
		want    listing
	}{
		{
			name:    "no .gitignore",
			entries: trees,
			want: listing{
				Sources: []string{"src/builder.go", "src/main.go"},
				Exclusions: []string{
					".hg ignored", ".next ignored", ".svn ignored", ".venv ignored", "build ignored",
					"coverage ignored", "dist ignored", "node_modules ignored", "pkg/__pycache__ ignored",
					"target ignored", "vendor ignored", "web/node_modules ignored",
				},
			},
		},
		{
			name: "inside a Go module",
			entries: []fx{
				file("go.mod", "module example.com/m\n"), file("vendor/golang.org/x/net/n.go", "x"),
				file("go/build/build.go", "x"), file("cmd/dist/main.go", "x"), file("internal/coverage/c.go", "x"),
				file("web/node_modules/react/index.js", "x"), file("web/dist/app.js", "x"),
			},
			want: listing{
				Sources:    []string{"cmd/dist/main.go", "go.mod", "go/build/build.go", "internal/coverage/c.go", "vendor/golang.org/x/net/n.go", "web/dist/app.js"},
				Exclusions: []string{"web/node_modules ignored"},
			},
		},
		{
			name:    "a .gitignore is in force",
			entries: append([]fx{file(".gitignore", lines("*.log"))}, file("node_modules/a/index.js", "x"), file("dist/app.js", "x"), file("a.log", "x")),
			want: listing{
				Sources:    []string{".gitignore", "dist/app.js", "node_modules/a/index.js"},
				Exclusions: []string{"a.log ignored"},
			},
		},
		{
			name:    "ignore_defaults: false",
			opts:    Options{NoIgnoreDefaults: true},
			entries: []fx{file("node_modules/a/index.js", "x"), file("build/out.js", "x")},
			want:    listing{Sources: []string{"build/out.js", "node_modules/a/index.js"}, Exclusions: []string{}},
		},
		{
			name:    "a context.exclude negation",
			opts:    Options{Exclude: []string{"*.tmp", "!build/"}},
			entries: []fx{file("node_modules/a/index.js", "x"), file("build/out.js", "x"), file("x.tmp", "x")},
			want:    listing{Sources: []string{"build/out.js"}, Exclusions: []string{"node_modules ignored", "x.tmp ignored"}},
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
			for _, e := range excl {
				if strings.HasSuffix(e.Path, "node_modules") && !strings.Contains(e.Detail, "context.ignore_defaults: false") {
					t.Errorf("%s: detail %q does not say how to let it in", e.Path, e.Detail)
				}
			}
		})
	}
}

// TestDefaultIgnoresNamedPath checks a path named directly (pack PATH,
// a reference) inside a default-ignored tree: ignored too, as a walk from
// the root would decide.
func TestDefaultIgnoresNamedPath(t *testing.T) {
	w, root := newWorkspace(t, Options{}, file("node_modules/a/index.js", "x"), file("main.go", "x"))
	srcs, excl, err := w.Walk(context.Background(), OpenFile, filepath.Join(root, "node_modules", "a"))
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 0 || len(excl) != 1 || excl[0].Reason != ReasonIgnored {
		t.Errorf("walk of node_modules/a: %+v, %+v; want it ignored", srcs, excl)
	}
}

// TestNodeModulesNotRead is issue 20's case: a folder without a .gitignore
// whose node_modules holds thousands of files. The walk does not enter it:
// one exclusion for the directory, no file under it listed, and the walk
// ends well within its deadline.
func TestNodeModulesNotRead(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 4000; i++ {
		dir := filepath.Join(root, "node_modules", fmt.Sprintf("pkg%03d", i/20), "lib")
		if i%20 == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.js", i)), []byte("module.exports = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "index.js"), []byte("require('pkg000')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srcs, excl, err := w.Walk(ctx, OpenFile)
	if err != nil {
		t.Fatalf("Walk: %v", err)
	}
	if diff := cmp.Diff(listing{Sources: []string{"index.js"}, Exclusions: []string{"node_modules ignored"}}, summarize(srcs, excl)); diff != "" {
		t.Errorf("Walk (-want +got):\n%s", diff)
	}
}
