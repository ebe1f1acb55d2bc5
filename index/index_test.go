package index

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/pack"
)

// TestMain keeps the per-user key of the tests out of the user's state
// directory (a writer process started by a test inherits its parent's).
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "" {
		d, err := os.MkdirTemp("", "index-state-")
		if err != nil {
			panic(err)
		}
		os.Setenv("XDG_STATE_HOME", d)
		code := m.Run()
		os.RemoveAll(d)
		os.Exit(code)
	}
	os.Exit(m.Run())
}

func testKeys(t testing.TB) *keys {
	t.Helper()
	k, err := loadKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// later is a clock an hour ahead, so that files written by a test are not
// racy when put.
func later() time.Time { return time.Now().Add(time.Hour) }

func openTest(t testing.TB, root, dir string) *Index {
	t.Helper()
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// termsOf is the test's term table: words split at spaces.
func termsOf(content []byte) map[string]int {
	m := map[string]int{}
	for _, w := range strings.Fields(string(content)) {
		m[w]++
	}
	return m
}

// chunksOf cuts content into one chunk per line.
func chunksOf(content []byte) []chunker.Chunk {
	var out []chunker.Chunk
	start, line := 0, 1
	for i, c := range content {
		if c == '\n' {
			out = append(out, chunker.Chunk{StartLine: line, EndLine: line, StartByte: start, EndByte: i + 1, Kind: "lines", Name: fmt.Sprintf("n%d", line), Tokens: i + 1 - start, TopLevel: line%2 == 0})
			start, line = i+1, line+1
		}
	}
	return out
}

func write(t testing.TB, p, content string) fs.FileInfo {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return lstat(t, p)
}

func lstat(t testing.TB, p string) fs.FileInfo {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// put stores the terms and chunks of the file at p.
func put(t testing.TB, x *Index, p string) {
	t.Helper()
	fi := lstat(t, p) // stat before read, as the walk does
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	x.PutTerms(p, fi, b, termsOf(b))
	x.PutChunks(p, fi, b, "k1", chunksOf(b))
}

// asked is what the tests ask for.
var asked = []string{"alpha", "beta", "gamma", "delta", "zeta"}

// wantTerms is what Terms must say for content.
func wantTerms(content []byte, terms []string) (int, map[string]int) {
	all := termsOf(content)
	n := 0
	for _, c := range all {
		n += c
	}
	var m map[string]int
	for _, t := range terms {
		if c := all[t]; c > 0 {
			if m == nil {
				m = map[string]int{}
			}
			m[t] = c
		}
	}
	return n, m
}

// checkHonest looks up every file under root and fails on any hit that
// disagrees with the file's current content; it returns the number of
// term and chunk hits.
func checkHonest(t testing.TB, x *Index, root string) (termHits, chunkHits int) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fi := lstat(t, p)
		if n, m, ok := x.Terms(p, fi, asked); ok {
			termHits++
			wn, wm := wantTerms(b, asked)
			if n != wn || !cmp.Equal(m, wm) {
				t.Errorf("%s: stale terms trusted: length %d counts %v, want %d %v", p, n, m, wn, wm)
			}
		}
		if cs, ok := x.Chunks(p, fi, b, "k1"); ok {
			chunkHits++
			if d := cmp.Diff(chunksOf(b), cs, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s: stale chunks trusted (-want +got):\n%s", p, d)
			}
		}
		return nil
	})
	return termHits, chunkHits
}

func content(i, v int) string {
	words := []string{"alpha", "beta", "gamma", "delta", "zeta", "eta", "theta"}
	var b strings.Builder
	for j := 0; j < 5+i%7; j++ {
		fmt.Fprintf(&b, "%s %s v%d w%d\n", words[(i+j)%7], words[(i*j+v)%7], v, j)
	}
	return b.String()
}

func makeTree(t testing.TB, root string, n, v int) []string {
	var paths []string
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("d%d", i%5), fmt.Sprintf("f%03d.txt", i))
		write(t, p, content(i, v))
		paths = append(paths, p)
	}
	return paths
}

