package pack

import (
	"io/fs"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// tableIndex answers Terms from term tables by path, when the asked stat
// is the one it holds, and counts the questions.
type tableIndex struct {
	asked   int
	forgets int
	tables  map[string]map[string]int
	sizes   map[string]int64
}

func (x *tableIndex) Terms(f collector.FileRef, terms []string) (FileTerms, bool) {
	x.asked++
	tab, ok := x.tables[f.Abs]
	if !ok || x.sizes[f.Abs] != f.Info.Size() {
		return FileTerms{}, false
	}
	counts, n := map[string]int{}, 0
	for _, c := range tab {
		n += c
	}
	for _, t := range terms {
		if c, ok := tab[t]; ok {
			counts[t] = c
		}
	}
	return FileTerms{Length: n, Counts: counts}, true
}
func (x *tableIndex) PutTerms(collector.FileRef, []byte, map[string]int) {}
func (x *tableIndex) Chunks(collector.FileRef, []byte, string) ([]chunker.Chunk, bool) {
	return nil, false
}
func (x *tableIndex) PutChunks(collector.FileRef, []byte, string, []chunker.Chunk) {}
func (x *tableIndex) Forget(string)                                                { x.forgets++ }

// statInfo is a file's stat for a FileRef.
type statInfo struct {
	size  int64
	mtime time.Time
}

func (s statInfo) Name() string       { return "f" }
func (s statInfo) Size() int64        { return s.size }
func (s statInfo) Mode() fs.FileMode  { return 0o644 }
func (s statInfo) ModTime() time.Time { return s.mtime }
func (s statInfo) IsDir() bool        { return false }
func (s statInfo) Sys() any           { return nil }

// TestKeptTerms: a KeptTerms memo gives the index's own answers; it asks
// the index again for a term or a file it has not answered, for a file
// whose size or mtime changed and for a forgotten one; its bound empties
// it; a SetIndex stays one.
func TestKeptTerms(t *testing.T) {
	inner := &tableIndex{
		tables: map[string]map[string]int{"/a": {"idle": 2, "timeout": 1, "close": 3}, "/b": {"close": 1}},
		sizes:  map[string]int64{"/a": 10, "/b": 20},
	}
	idx := KeptTerms(inner)
	old := time.Now().Add(-time.Hour)
	ref := func(abs string, size int64, mtime time.Time) collector.FileRef {
		return collector.FileRef{Abs: abs, Path: abs[1:], Info: statInfo{size, mtime}}
	}
	a, b := ref("/a", 10, old), ref("/b", 20, old)
	asked := func(what string, f collector.FileRef, terms []string, want bool) {
		t.Helper()
		before := inner.asked
		got, gotOK := idx.Terms(f, terms)
		if was := inner.asked > before; was != want {
			t.Errorf("%s: the index asked %v, want %v", what, was, want)
		}
		inner.asked = before
		ref, refOK := inner.Terms(f, terms)
		inner.asked = before
		if gotOK != refOK || got.Length != ref.Length || !maps.Equal(got.Counts, ref.Counts) {
			t.Errorf("%s: Terms = %v %v, the index's = %v %v", what, got, gotOK, ref, refOK)
		}
	}
	q := []string{"idle", "timeout", "missing"}
	asked("first", a, q, true)
	asked("again", a, q, false)
	asked("a subset", a, []string{"timeout"}, false)
	asked("a new term", a, []string{"idle", "close"}, true)
	asked("both known", a, []string{"close", "missing"}, false)
	asked("another file", b, q, true)
	asked("another file again", b, q, false)
	asked("size changed", ref("/a", 11, old), q, true) // the index misses
	asked("size back", a, q, false)                    // the stat the index answered for
	asked("mtime changed", ref("/a", 10, time.Now()), q, true)
	asked("unknown file", ref("/c", 1, old), q, true)
	asked("unknown again", ref("/c", 1, old), q, true) // misses are not kept
	asked("b still kept", b, q, false)
	idx.Forget("/b")
	if inner.forgets != 1 {
		t.Errorf("the index forgot %d times, want 1", inner.forgets)
	}
	asked("forgotten", b, q, true)
	if KeptTermsHits(idx) != 6 {
		t.Errorf("KeptTermsHits = %d, want 6", KeptTermsHits(idx))
	}

	kt := idx.(*keptTerms)
	kt.cells = keptTermsMaxCells + 1
	asked("refilled after the bound", b, []string{"close", "new"}, true) // keep empties it, then keeps b
	if len(kt.files) != 1 || kt.cells > 10 {
		t.Errorf("after the bound: %d files, %d cells; want 1 and a few", len(kt.files), kt.cells)
	}
	asked("a after the bound", a, q, true)

	// termRow: a KeptTerms writes the row the index's answer gives, from
	// the index and then from memory; a miss leaves the row alone.
	idx = KeptTerms(inner)
	index := map[string]int{"idle": 0, "timeout": 1, "missing": 2}
	for _, what := range []string{"asked", "kept"} {
		want, got := make([]uint16, 3), make([]uint16, 3)
		if !termRow(inner, a, q, index, want) || !termRow(idx, a, q, index, got) || !slices.Equal(got, want) || want[0] != 2 {
			t.Errorf("%s: termRow = %v, the index's %v", what, got, want)
		}
	}
	if hits := KeptTermsHits(idx); hits != 1 {
		t.Errorf("termRow hits = %d, want 1", hits)
	}
	row := []uint16{7, 7, 7}
	if termRow(idx, ref("/c", 1, old), q, index, row) || !slices.Equal(row, []uint16{7, 7, 7}) {
		t.Errorf("termRow of an unknown file: %v", row)
	}

	if _, ok := KeptTerms(&setRefusingIndex{}).(SetIndex); !ok {
		t.Error("KeptTerms of a SetIndex is not a SetIndex")
	}
	if _, ok := KeptTerms(inner).(SetIndex); ok {
		t.Error("KeptTerms of a plain index claims to keep sets")
	}
}
