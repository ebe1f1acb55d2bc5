package chunker

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/smacker/go-tree-sitter"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestEditTreeKeepsNewEndPoint guards the workaround in editTree: after an
// edit that adds lines, the edited tree must end at the new text's end point
// (sitter.Tree.Edit would leave the old one).
func TestEditTreeKeepsNewEndPoint(t *testing.T) {
	old := []byte("package a\n\nfunc F() {}\n")
	new := []byte("package a\n\n// G is new.\nfunc G() {}\n\nfunc F() {}\n")
	tree, err := grammarFor("go").parse(t.Context(), nil, old)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	e := diffEdit(old, new)
	wantEdit := sitter.EditInput{
		StartIndex: 11, OldEndIndex: 11, NewEndIndex: 37,
		StartPoint: sitter.Point{Row: 2}, OldEndPoint: sitter.Point{Row: 2}, NewEndPoint: sitter.Point{Row: 5},
	}
	if diff := cmp.Diff(wantEdit, e); diff != "" {
		t.Fatalf("diffEdit (-want +got):\n%s", diff)
	}
	editTree(tree, e)
	if got, want := tree.RootNode().EndPoint(), pointAt(new, len(new)); got != want {
		t.Errorf("edited tree ends at %+v, want %+v", got, want)
	}
}

func TestDiffEdit(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           sitter.EditInput
	}{
		{"same", "abc", "abc", sitter.EditInput{StartIndex: 3, OldEndIndex: 3, NewEndIndex: 3, StartPoint: sitter.Point{Column: 3}, OldEndPoint: sitter.Point{Column: 3}, NewEndPoint: sitter.Point{Column: 3}}},
		{"insert mid-line", "ab\ncd", "ab\ncXd", sitter.EditInput{StartIndex: 4, OldEndIndex: 4, NewEndIndex: 5, StartPoint: sitter.Point{Row: 1, Column: 1}, OldEndPoint: sitter.Point{Row: 1, Column: 1}, NewEndPoint: sitter.Point{Row: 1, Column: 2}}},
		{"delete lines", "a\nb\nc\n", "a\n", sitter.EditInput{StartIndex: 2, OldEndIndex: 6, NewEndIndex: 2, StartPoint: sitter.Point{Row: 1}, OldEndPoint: sitter.Point{Row: 3}, NewEndPoint: sitter.Point{Row: 1}}},
		{"replace all", "xy", "z", sitter.EditInput{StartIndex: 0, OldEndIndex: 2, NewEndIndex: 1, OldEndPoint: sitter.Point{Column: 2}, NewEndPoint: sitter.Point{Column: 1}}},
		{"repeated text", "aaaa", "aaaaaa", sitter.EditInput{StartIndex: 4, OldEndIndex: 4, NewEndIndex: 6, StartPoint: sitter.Point{Column: 4}, OldEndPoint: sitter.Point{Column: 4}, NewEndPoint: sitter.Point{Column: 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, diffEdit([]byte(tt.old), []byte(tt.new))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDocumentUpdate edits documents step by step: every Update must give
// the chunks a fresh Split gives.
func TestDocumentUpdate(t *testing.T) {
	opts := Options{PreferStructural: true, MaxTokens: 40, MinTokens: 5}
	tests := []struct {
		name  string
		path  string
		steps []string
		opts  Options
	}{
		{"go", "a.go", []string{
			"package a\n\nfunc F() {}\n",
			"package a\n\nimport \"fmt\"\n\nfunc F() {}\n",
			"package a\n\nimport \"fmt\"\n\n// F prints.\nfunc F() { fmt.Println(\"a long line that needs its own window\") }\n",
			"package a\n\nimport \"fmt\"\n\ntype T struct{}\n\n// F prints.\nfunc F() { fmt.Println(\"a long line that needs its own window\") }\n",
			"",
			"package b\n",
		}, opts},
		{"python", "a.py", []string{
			"class A:\n    def f(self):\n        return 1\n",
			"class A:\n    def f(self):\n        x = 1\n        return x\n\n    def g(self):\n        return 2\n",
			"import os\n\nclass A:\n    def g(self):\n        return 2\n",
		}, opts},
		{"markdown", "a.md", []string{
			"# A\n\ntext\n",
			"# A\n\ntext\n\n## B\n\nmore\n",
			"intro\n\n# A\n\ntext\n\n## B\n\nmore\n",
		}, opts},
		{"no grammar", "a.txt", []string{"one\ntwo\n", "one\n2\ntwo\n"}, opts},
		{"structural off", "a.go", []string{"package a\n", "package a\n\nfunc F() {}\n"}, Options{MaxTokens: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDocument(tt.path)
			defer d.Close()
			for i, src := range tt.steps {
				got, err := d.Update(t.Context(), []byte(src), quarter, tt.opts)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				want, err := Split(t.Context(), tt.path, []byte(src), quarter, tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("step %d (-Split +Update):\n%s", i, diff)
				}
			}
		})
	}
}

// TestDocumentReuse checks that a document keeps working after Close and
// after a failed (cancelled) update.
func TestDocumentReuse(t *testing.T) {
	src := []byte("package a\n\nfunc F() {}\n")
	opts := Options{PreferStructural: true}
	want, err := Split(t.Context(), "a.go", src, quarter, opts)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDocument("a.go")
	defer d.Close()
	if _, err := d.Update(t.Context(), []byte("package a\n"), quarter, opts); err != nil {
		t.Fatal(err)
	}
	d.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := d.Update(ctx, src, quarter, opts); err == nil {
		t.Errorf("Update with a cancelled context succeeded")
	}
	if _, err := d.Update(t.Context(), src, nil, opts); err == nil {
		t.Errorf("Update with a nil counter succeeded")
	}
	got, err := d.Update(t.Context(), src, quarter, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestParseAfterCancelledContext guards the workaround in guardCancel: a
// context that ends right after a parse must not poison the pooled parser
// for the next parse.
func TestParseAfterCancelledContext(t *testing.T) {
	g := grammarFor("go")
	small := []byte("package a\n")
	big := []byte("package a\n\n" + strings.Repeat("func F() { println(1, 2, 3) }\n", 200))
	for i := range 300 {
		ctx, cancel := context.WithCancel(t.Context())
		tree, err := g.parse(ctx, nil, small)
		cancel()
		if err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
		tree.Close()
		tree, err = g.parse(context.Background(), nil, big)
		if err != nil {
			t.Fatalf("iteration %d: parse after a cancelled context: %v", i, err)
		}
		tree.Close()
	}
}
