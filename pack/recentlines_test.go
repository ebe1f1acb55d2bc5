package pack

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
)

func TestHunkSpan(t *testing.T) {
	for _, tc := range []struct {
		line string
		want lineSpan
		ok   bool
	}{
		{"@@ -3,2 +5,4 @@ func a() {", lineSpan{5, 8}, true},
		{"@@ -3 +7 @@", lineSpan{7, 7}, true},
		{"@@ -3,2 +1,0 @@", lineSpan{1, 4}, true}, // a deletion: the lines around it
		{"@@ -3,2 +x,1 @@", lineSpan{}, false},
		{"@@ bad", lineSpan{}, false},
	} {
		got, ok := hunkSpan(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q: %v %v, want %v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseHunks(t *testing.T) {
	log := "\x00\n\ndiff --git a/a.go b/a.go\nindex 1..2 100644\n--- a/a.go\n+++ b/a.go\n@@ -10,0 +11,2 @@\n+x\n+y\n" +
		"diff --git a/b.go b/b.go\n--- a/b.go\n+++ b/b.go\n@@ -1 +1 @@\n-+++ b/a.go\n++++ b/a.go\n" +
		"\x00\n\ndiff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -40 +40 @@\n-p\n+q\n" +
		"diff --git a/gone.go b/gone.go\n--- a/gone.go\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-x\n"
	files := map[string]string{"a.go": "a.go", "b.go": "b.go", "gone.go": "gone.go"}
	got := parseHunks([]byte(log), files, 1)
	want := map[string][]lineSpan{"a.go": {{11, 12}}, "b.go": {{1, 1}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("k=1: %v, want %v", got, want)
	}
	got = parseHunks([]byte(log), files, 2)
	want["a.go"] = append(want["a.go"], lineSpan{40, 40})
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("k=2: %v, want %v", got, want)
	}
}

func TestAddRecentLines(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.go", StartLine: 1, EndLine: 9},
		{Seq: 1, Path: "a.go", StartLine: 10, EndLine: 20},
		{Seq: 2, Path: "b.go", StartLine: 10, EndLine: 20},
	}
	q := &query{feat: newFeatures([]string{"+" + featRecentLines, featImportsAll}), raw: make([]float64, 3),
		fileBest: map[string]float64{"a.go": 2, "b.go": 1}, recentHunks: map[string][]lineSpan{"a.go": {{12, 13}}}}
	q.expand(items)
	if want := []float64{0, recentLinesWeight * 2, 0}; !reflect.DeepEqual(q.raw, want) {
		t.Fatalf("raw = %v, want %v", q.raw, want)
	}
	// floor: a recent chunk already above the floor gains nothing, one
	// below it is lifted to it
	for _, tc := range []struct{ raw, want float64 }{{1, 1}, {0.2, recentLinesWeight * 2}} {
		q.feat = newFeatures([]string{"+" + featRecentLines, "+" + featRecentFloor, featImportsAll})
		q.raw = []float64{0, tc.raw, 0}
		q.fileBest = map[string]float64{"a.go": 2, "b.go": 1}
		q.expand(items)
		if !near(q.raw[1], tc.want) {
			t.Errorf("floor from %v: %v, want %v", tc.raw, q.raw[1], tc.want)
		}
	}
}

// TestGitHunks reads a real repository's last change of a file and
// writes nothing to it.
func TestGitHunks(t *testing.T) {
	dir := t.TempDir()
	git := gitIn(t, dir)
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write(strings.Repeat("line\n", 20))
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write(strings.Repeat("line\n", 14) + "changed\n" + strings.Repeat("line\n", 5))
	git("commit", "-q", "-am", "two")
	before := snapshot(t, filepath.Join(dir, ".git"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got := gitHunks(ctx, dir, map[string]string{"a.go": "a.go"}, 1)
	if want := map[string][]lineSpan{"a.go": {{15, 15}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("hunks = %v, want %v", got, want)
	}
	if after := snapshot(t, filepath.Join(dir, ".git")); after != before {
		t.Fatalf(".git changed while reading hunks")
	}
	if got := gitHunks(ctx, t.TempDir(), map[string]string{"a.go": "a.go"}, 1); len(got) != 0 {
		t.Fatalf("hunks outside git: %v", got)
	}
}
