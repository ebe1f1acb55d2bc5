package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// setKeys are the keys a map's walk puts for each file it reads: the
// chunking and the facts (pack/mapindex.go).
var setKeys = []string{"k1", "facts"}

// factsOf is the test's stand-in for a map's encoded facts: one chunk
// whose name is long, as encodeFacts' is.
func factsOf(content []byte) []chunker.Chunk {
	return []chunker.Chunk{{Name: strings.Repeat(string(content[:8]), 30)}}
}

// putSets puts the sets of the file at p a map's walk puts: its chunking,
// then its facts (no terms).
func putSets(t testing.TB, x *Index, p string) {
	t.Helper()
	fi := lstat(t, p)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	x.PutSet(p, fi, b, "k1", chunksOf(b))
	x.PutSet(p, fi, b, "facts", factsOf(b))
}

// statHits counts the files of paths whose sets x answers from their
// stat alone, as a warm map asks (StatSets), checking what it answers.
func statHits(t testing.TB, x *Index, paths []string) int {
	t.Helper()
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sets, ok := x.StatSets(p, lstat(t, p), setKeys)
		if !ok {
			continue
		}
		n++
		if d := cmp.Diff([][]chunker.Chunk{chunksOf(b), factsOf(b)}, sets, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: wrong sets (-want +got):\n%s", p, d)
		}
	}
	return n
}

// pendingSets are the paths x holds pending (not yet given to a spill).
func pendingSets(x *Index) map[string]bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := map[string]bool{}
	for p := range x.pending {
		out[p] = true
	}
	return out
}

// TestSetSpill: sets alone (a map's walk puts no terms) are written as
// segments once their pending bytes pass the bound, before any flush;
// what was pending at any time stays below the bound; every file is
// answered while pending, in flight or spilled, after the close's merge
// and after a reopen. Without the bound's seam the same puts stay
// pending (the default bound is far above them).
func TestSetSpill(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 200, 0)
	const bound = 8 << 10
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, setSpill: bound})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		putSets(t, x, p)
		x.mu.RLock()
		pb := x.pbytes
		x.mu.RUnlock()
		if pb >= bound {
			t.Fatalf("%d set bytes pending after a put, bound %d", pb, bound)
		}
	}
	if n := statHits(t, x, paths); n != 200 {
		t.Fatalf("before the spills are in: %d stat hits, want 200", n)
	}
	x.spilling.wait()
	if n := len(segmentFiles(dir)); n < 5 {
		t.Fatalf("%d segments written before any flush, want the sets spilled", n)
	}
	if n := statHits(t, x, paths); n != 200 {
		t.Fatalf("spilled: %d stat hits, want 200", n)
	}
	if _, ch := checkHonest(t, x, root); ch != 200 {
		t.Fatalf("spilled: %d chunk hits, want 200", ch)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(segmentFiles(dir)); n > maxSegments {
		t.Fatalf("%d segments after close, want them merged", n)
	}
	y := openTest(t, root, dir)
	if n := statHits(t, y, paths); n != 200 {
		t.Fatalf("reopened: %d stat hits, want 200", n)
	}

	dir2 := t.TempDir()
	z := openTest(t, root, dir2)
	for _, p := range paths {
		putSets(t, z, p)
	}
	z.spilling.wait()
	if n := len(segmentFiles(dir2)); n != 0 {
		t.Fatalf("default bound: %d segments before the flush", n)
	}
}

// TestSetSpillCrash: a process that dies mid-walk (never flushed nor
// closed) leaves the segments its spills wrote whole; a later open finds
// every file they hold and nothing of what was still pending, and a
// half-written file (a temporary file, or a segment cut short) is not
// read, and the next flush removes it.
func TestSetSpillCrash(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 150, 0)
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, setSpill: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		putSets(t, x, p)
	}
	x.spilling.wait()
	pending := pendingSets(x) // lost in the crash
	segs := segmentFiles(dir)
	if len(segs) == 0 || len(pending) == len(paths) {
		t.Fatalf("%d segments, %d of %d files pending: nothing spilled", len(segs), len(pending), len(paths))
	}
	// The crash: x is abandoned as it is; a writer killed mid-write left
	// a temporary file, and (as a hostile or broken disk would) a segment
	// cut short.
	whole, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".tmp-123.seg"), whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "ffffffffffffffff-1-1.seg") // named newest
	if err := os.WriteFile(cut, whole[:len(whole)/2], 0o600); err != nil {
		t.Fatal(err)
	}

	y := openTest(t, root, dir)
	if st := y.Stats(); st.Segments != len(segs) {
		t.Fatalf("reopened: %d segments open, want the %d whole ones", st.Segments, len(segs))
	}
	var spilled, lost []string
	for _, p := range paths {
		if pending[p] {
			lost = append(lost, p)
		} else {
			spilled = append(spilled, p)
		}
	}
	if n := statHits(t, y, spilled); n != len(spilled) {
		t.Fatalf("reopened: %d of the %d spilled files found", n, len(spilled))
	}
	if n := statHits(t, y, lost); n != 0 {
		t.Fatalf("reopened: %d of the files pending at the crash found", n)
	}
	if err := y.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(cut); !os.IsNotExist(err) {
		t.Fatalf("the segment cut short is still there after a flush (%v)", err)
	}
	x.Close()
}

// TestSetSpillBounded: a put waits while more than maxFlyingSpills
// spills' worth of sets are still being written (the walk cannot outrun
// the writer without bound), and goes on once they are written.
func TestSetSpillBounded(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	paths := makeTree(t, root, 200, 0)
	const bound = 4 << 10
	x, err := Open(root, Options{Dir: dir, Version: "test", now: later, setSpill: bound})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.spillSem <- struct{}{} // hold every spill before it writes
	held := true
	defer func() {
		if held {
			<-x.spillSem
		}
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, p := range paths {
			putSets(t, x, p)
		}
	}()
	// A put passes the bound by at most one batch (the spill it makes)
	// and one file's sets; the puts never all return.
	limit := maxFlyingSpills*bound + bound + 2<<10
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		x.mu.RLock()
		fly := x.flyBytes
		x.mu.RUnlock()
		if fly > limit {
			t.Fatalf("%d set bytes held by spills that cannot write, limit %d", fly, limit)
		}
		select {
		case <-done:
			t.Fatal("every put returned while no spill could write")
		default:
		}
	}
	held = false
	<-x.spillSem
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the puts did not go on once the spills were written")
	}
	if n := statHits(t, x, paths); n != 200 {
		t.Fatalf("%d stat hits, want 200", n)
	}
}
