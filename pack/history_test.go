package pack

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseHistory(t *testing.T) {
	log := "\x00\n\na.go\nb.go\n\x00\n\nc.go\n\"quoted\\tname.go\"\n\x00\n\x00\n\na.go\nb.go\n"
	h := parseHistory("/r", []byte(log), historyRead{})
	if len(h.commits) != 3 {
		t.Fatalf("commits = %v, want 3 (the empty one left out)", h.commits)
	}
	if h.touched["/r/a.go"] != 2 || h.touched["/r/c.go"] != 1 || !h.recent["/r/c.go"] {
		t.Fatalf("touched = %v, recent = %v", h.touched, h.recent)
	}
	// A sweep commit is left out.
	var b strings.Builder
	b.WriteString("\x00\n\n")
	for i := 0; i <= historyWideCommit; i++ {
		b.WriteString("f" + strings.Repeat("x", i) + ".go\n")
	}
	if h := parseHistory("/r", []byte(b.String()), historyRead{}); len(h.commits) != 0 {
		t.Fatalf("a commit of %d files counted", historyWideCommit+1)
	}
}

func TestHistoryFactors(t *testing.T) {
	h := &history{touched: map[string]int{}, recent: map[string]bool{}}
	add := func(files ...string) {
		h.commits = append(h.commits, files)
		for _, f := range files {
			h.touched[f]++
		}
	}
	add("seed", "partner")
	add("seed", "partner")
	add("seed", "other")
	add("lonely")
	h.recent["lonely"] = true
	scores := map[string]float64{"seed": 2, "partner": 0.1, "other": 0.1, "lonely": 0.1, "never": 0.1}
	f := h.factors(scores, recentFactor, cochangeWeight)
	if !(f["partner"] > f["other"] && f["other"] > 1) {
		t.Fatalf("co-change: %v", f)
	}
	if f["lonely"] != 1+recentFactor {
		t.Fatalf("recent: %v", f)
	}
	if _, ok := f["never"]; ok {
		t.Fatalf("a file without history got a factor: %v", f)
	}
	if max := 1 + recentFactor + cochangeWeight; f["partner"] > max {
		t.Fatalf("factor %v over its bound %v", f["partner"], max)
	}
	if f := h.factors(scores, 0, 0); len(f) != 0 {
		t.Fatalf("ablated: %v", f)
	}
	var none *history
	if f := none.factors(scores, recentFactor, cochangeWeight); len(f) != 0 {
		t.Fatalf("no history: %v", f)
	}
}

// TestLoadHistory reads a real repository's log and writes nothing to it;
// outside git it is off.
func TestLoadHistory(t *testing.T) {
	dir := t.TempDir()
	git := gitIn(t, dir)
	if h := loadHistory(context.Background(), filepath.Join(dir, "a.go"), historyRead{}); h != nil {
		t.Fatalf("history outside git: %+v", h)
	}
	git("init", "-q")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "package a\n")
	write("b.go", "package a\n")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("a.go", "package a // 2\n")
	git("commit", "-q", "-am", "Cookie jar keeps sessions", "-m", "The parser drops expired entries.\n\nSigned-off-by: Someone <s@x>")
	before := snapshot(t, filepath.Join(dir, ".git"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h := loadHistory(ctx, filepath.Join(dir, "a.go"), historyRead{msgs: 2, commits: 1000})
	if h == nil {
		t.Fatal("no history in a git repository")
	}
	a, b := filepath.Join(dir, "a.go"), filepath.Join(dir, "b.go")
	if len(h.commits) != 2 || h.touched[a] != 2 || h.touched[b] != 1 || !h.recent[b] {
		t.Fatalf("history = %+v", h)
	}
	if len(h.said) != 2 || strings.Join(h.said[0].terms, " ") != "cookie jar keep session parser drop expired entrie" ||
		len(h.said[0].files) != 1 || h.said[0].files[0] != a {
		t.Fatalf("messages = %+v", h.said)
	}
	if after := snapshot(t, filepath.Join(dir, ".git")); after != before {
		t.Fatalf(".git changed while reading history:\n%s\n---\n%s", before, after)
	}
}

// snapshot lists every file under dir with its size and time.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + info.ModTime().String() + " " + itoaTest(info.Size()) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func itoaTest(n int64) string { return strconv.FormatInt(n, 10) }

// gitIn returns a runner of git commands in dir (as a test user, without
// signing) that fails the test on an error. The tests that use it need
// git: make test's machines have it, so its absence fails them.
func gitIn(t *testing.T, dir string) func(args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is needed: %v", err)
	}
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}