func TestRoundTrip(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 40, 0)
	x := openTest(t, root, dir)
	for _, p := range paths {
		put(t, x, p)
	}
	if th, ch := checkHonest(t, x, root); th != 40 || ch != 40 {
		t.Fatalf("pending: %d term hits, %d chunk hits, want 40 each", th, ch)
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	if th, ch := checkHonest(t, x, root); th != 40 || ch != 40 {
		t.Fatalf("flushed: %d term hits, %d chunk hits, want 40 each", th, ch)
	}
	x.Close()
	y := openTest(t, root, dir)
	if th, ch := checkHonest(t, y, root); th != 40 || ch != 40 {
		t.Fatalf("reopened: %d term hits, %d chunk hits, want 40 each", th, ch)
	}
	if _, ok := y.Chunks(paths[0], lstat(t, paths[0]), []byte(content(0, 0)), "other key"); ok {
		t.Error("chunks of another key were returned")
	}
	// Another version of the splitter or chunker invalidates every segment.
	z, err := Open(root, Options{Dir: dir, Version: "test2", now: later})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	if th, ch := checkHonest(t, z, root); th != 0 || ch != 0 {
		t.Fatalf("other version: %d term hits, %d chunk hits, want none", th, ch)
	}
}

// fakeInfo is a stat result a test forges: the stat of one version of a
// file with the size of another.
type fakeInfo struct{ fs.FileInfo }

func TestStaleAfterEdit(t *testing.T) {
	root := t.TempDir()
	x := openTest(t, root, t.TempDir())
	p := filepath.Join(root, "a.txt")
	old := "alpha beta gamma\n"
	write(t, p, old)
	mt := time.Now().Add(-time.Hour)
	os.Chtimes(p, mt, mt)
	put(t, x, p)
	x.Flush()
	oldInfo := lstat(t, p)
	if th, _ := checkHonest(t, x, root); th != 1 {
		t.Fatal("no hit before the edit")
	}

	t.Run("same size, new mtime", func(t *testing.T) {
		write(t, p, "alpha alpha zeta\n") // same length
		if th, ch := checkHonest(t, x, root); th != 0 || ch != 0 {
			t.Fatalf("%d term hits, %d chunk hits after an edit, want none", th, ch)
		}
	})
	t.Run("same size and mtime, new content", func(t *testing.T) {
		write(t, p, "delta delta beta\n")
		os.Chtimes(p, mt, mt) // the mtime of the indexed version
		if lstat(t, p).ModTime() != oldInfo.ModTime() || lstat(t, p).Size() != oldInfo.Size() {
			t.Fatal("test setup: stat differs")
		}
		if th, ch := checkHonest(t, x, root); th != 0 || ch != 0 {
			t.Fatalf("%d term hits, %d chunk hits, want none (ctime changed)", th, ch)
		}
		// Even a stat that matches in every field does not get the old
		// chunks for new content: they are keyed by content hash.
		b, _ := os.ReadFile(p)
		if _, ok := x.Chunks(p, oldInfo, b, "k1"); ok {
			t.Fatal("chunks of the old content were returned for new content")
		}
		if cs, ok := x.Chunks(p, oldInfo, []byte(old), "k1"); !ok || len(cs) != 1 {
			t.Fatal("chunks of the indexed content missed")
		}
	})
	t.Run("put again", func(t *testing.T) {
		put(t, x, p)
		x.Flush()
		if th, ch := checkHonest(t, x, root); th != 1 || ch != 1 {
			t.Fatalf("%d term hits, %d chunk hits after put, want 1 each", th, ch)
		}
	})
}

func TestRacyEntryNotTrusted(t *testing.T) {
	root := t.TempDir()
	x, err := Open(root, Options{Dir: t.TempDir(), Version: "test"}) // real clock
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	p := filepath.Join(root, "a.txt")
	write(t, p, "alpha beta\n")
	put(t, x, p)
	x.Flush()
	if _, _, ok := x.Terms(p, lstat(t, p), asked); ok {
		t.Fatal("terms of a file put while it was changing were trusted on its stat")
	}
	if _, ok := x.Chunks(p, lstat(t, p), []byte("alpha beta\n"), "k1"); !ok {
		t.Fatal("chunks are keyed by content and should hit")
	}
}

