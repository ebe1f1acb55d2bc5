package eval

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestNeededLines(t *testing.T) {
	diff := `diff --git a/a.go b/a.go
index 1111111..2222222 100644
--- a/a.go
+++ b/a.go
@@ -3,2 +3,3 @@ func f() {
-	x := 1
-	y := 2
+	x := 10
+	y := 20
+	z := 30
@@ -10,0 +12,2 @@ func g() {
+	// inserted after line 10
+	h()
@@ -20 +23 @@ func k() {
-	old()
+	new()
diff --git a/top.py b/top.py
--- a/top.py
+++ b/top.py
@@ -0,0 +1 @@
+import os
diff --git a/new.go b/new.go
new file mode 100644
--- /dev/null
+++ b/new.go
@@ -0,0 +1,3 @@
+package x
+
+func New() {}
`
	lines := map[string]int{"a.go": 30, "top.py": 2}
	got, err := NeededLines(diff, func(p string) int { return lines[p] })
	if err != nil {
		t.Fatal(err)
	}
	want := []FileLines{
		// 3-4 replaced; insertion after 10 → 8..13; 20 removed.
		{Path: "a.go", Ranges: [][2]int{{3, 4}, {8, 13}, {20, 20}}},
		// insertion at the top of a 2-line file → 1..2 (clipped).
		{Path: "top.py", Ranges: [][2]int{{1, 2}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("NeededLines = %v, want %v", got, want)
	}
}

func TestNeededLinesBadHunk(t *testing.T) {
	_, err := NeededLines("--- a/x.go\n+++ b/x.go\n@@ -x,1 +1 @@\n", func(string) int { return 1 })
	if err == nil {
		t.Fatal("a malformed hunk header was accepted")
	}
}

func TestRecall(t *testing.T) {
	needed := []FileLines{
		{Path: "a.go", Ranges: [][2]int{{1, 4}, {10, 10}}}, // 5 lines
		{Path: "b.go", Ranges: [][2]int{{5, 9}}},           // 5 lines
		{Path: "c.go", Ranges: [][2]int{{1, 10}}},          // 10 lines
	}
	tests := []struct {
		name       string
		spans      []Span
		line, file float64
	}{
		{"nothing", nil, 0, 0},
		{"all", []Span{{"a.go", 1, 100}, {"b.go", 1, 100}, {"c.go", 1, 10}}, 1, 1},
		{"partial", []Span{{"a.go", 3, 10}, {"c.go", 11, 20}, {"b.go", 9, 9}}, 4.0 / 20, 2.0 / 3},
		{"overlapping spans count a line once", []Span{{"c.go", 1, 6}, {"c.go", 4, 8}}, 8.0 / 20, 1.0 / 3},
		{"other files do not count", []Span{{"d.go", 1, 100}}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, file := Recall(needed, tt.spans)
			if math.Abs(line-tt.line) > 1e-12 || math.Abs(file-tt.file) > 1e-12 {
				t.Fatalf("Recall = %v, %v; want %v, %v", line, file, tt.line, tt.file)
			}
		})
	}
}

func TestBM25Rank(t *testing.T) {
	docs := []Doc{
		{Path: "a", Start: 1, Text: "the cat sat on the mat"},
		{Path: "b", Start: 1, Text: "timeout timeout timeout after cancel"},
		{Path: "c", Start: 1, Text: "a timeout"},
		{Path: "d", Start: 1, Text: "nothing relevant here at all, nothing"},
		{Path: "e", Start: 1, Text: "cancel the request"},
	}
	order, scores := BM25Rank("Fix the timeout after Cancel", docs)
	// b holds three query terms (timeout three times); e two (cancel is
	// rarer than timeout); c one rare-ish term; a only "the" (twice); d no
	// query term at all and is left out.
	if want := []int{1, 4, 2, 0}; !reflect.DeepEqual(order, want) {
		t.Fatalf("order = %v (scores %v), want %v", order, scores, want)
	}
	if scores[3] != 0 {
		t.Fatalf("a document without query terms scored %v", scores[3])
	}
	// Saturation: more occurrences score higher, but less than linearly.
	one := []Doc{{Path: "x", Text: "timeout pad pad"}, {Path: "y", Text: "timeout timeout timeout"}, {Path: "z", Text: "other pad pad"}}
	_, s := BM25Rank("timeout", one)
	if !(s[1] > s[0] && s[1] < 3*s[0]) {
		t.Fatalf("tf saturation: scores %v", s)
	}
}

func TestWindowsAndGreedy(t *testing.T) {
	text := ""
	for i := 0; i < 85; i++ {
		text += "line\n"
	}
	w := Windows("f", text, 40)
	if len(w) != 3 || w[0].Start != 1 || w[0].End != 40 || w[2].Start != 81 || w[2].End != 85 {
		t.Fatalf("windows = %+v", w)
	}
	docs := []Doc{{Tokens: 50}, {Tokens: 60}, {Tokens: 30}, {Tokens: 20}}
	if got := Greedy([]int{0, 1, 2, 3}, docs, 100, Charged); !reflect.DeepEqual(got, []int{0, 2, 3}) {
		t.Fatalf("Greedy skipped wrongly: %v", got)
	}
}

func TestBootstrapAndWins(t *testing.T) {
	xs := []float64{0, 1, 0, 1, 0, 1, 0, 1}
	lo, hi := Bootstrap(xs, 1)
	if !(lo < 0.5 && hi > 0.5 && lo >= 0 && hi <= 1) {
		t.Fatalf("interval [%v, %v] does not hold the mean 0.5", lo, hi)
	}
	if lo2, hi2 := Bootstrap(xs, 1); lo2 != lo || hi2 != hi {
		t.Fatal("the bootstrap is not reproducible")
	}
	if lo, hi := Bootstrap([]float64{0.3, 0.3, 0.3}, 1); lo != 0.3 || hi != 0.3 {
		t.Fatalf("constant data: [%v, %v]", lo, hi)
	}
	w, ti, l := WinTieLoss([]float64{1, 0.5, 0}, []float64{0.5, 0.5, 1})
	if w != 1 || ti != 1 || l != 1 {
		t.Fatalf("WinTieLoss = %d/%d/%d", w, ti, l)
	}
}

func TestSelectionRules(t *testing.T) {
	for p, want := range map[string]bool{"lib/core/Axios.js": true, "dist/axios.js": false, "x/vendor/y.go": false, "gin.go": true, "a.md": false, "types.d.ts": false} {
		if IsSource(p) != want {
			t.Errorf("IsSource(%q) = %v", p, !want)
		}
	}
	for p, want := range map[string]bool{"gin_test.go": true, "tests/test_x.py": true, "test/unit/a.js": true, "src/test/java/FooTest.java": true, "source/index.ts": false, "httpx/_models.py": false} {
		if IsTest(p) != want {
			t.Errorf("IsTest(%q) = %v", p, !want)
		}
	}
	msg := "Fix the thing that broke\n\nLonger text.\n\nSigned-off-by: A <a@b>\nCo-authored-by: C <c@d>\n"
	if got := CleanMessage(msg); got != "Fix the thing that broke\n\nLonger text." {
		t.Fatalf("CleanMessage = %q", got)
	}
	for _, s := range []string{"v1.2.3", "Release 2.0", "bump version", "ready to release v1.5.0 (#2109)", "Revert \"x\""} {
		if !versionRe.MatchString(s) {
			t.Errorf("%q is not recognised as a release", s)
		}
	}
	if versionRe.MatchString("Fix release of pooled connections") {
		t.Error("an ordinary message was taken for a release")
	}
}

func TestCasesRoundTrip(t *testing.T) {
	cs := []Case{{Repo: "b/b", Commit: "2"}, {Repo: "a/a", Commit: "1", Needed: []FileLines{{Path: "x", Ranges: [][2]int{{1, 2}}}}}}
	var buf bytes.Buffer
	if err := WriteCases(&buf, cs); err != nil {
		t.Fatal(err)
	}
	got, err := decodeCases(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Repo != "a/a" || got[0].Needed[0].Lines() != 2 {
		t.Fatalf("round trip: %+v", got)
	}
}

func TestCodeTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"clearCookie", []string{"clear", "cookie", "clearcookie"}},
		{"to_native_str", []string{"native", "str", "to_native_str"}},
		{"errors.Is(err)", []string{"errors", "errors.is", "err"}}, // "is" is a stop word, the compound is not
		{"parseHTTPRequest2", []string{"parse", "http", "request", "parsehttprequest2"}},
		// stop words and one-letter words go; a sentence's dot is no compound
		{"Fix the timeout of a Client.", []string{"fix", "timeout", "client"}},
		{"x = y_z", []string{"y_z"}},
		{"utf8 über", []string{"utf", "utf8", "über"}},
	}
	for _, tt := range tests {
		if got := CodeTerms(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("CodeTerms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHonestBaseline(t *testing.T) {
	docs := []Doc{
		{Path: "a", Start: 1, Text: "func clearCookie(w Writer) { remove cookie }"},
		{Path: "b", Start: 1, Text: "the cookie jar holds a cookie"},
		{Path: "c", Start: 1, Text: "the of and to in"},
		{Path: "d", Start: 1, Text: "session store session"},
	}
	// The plain baseline cannot see clearCookie's parts, the honest one can.
	order, _ := Honest.Rank("clear the cookie", docs)
	if len(order) == 0 || order[0] != 0 {
		t.Fatalf("honest order = %v, want clearCookie first", order)
	}
	if _, s := Plain.Rank("clear the cookie", docs); s[0] >= s[1] {
		t.Fatalf("plain scores %v: the old baseline should not split clearCookie", s)
	}
	// Stop words carry nothing: a doc of stop words scores 0.
	if _, s := Honest.Rank("the of", docs); s[2] != 0 {
		t.Fatalf("stop words scored %v", s[2])
	}
	// Repeats count: a term said twice weighs twice.
	_, once := Honest.Rank("session cookie", docs)
	_, twice := Honest.Rank("session session cookie", docs)
	if math.Abs(twice[3]-2*once[3]) > 1e-9 || math.Abs(twice[1]-once[1]) > 1e-9 {
		t.Fatalf("repeats: once %v, twice %v", once, twice)
	}
	_, p1 := Plain.Rank("session cookie", docs)
	_, p2 := Plain.Rank("session session cookie", docs)
	if p1[3] != p2[3] {
		t.Fatalf("the plain baseline counts each query term once: %v vs %v", p1, p2)
	}
}

func TestFramed(t *testing.T) {
	d := Doc{Path: "lib/a.go", Start: 41, End: 42, Text: "x := \"```\"\ny()\n"}
	want := "## File: lib/a.go (lines 41-42)\n````go\nx := \"```\"\ny()\n````\n\n"
	if got := Framed(d); got != want {
		t.Fatalf("Framed = %q, want %q", got, want)
	}
	docs := []Doc{{Tokens: 50, TextTokens: 40}, {Tokens: 60, TextTokens: 50}}
	if got := Greedy([]int{0, 1}, docs, 100, TextOnly); len(got) != 2 {
		t.Fatalf("text-only cost: %v", got)
	}
	if got := Greedy([]int{0, 1}, docs, 100, Charged); len(got) != 1 {
		t.Fatalf("charged cost: %v", got)
	}
}

func TestRecallOf(t *testing.T) {
	needed := []FileLines{{Path: "a.go", Ranges: [][2]int{{1, 4}}}, {Path: "a_test.go", Ranges: [][2]int{{1, 6}}}}
	spans := []Span{{"a.go", 1, 2}, {"a_test.go", 1, 6}}
	lib, ok := RecallOf(needed, spans, func(p string) bool { return !IsTest(p) })
	if !ok || lib != 0.5 {
		t.Fatalf("library recall = %v, %v", lib, ok)
	}
	if tr, ok := RecallOf(needed, spans, IsTest); !ok || tr != 1 {
		t.Fatalf("test recall = %v, %v", tr, ok)
	}
	if _, ok := RecallOf(needed[:1], spans, IsTest); ok {
		t.Fatal("a case without test lines reported a test recall")
	}
}

// TestGitDir: an extracted tree becomes a repository at the given commit
// that borrows the mirror's objects, without writing to the mirror.
func TestGitDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	src := filepath.Join(root, "src")
	run := func(dir string, args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	run(src, "init", "-q")
	for i, name := range []string{"a.go", "b.go"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(src, "add", name)
		run(src, "commit", "-q", "-m", "c"+strconv.Itoa(i))
	}
	first := run(src, "rev-parse", "HEAD~1")
	mirrors := filepath.Join(root, "mirrors")
	mirror := MirrorDir(mirrors, "o/r")
	run(root, "clone", "-q", "--mirror", src, mirror)
	r := &Runner{Mirrors: mirrors, Cache: filepath.Join(root, "cache")}
	dir, err := r.Tree(context.Background(), "o/r", first)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(dir, "log", "--format=%s"); got != "c0" {
		t.Fatalf("history of the tree = %q, want only the parent's commit", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.go")); err == nil {
		t.Fatal("the tree holds a file of a later commit")
	}
}

func TestVariantMeans(t *testing.T) {
	rs := []Result{
		{AcodeLine: 1, AcodeFile: 1, AcodeLib: 1, HasLib: true, Variants: []Variant{{Line: 0.5, File: 1, Lib: 0.5}}},
		{AcodeLine: 0, AcodeFile: 0, AcodeTest: 0.5, HasTest: true, Variants: []Variant{{Line: 0.25, File: 0.5, Test: 1}}},
		{AcodeLine: 0.5, AcodeFile: 1}, // no variant: left out of variant 0
	}
	if got, want := variantMeans(rs, -1), (means{3, 0.5, 1, 0.5, 2.0 / 3}); got != want {
		t.Errorf("main = %+v, want %+v", got, want)
	}
	if got, want := variantMeans(rs, 0), (means{2, 0.375, 0.5, 1, 0.75}); got != want {
		t.Errorf("variant 0 = %+v, want %+v", got, want)
	}
}

// TestBootstrapRatioUnbounded: a resample in which the baseline found
// nothing has an unbounded ratio, shown as ∞ (it was once printed as
// 3043478260869.57, the quotient by a stand-in 1e-12).
func TestBootstrapRatioUnbounded(t *testing.T) {
	a := []float64{0.5, 0.8, 0.2, 0.9, 0.6}
	b := []float64{0, 0, 0, 0.4, 0}
	lo, hi := BootstrapRatio(a, b, 1)
	if !math.IsInf(hi, 1) || math.IsInf(lo, 1) || lo <= 0 {
		t.Errorf("BootstrapRatio = [%v, %v], want a finite lower bound and +Inf", lo, hi)
	}
	if lo, hi := BootstrapRatio([]float64{0, 0}, []float64{0, 0}, 1); lo != 0 || hi != 0 {
		t.Errorf("all zero: [%v, %v], want [0, 0]", lo, hi)
	}
	if got := bound(hi); got != "∞" {
		t.Errorf("bound(+Inf) = %q", got)
	}
	if got := bound(1.234); got != "1.23" {
		t.Errorf("bound(1.234) = %q", got)
	}
}
