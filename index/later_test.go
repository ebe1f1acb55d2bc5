package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/pack"
)

// laterToken is a secret's shape (a GitHub token): the file holding it is
// redacted, so nothing of it may be stored.
var laterToken = "ghp_" + "R8vK2mQx9LzT4wNc7YbH3jPf6sDa1eUg5iOo"

// laterWords are the words the tree's files are made of.
var laterWords = []string{"checkout", "cart", "payment", "retry", "timeout", "server", "client", "idle",
	"connection", "request", "handler", "queue", "worker", "ledger", "audit", "invoice", "refund", "stock"}

// makeGoTree writes n Go files of about 1.5 KB (enough, under a small
// budget, that a query pack ranks files before chunking them), file
// secret holding laterToken, with version v of their text.
func makeGoTree(t testing.TB, root string, n, v, secret int) []string {
	t.Helper()
	var paths []string
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i%7)
		for j := 0; j < 12; j++ {
			w1, w2 := laterWords[(i+j)%len(laterWords)], laterWords[(i*j+v)%len(laterWords)]
			fmt.Fprintf(&b, "// %s%s handles the %s of the %s (v%d).\nfunc %s%d%s(n int) int { return n + %d }\n\n",
				strings.ToUpper(w1[:1]), w1[1:], w2, w1, v, w2, j, strings.ToUpper(w1[:1])+w1[1:], i*j)
		}
		if i == secret {
			fmt.Fprintf(&b, "var deployToken = %q\n", laterToken)
		}
		p := filepath.Join(root, fmt.Sprintf("d%d", i%4), fmt.Sprintf("f%03d.go", i))
		write(t, p, b.String())
		paths = append(paths, p)
	}
	return paths
}

// laterQuery is the packs' query; laterAsked what the tests look up.
const laterQuery = "how does the server retry a checkout after a timeout"

var laterAsked = []string{"checkout", "timeout", "retry", "server", "payment", "ledger", "refund", "handles", "zebra"}

// packOnce packs root with idx (nil: none) under a small budget.
func packOnce(t testing.TB, root string, idx pack.FileIndex) *pack.Result {
	t.Helper()
	return packCtx(context.Background(), t, root, idx)
}