func TestForget(t *testing.T) {
	root := t.TempDir()
	x := openTest(t, root, t.TempDir())
	p := filepath.Join(root, "a.txt")
	write(t, p, "alpha beta\n")
	put(t, x, p)
	x.Flush()
	x.Forget(p)
	if _, _, ok := x.Terms(p, lstat(t, p), asked); ok {
		t.Fatal("a forgotten path hit")
	}
	put(t, x, p)
	if _, _, ok := x.Terms(p, lstat(t, p), asked); !ok {
		t.Fatal("a path put again after Forget missed")
	}
}

func TestRename(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 20, 0)
	x := openTest(t, root, dir)
	for _, p := range paths {
		put(t, x, p)
	}
	x.Flush()
	moved := filepath.Join(root, "moved.txt")
	if err := os.Rename(paths[3], moved); err != nil {
		t.Fatal(err)
	}
	// Same inode, size and times, new path: no entry until it is put.
	if _, _, ok := x.Terms(moved, lstat(t, moved), asked); ok {
		t.Fatal("renamed file hit under its new path")
	}
	// A new file at the old path, same size: the old entry is not trusted.
	write(t, paths[3], strings.Repeat("z", int(lstat(t, moved).Size())))
	th, _ := checkHonest(t, x, root)
	if th != 19 {
		t.Fatalf("%d term hits, want 19", th)
	}
	// After a merge the old path's entry is gone and the new one is there.
	os.Remove(paths[3])
	put(t, x, moved)
	x.Flush()
	x.mu.Lock()
	err := x.compactLocked(true)
	x.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if st := x.Stats(); st.Segments != 1 || st.Files != 20 {
		t.Fatalf("after compaction: %+v, want 1 segment of 20 files", st)
	}
	if th, ch := checkHonest(t, x, root); th != 20 || ch != 20 {
		t.Fatalf("%d term hits, %d chunk hits, want 20 each", th, ch)
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCheckoutOtherBranch(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	git(t, root, "init", "-q")
	paths := makeTree(t, root, 60, 0)
	git(t, root, "add", ".")
	git(t, root, "commit", "-qm", "one")
	git(t, root, "checkout", "-qb", "other")
	changed := map[string]bool{}
	for i, p := range paths {
		if i%3 == 0 {
			write(t, p, content(i, 1)) // same line count; often the same size
			changed[p] = true
		}
	}
	os.Remove(paths[1])
	write(t, filepath.Join(root, "new.txt"), "alpha new\n")
	git(t, root, "add", "-A")
	git(t, root, "commit", "-qm", "two")
	git(t, root, "checkout", "-q", "main")

	x := openTest(t, root, dir)
	for _, p := range paths {
		put(t, x, p)
	}
	x.Flush()
	git(t, root, "checkout", "-q", "other")
	os.RemoveAll(filepath.Join(root, ".git")) // only the work tree is asked
	th, _ := checkHonest(t, x, root)
	want := 60 - 1 - len(changed) // every file git rewrote misses
	if th != want {
		t.Fatalf("%d term hits after checkout, want %d (unchanged files)", th, want)
	}
	for p := range changed {
		if _, _, ok := x.Terms(p, lstat(t, p), asked); ok {
			t.Errorf("%s: changed by the checkout, still hit", p)
		}
	}
}

// corruptions damage a segment file.
var corruptions = []struct {
	name string
	fn   func(b []byte) []byte
}{
	{"truncated to the header", func(b []byte) []byte { return b[:headerSize] }},
	{"truncated by one byte", func(b []byte) []byte { return b[:len(b)-1] }},
	{"truncated to half", func(b []byte) []byte { return b[:len(b)/2] }},
	{"empty", func(b []byte) []byte { return nil }},
	{"garbage", func(b []byte) []byte { return []byte(strings.Repeat("garbage!", 100)) }},
}

func flipAt(frac float64) func([]byte) []byte {
	return func(b []byte) []byte {
		i := headerSize + int(float64(len(b)-headerSize-1)*frac)
		b[i] ^= 0x55
		return b
	}
}

func TestCorruptSegment(t *testing.T) {
	cases := corruptions
	for i := 0; i < 40; i++ {
		f := float64(i) / 40
		cases = append(cases, struct {
			name string
			fn   func(b []byte) []byte
		}{fmt.Sprintf("byte flipped at %.3f", f), flipAt(f)})
	}
	cases = append(cases, struct {
		name string
		fn   func(b []byte) []byte
	}{"header byte flipped", func(b []byte) []byte { b[20] ^= 1; return b }})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root, dir := t.TempDir(), t.TempDir()
			paths := makeTree(t, root, 30, 0)
			x := openTest(t, root, dir)
			for _, p := range paths {
				put(t, x, p)
			}
			x.Close()
			segs := segmentFiles(dir)
			if len(segs) != 1 {
				t.Fatalf("%d segments", len(segs))
			}
			b, _ := os.ReadFile(segs[0])
			if err := os.WriteFile(segs[0], tc.fn(b), 0o644); err != nil {
				t.Fatal(err)
			}
			y := openTest(t, root, dir)
			checkHonest(t, y, root) // no wrong hit, whatever survived
			for _, p := range paths {
				put(t, y, p)
			}
			y.Flush()
			if th, ch := checkHonest(t, y, root); th != 30 || ch != 30 {
				t.Fatalf("rebuilt: %d term hits, %d chunk hits, want 30 each", th, ch)
			}
		})
	}
}

