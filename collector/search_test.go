package collector

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp/syntax"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// numbered returns n lines "line i", with the given 1-based lines replaced.
func numbered(n int, at map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := at[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "line %d", i)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func searchFixture() []fx {
	return []fx{
		// dense: three matching lines in a row, one with two matches
		file("dense.go", numbered(30, map[int]string{10: "CheckoutService", 11: "CheckoutService x CheckoutService", 12: "CheckoutService"})),
		// sparse: two clusters far apart
		file("sparse.go", numbered(40, map[int]string{2: "a CheckoutService", 30: "b CheckoutService"})),
		// near: two matches 4 lines apart merge with 2 lines of context
		file("near.go", numbered(20, map[int]string{5: "CheckoutService", 9: "CheckoutService"})),
		file("lower.txt", "checkoutservice in lower case\n"),
		file(".gitignore", "ignored.go\n"), file("ignored.go", "CheckoutService\n"),
		file(".env", "CheckoutService=1\n"),
	}
}

func TestSearch(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, searchFixture()...)
	type hit struct {
		Path       string
		Start, End int
	}
	tests := []struct {
		name    string
		pattern string
		regex   bool
		max     int
		ctx     int
		want    []hit
	}{
		{
			name: "literal, ordered by density", pattern: "CheckoutService", ctx: 2,
			want: []hit{{"dense.go", 8, 14}, {"near.go", 3, 11}, {"sparse.go", 1, 4}, {"sparse.go", 28, 32}},
		},
		{
			name: "no context", pattern: "CheckoutService", ctx: 0,
			want: []hit{{"dense.go", 10, 12}, {"near.go", 5, 5}, {"near.go", 9, 9}, {"sparse.go", 2, 2}, {"sparse.go", 30, 30}},
		},
		{
			name: "max results keeps the best", pattern: "CheckoutService", ctx: 2, max: 2,
			want: []hit{{"dense.go", 8, 14}, {"near.go", 3, 11}},
		},
		{
			name: "lower-case literal is case-insensitive", pattern: "checkoutservice", ctx: 0, max: 1,
			want: []hit{{"dense.go", 10, 12}},
		},
		{
			name: "smart case: lower.txt only matches without upper case", pattern: "checkoutservice in", ctx: 0,
			want: []hit{{"lower.txt", 1, 1}},
		},
		{
			name: "regex", pattern: `^[ab] Checkout\w+$`, regex: true, ctx: 1,
			want: []hit{{"sparse.go", 1, 3}, {"sparse.go", 29, 31}},
		},
		{
			name: "regex metacharacters are literal without regex", pattern: "line (1)", ctx: 0,
			want: []hit{},
		},
		{
			name: "regex group", pattern: "line (1)$", regex: true, ctx: 0,
			want: []hit{{"dense.go", 1, 1}, {"near.go", 1, 1}, {"sparse.go", 1, 1}},
		},
		{
			name: "no match", pattern: "NoSuchThing", ctx: 2,
			want: []hit{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srcs, excl, err := w.Search(context.Background(), tt.pattern, tt.regex, tt.max, tt.ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := []hit{}
			for _, s := range srcs {
				got = append(got, hit{s.Path, s.StartLine, s.EndLine})
				if s.Type != SearchResult || s.Relevance == nil || *s.Relevance <= 0 || *s.Relevance >= 1 {
					t.Errorf("source %s:%d has type %q relevance %v", s.Path, s.StartLine, s.Type, s.Relevance)
				}
				if !strings.Contains(s.Content, "line 1\n") && s.Path != "lower.txt" {
					t.Errorf("source %s does not carry the whole file", s.Path)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Search mismatch (-want +got):\n%s", diff)
			}
			wantExcl := []string{".env secret", "ignored.go ignored"}
			if diff := cmp.Diff(wantExcl, summarize(nil, excl).Exclusions); diff != "" {
				t.Errorf("exclusions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchRelevance(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, searchFixture()...)
	srcs, _, err := w.Search(context.Background(), "CheckoutService", false, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	// dense.go: 4 matches on 3 lines in a 7-line window.
	want := 0.5*(1-1.0/5) + 0.5*3.0/7
	if got := *srcs[0].Relevance; math.Abs(got-want) > 1e-12 {
		t.Errorf("dense relevance = %v, want %v", got, want)
	}
	for i := 1; i < len(srcs); i++ {
		if *srcs[i].Relevance > *srcs[i-1].Relevance {
			t.Errorf("results not in descending relevance at %d", i)
		}
	}
}

func TestSearchErrors(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, file("a.go", "x\n"))
	tests := []struct {
		name, pattern string
		regex         bool
	}{
		{"empty pattern", "", false},
		{"bad regex", "a(b", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := w.Search(context.Background(), tt.pattern, tt.regex, 0, 0); err == nil {
				t.Errorf("Search(%q) succeeded", tt.pattern)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := w.Search(ctx, "x", false, 0, 0); err == nil {
		t.Errorf("Search with a canceled context succeeded")
	}
}

func BenchmarkSearch(b *testing.B) {
	tmp := b.TempDir()
	var entries []fx
	for f := 0; f < 200; f++ {
		entries = append(entries, file(fmt.Sprintf("pkg/f%03d.go", f), numbered(200, map[int]string{f%200 + 1: "CheckoutService"})))
	}
	build(b, tmp, entries...)
	w, err := New(Options{Roots: []string{tmp}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := w.Search(context.Background(), "CheckoutService", false, 50, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// fakeIndex answers a search's filter from a table of display paths
// (true: the file is known to hold no match; false: known, may match;
// absent: unknown) and records what it learns.
type fakeIndex struct {
	known   map[string]bool
	learned []string
}

func (x *fakeIndex) SearchFilter(*syntax.Regexp) func(FileRef) (bool, bool) {
	return func(f FileRef) (bool, bool) {
		skip, ok := x.known[f.Path]
		return skip, ok
	}
}

func (x *fakeIndex) Learn(f FileRef, text string) { x.learned = append(x.learned, f.Path) }

// TestSearchIndexedSkips: the files the index rules out are not read (a
// match in one is not found), unless the editor has the file open; the
// files it cannot answer for are read and learned, but not a redacted
// one nor an open one; exclusions are the walk's.
func TestSearchIndexedSkips(t *testing.T) {
	ov := fakeOverlay{}
	w, root := newWorkspace(t, Options{Overlay: ov},
		file("ruled.go", "CheckoutService\n"), file("open.go", "nothing\n"), file("known.go", "CheckoutService here\n"),
		file("fresh.go", "a CheckoutService\n"), file("secret.go", "CheckoutService\npassword = \"hunter2-9xTq2Lz\"\n"),
		file("bin.dat", "CheckoutService\x00"), file("edited.go", "old\n"))
	ov[filepath.Join(root, "open.go")] = "CheckoutService in the editor\n"
	ov[filepath.Join(root, "edited.go")] = "CheckoutService unsaved\n"
	x := &fakeIndex{known: map[string]bool{"ruled.go": true, "open.go": true, "known.go": false}}
	got, gotX, err := w.SearchIndexed(context.Background(), x, "CheckoutService", false, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, wantX, err := w.Search(context.Background(), "CheckoutService", false, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range got {
		paths = append(paths, s.Path)
	}
	sort.Strings(paths)
	if d := cmp.Diff([]string{"edited.go", "fresh.go", "known.go", "open.go", "secret.go"}, paths); d != "" {
		t.Errorf("sources (-want +got):\n%s", d)
	}
	if len(want) != len(got)+1 {
		t.Errorf("the search without the index found %d sources, want the %d found plus ruled.go", len(want), len(got))
	}
	if d := cmp.Diff(wantX, gotX); d != "" {
		t.Errorf("exclusions differ from the walk's (-want +got):\n%s", d)
	}
	sort.Strings(x.learned)
	if d := cmp.Diff([]string{"fresh.go"}, x.learned); d != "" {
		t.Errorf("learned (-want +got):\n%s", d)
	}
}

// TestSearchIndexedLimit: a search's walk limit counts the text it keeps
// (the files it matches), not the text it scans and lets go or the index
// rules out, so a search of a tree larger than MaxWalkBytes works; with
// and without the index, for a pattern matched whole or line by line,
// the same files are kept and the same limit fails.
func TestSearchIndexedLimit(t *testing.T) {
	big := strings.Repeat("x", 600) + "\n" // 601 bytes
	w, _ := newWorkspace(t, Options{}, file("a.go", big), file("b.go", "CheckoutService\n"), file("c.go", big),
		file("d.go", big+"CheckoutService\n"), file("e.go", big+"CheckoutService\n"))
	defer func(old int64) { MaxWalkBytes = old }(MaxWalkBytes)
	const held = 16 + 617 + 617 // b, d, e; the tree is 2,452 bytes
	indexes := []SearchIndex{nil, &fakeIndex{known: map[string]bool{"a.go": true, "c.go": true}}}
	for _, pattern := range []string{"CheckoutService", "^CheckoutService$"} {
		for i, idx := range indexes {
			MaxWalkBytes = 2000
			srcs, _, err := w.SearchIndexed(context.Background(), idx, pattern, true, 0, 0)
			if err != nil {
				t.Fatalf("index %d, %q, under the limit: %v", i, pattern, err)
			}
			var paths []string
			for _, s := range srcs {
				paths = append(paths, s.Path)
			}
			sort.Strings(paths)
			if d := cmp.Diff([]string{"b.go", "d.go", "e.go"}, paths); d != "" {
				t.Errorf("index %d, %q (-want +got):\n%s", i, pattern, d)
			}
			MaxWalkBytes = held - 1
			_, _, err = w.SearchIndexed(context.Background(), idx, pattern, true, 0, 0)
			var we *WalkLimitError
			if !errors.As(err, &we) || we.Size != held {
				t.Errorf("index %d, %q, over the limit: %v, want a walk limit of %d bytes held", i, pattern, err, held)
			}
		}
	}
}

// TestSearchSkipsUnmatchedTexts: a file the whole expression misses is not
// split into lines; the search finds what matching every line of every
// file finds, for word boundaries, dots, classes and anchors at the
// lines' edges.
func TestSearchSkipsUnmatchedTexts(t *testing.T) {
	w, _ := newWorkspace(t, Options{},
		file("a.go", "foo\n.x\nbar foo.\n"), file("b.go", "xfoo\na\nb\n"), file("c.go", "a.b\n\nfoo bar\n"), file("d.go", "nothing\n"))
	files, _, err := w.Walk(context.Background(), SearchResult)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{`\bfoo`, `foo\b`, `\Bfoo`, `\B\.`, `\.\B`, `a.b`, `(?s)a.b`, `[^a]x`, `^foo`, `foo$`, `^a$`, `(?m)^b`, `\s*bar`, `o\s`} {
		re, err := compileSearch(p, true)
		if err != nil {
			t.Fatal(err)
		}
		want := []Source{}
		for _, f := range files {
			want = append(want, clusters(context.Background(), f, re, 1)...)
		}
		got, _, err := w.Search(context.Background(), p, true, 1000, 1)
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(got, func(i, j int) bool {
			return got[i].Path < got[j].Path || got[i].Path == got[j].Path && got[i].StartLine < got[j].StartLine
		})
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%q (-line by line +search):\n%s", p, d)
		}
	}
}

// TestSearchProgress: a search reports every file it meets, with and
// without the index, and the text it gathered (the files it keeps).
func TestSearchProgress(t *testing.T) {
	w, _ := newWorkspace(t, Options{}, file("a.go", "alpha\n"), file("b.go", "CheckoutService\n"), file("c.go", "gamma\n"))
	for i, idx := range []SearchIndex{nil, &fakeIndex{known: map[string]bool{"a.go": true}}} {
		var files int
		var bytes int64
		ctx := WithProgress(context.Background(), func(f int, b int64) { files, bytes = f, b })
		if _, _, err := w.SearchIndexed(ctx, idx, "CheckoutService", false, 0, 0); err != nil {
			t.Fatal(err)
		}
		if files != 3 || bytes != int64(len("CheckoutService\n")) {
			t.Errorf("index %d: last report %d files, %d bytes; want 3 files met and b.go's 16 bytes", i, files, bytes)
		}
	}
}