// packCtx is packOnce under ctx.
func packCtx(ctx context.Context, t testing.TB, root string, idx pack.FileIndex) *pack.Result {
	t.Helper()
	ws, err := collector.New(collector.Options{Roots: []string{root}, MaxFileSize: collector.DefaultMaxFileSize})
	if err != nil {
		t.Fatal(err)
	}
	e := pack.NewEngine(config.Default(), ws)
	if idx != nil {
		e.Index = idx
	}
	total, zero := 2000, 0
	r, err := e.Pack(ctx, pack.Request{Query: laterQuery, Paths: []string{root},
		Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// openSet opens the index of root in dir as a Set (the clock an hour on:
// the files are settled).
func openSet(t testing.TB, root, dir string) *Set {
	t.Helper()
	x, err := Open(root, Options{Dir: dir, Version: DefaultVersion(), now: later})
	if err != nil {
		t.Fatal(err)
	}
	return &Set{idx: []*Index{x}}
}

// lookups are the answers of s to Terms of laterAsked for each path.
func lookups(s *Set, paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		ft, ok := s.Terms(collector.FileRef{Abs: p, Info: fi}, laterAsked)
		if ok {
			out[p] = fmt.Sprint(ft.Length, ft.Counts)
		}
	}
	return out
}

// TestLaterSetSameIndex: a first pack with a LaterSet prints what a pack
// without an index prints, stores no term while it packs (the answer does
// not wait for them), and once closed its index answers every lookup as
// the index a plain Set writes during the pack; the redacted file is in
// neither; a warm pack then reads no term from the files.
func TestLaterSetSameIndex(t *testing.T) {
	root := t.TempDir()
	paths := makeGoTree(t, root, 120, 0, 17)
	none := packOnce(t, root, nil)
	if none.Stats.FilesRanked == 0 || none.Stats.FilesChunked >= none.Stats.FilesRanked {
		t.Fatalf("ranked %d, chunked %d: the tree does not take the file-first scan", none.Stats.FilesRanked, none.Stats.FilesChunked)
	}

	inlineDir, laterDir := t.TempDir(), t.TempDir()
	in := openSet(t, root, inlineDir)
	if r := packOnce(t, root, in); r.Content != none.Content {
		t.Fatal("the first pack with a Set differs from the pack without an index")
	}
	in.Close()

	ls := Later(openSet(t, root, laterDir))
	if r := packOnce(t, root, ls); r.Content != none.Content {
		t.Fatal("the first pack with a LaterSet differs from the pack without an index")
	}
	if got := lookups(ls.laterOf, paths); len(got) != 0 {
		t.Fatalf("%d files' terms were stored before the answer; want none until Close", len(got))
	}
	if err := ls.Close(); err != nil {
		t.Fatal(err)
	}

	want := lookups(openSet(t, root, inlineDir), paths)
	got := lookups(openSet(t, root, laterDir), paths)
	if len(want) != len(paths)-1 {
		t.Fatalf("the inline index answers %d files, want %d (all but the redacted one)", len(want), len(paths)-1)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("the LaterSet's index answers differently (-inline +later):\n%s", d)
	}
	if _, ok := got[paths[17]]; ok {
		t.Fatal("the redacted file's terms were stored")
	}

	warm := openSet(t, root, laterDir)
	lw := Later(warm)
	if lw.TermsLater() {
		t.Fatal("a LaterSet of a non-empty index takes its terms later; want only the first pack's")
	}
	if r := packOnce(t, root, lw); r.Content != none.Content {
		t.Fatal("the warm pack differs from the pack without an index")
	}
	if st := warm.Stats(); st.TermMisses != 1 || st.TermHits != int64(len(paths)-1) {
		t.Fatalf("warm pack: %d term hits, %d misses; want %d and 1 (the redacted file)", st.TermHits, st.TermMisses, len(paths)-1)
	}
}

const laterEnv = "ACODE_INDEX_TEST_LATER"

// TestLaterPackProcess is not a test: run by TestKillLaterPack as a
// separate process (laterEnv = root|dir), it packs the tree with a
// LaterSet (small spills: many segments) and closes it, editing a third
// of the files between rounds, until killed.
func TestLaterPackProcess(t *testing.T) {
	spec := os.Getenv(laterEnv)
	if spec == "" {
		return
	}
	f := strings.Split(spec, "|")
	root, dir := f[0], f[1]
	for r := 1; ; r++ {
		x, err := Open(root, Options{Dir: dir, Version: DefaultVersion(), now: later, spill: 300})
		if err != nil {
			t.Fatal(err)
		}
		ls := Later(&Set{idx: []*Index{x}})
		ls.first = true // every round takes its terms later (the index is not empty after the first)
		packOnce(t, root, ls)
		if err := ls.Close(); err != nil {
			t.Fatal(err)
		}
		makeGoTree(t, root, 40, r, -1)
		os.WriteFile(filepath.Join(dir, "round"), []byte(strconv.Itoa(r)), 0o644)
	}
}

// TestKillLaterPack kills a process whose packs write their index after
// the answer, at random moments; whatever it left answers every lookup it
// answers as an index written from the files as they are (none trusted
// half-written or stale), and the next first pack completes it.
func TestKillLaterPack(t *testing.T) {
	if testing.Short() {
		t.Skip("runs packs in a child process for a few seconds")
	}
	root, dir := t.TempDir(), t.TempDir()
	paths := makeGoTree(t, root, 120, 0, -1)
	kills := 0
	for round := 0; round < 5; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLaterPackProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%s", laterEnv, root, dir))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it writes, at a random moment of what follows.
		for deadline := time.Now().Add(time.Minute); len(segmentFiles(dir)) == 0 && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err != nil {
			kills++
		}
		checkLaterHonest(t, root, dir, paths)
	}
	if kills == 0 {
		t.Fatal("no writer was killed: the test did not exercise a kill")
	}
	ls := Later(openSet(t, root, dir))
	packOnce(t, root, ls)
	ls.Close()
	// A writer killed while it edited a file may have left it empty (a
	// pack skips it): the index answers what one written now answers.
	if got, want := checkLaterHonest(t, root, dir, paths); got != want || want < len(paths)-1 {
		t.Fatalf("after a complete pack the index answers %d files, an index written now %d (of %d)", got, want, len(paths))
	}
}

// checkLaterHonest checks that every lookup the index in dir answers is
// the one an index written now, from the files as they are, answers; it
// returns how many files each answers.
func checkLaterHonest(t *testing.T, root, dir string, paths []string) (got, want int) {
	t.Helper()
	fresh := t.TempDir()
	ref := openSet(t, root, fresh)
	packOnce(t, root, ref)
	ref.Close()
	wantOf := lookups(openSet(t, root, fresh), paths)
	s := openSet(t, root, dir)
	defer s.Close()
	answered := lookups(s, paths)
	for p, g := range answered {
		if w, ok := wantOf[p]; !ok || w != g {
			t.Errorf("%s: the index trusts %q, the files say %q", p, g, w)
		}
	}
	return len(answered), len(wantOf)
}

// TestLaterSetCancelled: a first pack whose context ends after its answer
// (SIGINT while the index is written) stores no term at Close — the job
// stops before reading — and the index then holds nothing a pack could
// trust wrongly; the next first pack writes it whole.
func TestLaterSetCancelled(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeGoTree(t, root, 100, 0, -1)
	ctx, cancel := context.WithCancel(context.Background())
	ls := Later(openSet(t, root, dir))
	packCtx(ctx, t, root, ls)
	cancel()
	done := make(chan error, 1)
	go func() { done <- ls.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return after the pack's context ended")
	}
	if got := lookups(openSet(t, root, dir), paths); len(got) != 0 {
		t.Fatalf("a cancelled job stored the terms of %d files", len(got))
	}
	ls = Later(openSet(t, root, dir))
	if !ls.TermsLater() {
		t.Fatal("the index left by a cancelled job is not empty: the next pack does not take its terms later")
	}
	packOnce(t, root, ls)
	ls.Close()
	if got, want := checkLaterHonest(t, root, dir, paths); got != want || got != len(paths) {
		t.Fatalf("after the next first pack the index answers %d files, an index written now %d (of %d)", got, want, len(paths))
	}
}