func TestCompactionRemovesCorruptAndTemp(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 10, 0)
	x := openTest(t, root, dir)
	for i := 0; i < maxSegments+2; i++ {
		put(t, x, paths[i%len(paths)])
		x.mu.Lock()
		x.flushLocked(false)
		x.mu.Unlock()
	}
	os.WriteFile(filepath.Join(dir, "0000000000000000-1-1.seg"), []byte("torn"), 0o644)
	tmp := filepath.Join(dir, ".tmp-1.seg")
	os.WriteFile(tmp, []byte("half"), 0o644)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(tmp, old, old)
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	names := segmentFiles(dir)
	if len(names) != 1 {
		t.Fatalf("segments after compaction: %v", names)
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("stale temporary file left")
	}
	if th, _ := checkHonest(t, x, root); th != 10 {
		t.Fatalf("%d hits, want 10", th)
	}
}

func TestCapEvictsOldest(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 50, 0)
	clock := time.Now().Add(time.Hour)
	x, err := Open(root, Options{Dir: dir, Version: "test", MaxBytes: 4000, now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for i, p := range paths {
		clock = clock.Add(time.Second * time.Duration(i))
		put(t, x, p)
		x.mu.Lock()
		x.flushLocked(false)
		x.mu.Unlock()
	}
	x.mu.Lock()
	x.compactLocked(true)
	x.mu.Unlock()
	st := x.Stats()
	if st.Files == 0 || st.Files >= 50 {
		t.Fatalf("files after a capped merge: %d", st.Files)
	}
	// The newest entries stay.
	if _, _, ok := x.Terms(paths[49], lstat(t, paths[49]), asked); !ok {
		t.Error("the newest entry was evicted")
	}
	if _, _, ok := x.Terms(paths[0], lstat(t, paths[0]), asked); ok {
		t.Error("the oldest entry survived the cap")
	}
	checkHonest(t, x, root)
}

func TestSpillAndMerge(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 200, 0)
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, spill: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		put(t, x, p)
	}
	if st := x.Stats(); st.Segments < 5 {
		t.Fatalf("spilled segments: %d", st.Segments)
	}
	if th, ch := checkHonest(t, x, root); th != 200 || ch != 200 {
		t.Fatalf("%d/%d hits", th, ch)
	}
	x.Close()
	if n := len(segmentFiles(dir)); n > maxSegments {
		t.Fatalf("%d segments after close", n)
	}
	y := openTest(t, root, dir)
	if th, ch := checkHonest(t, y, root); th != 200 || ch != 200 {
		t.Fatalf("after merge: %d/%d hits", th, ch)
	}
}

func TestDirUsesUserCache(t *testing.T) {
	c := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", c)
	d, err := Dir("/some/root")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d, filepath.Join(c, "acode-lsp", "index")+string(filepath.Separator)) {
		t.Fatalf("Dir = %s, want under %s", d, c)
	}
	d2, _ := Dir("/some/other")
	if d == d2 {
		t.Fatal("two roots share a directory")
	}
	keys := []string{filepath.Base(d), filepath.Base(d2)}
	sort.Strings(keys)
}

// TestSameHashAddsUp: two terms of one file under one 64-bit hash count as
// one term (the writer adds them up; postings stay one per file).
func TestSameHashAddsUp(t *testing.T) {
	k := testKeys(t)
	h := k.termHash("alpha")
	e := &entry{path: "/r/a", st: stat{size: 1}, flags: flagTerms, terms: []posting{{Hash: h, Count: 2}, {Hash: k.termHash("beta"), Count: 1}, {Hash: h, Count: 3}}}
	name, err := writeSegment(t.TempDir(), k, 7, []*entry{e}, batchTerms([]*entry{e}))
	if err != nil {
		t.Fatal(err)
	}
	s, err := openSegment(name, k, 7)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	l, err := s.term(h)
	if err != nil || !cmp.Equal(l, []fileCount{{0, 5}}, cmp.AllowUnexported(fileCount{})) {
		t.Fatalf("postings of alpha: %v, %v; want file 0 count 5", l, err)
	}
}

// TestPutTermHashes: terms put already hashed (the pack's scan) are found
// as PutTerms' are, pending, flushed and reopened; a file whose text holds
// a secret is not stored.
func TestPutTermHashes(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 30, 0)
	secret := write(t, filepath.Join(root, "cfg.txt"), "alpha\npassword = \"hunter2-hunter2-Zq9\"\n")
	x := openTest(t, root, dir)
	putHashed := func(p string, fi fs.FileInfo) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var hs []pack.TermHash
		for term, n := range termsOf(b) {
			hs = append(hs, pack.TermHash{Hash: x.TermHash([]byte(term)), Count: uint32(n)})
		}
		x.PutTermHashes(p, fi, b, hs)
	}
	for _, p := range paths {
		putHashed(p, lstat(t, p))
	}
	putHashed(filepath.Join(root, "cfg.txt"), secret)
	if th, _ := checkHonest(t, x, root); th != 30 {
		t.Fatalf("pending: %d term hits, want 30", th)
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	x.Close()
	y := openTest(t, root, dir)
	if th, _ := checkHonest(t, y, root); th != 30 {
		t.Fatalf("reopened: %d term hits, want 30", th)
	}
	if _, _, ok := y.Terms(filepath.Join(root, "cfg.txt"), secret, asked); ok {
		t.Fatal("the terms of a file holding a secret were stored")
	}
}

// TestSpillInFlightVisible: entries a spill is still writing are found
// (the scan goes on while the segment is written), Forget makes them miss,
// and they are in segments once Flush returns.
func TestSpillInFlightVisible(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 60, 0)
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, spill: 50})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.spillSem <- struct{}{} // hold every spill before it writes
	for _, p := range paths {
		put(t, x, p)
	}
	x.mu.RLock()
	flying := len(x.flying)
	x.mu.RUnlock()
	if flying == 0 {
		t.Fatal("no spill in flight")
	}
	if th, ch := checkHonest(t, x, root); th != 60 || ch != 60 {
		t.Fatalf("in flight: %d term hits, %d chunk hits, want 60 each", th, ch)
	}
	x.Forget(paths[0])
	if _, _, ok := x.Terms(paths[0], lstat(t, paths[0]), asked); ok {
		t.Fatal("a forgotten entry in flight was trusted")
	}
	<-x.spillSem
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(segmentFiles(dir)); n == 0 {
		t.Fatal("no segment after the spills and a flush")
	}
	if th, _ := checkHonest(t, x, root); th != 59 {
		t.Fatalf("written: %d term hits, want 59", th)
	}
}

// TestSpillWhileFlushing: puts that spill while another goroutine flushes
// (a server's timed flush during a pack) lose nothing and never deadlock
// (run with -race).
func TestSpillWhileFlushing(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 120, 0)
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, spill: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	done := make(chan struct{})
	flushed := make(chan struct{})
	go func() {
		defer close(flushed)
		for {
			select {
			case <-done:
				return
			default:
				if err := x.Flush(); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(paths); i += 4 {
				put(t, x, paths[i])
			}
		}()
	}
	wg.Wait()
	close(done)
	select {
	case <-flushed:
	case <-time.After(30 * time.Second):
		t.Fatal("flush did not return")
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	if th, ch := checkHonest(t, x, root); th != 120 || ch != 120 {
		t.Fatalf("%d term hits, %d chunk hits, want 120 each", th, ch)
	}
}
