package pack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// mapCutTree writes a tree of n Go files of alike functions, each file
// calling into the next and all into f000.go (so the map has an order),
// and returns the engine over it.
func mapCutTree(t *testing.T, n int) (*Engine, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		b.WriteString("package gen\n\n")
		for j := 0; j < 6; j++ {
			fmt.Fprintf(&b, "// Step%d_%d is step %d of file %d.\nfunc Step%d_%d(x int) int {\n\ty := x * %d\n\treturn Step%d_%d(y) + Step0_0(y) + %d\n}\n\n", i, j, j, i, i, j, i+j, (i+1)%n, j, i*j)
		}
		writeFile(t, filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(b.String()))
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(config.Default(), ws), root
}

// TestMapCutWithinLimit: a map of a tree with more chunk candidates than
// maxCandidates packs (keeping the chunks of its most central files, at
// most the limit, and saying so), and packs the same text as without the
// limit when the files it leaves out are beyond the budget's reach; a
// query pack over the same limit still fails with maxCandidates.
func TestMapCutWithinLimit(t *testing.T) {
	const files = 2 * mapCutMinFiles
	e, root := mapCutTree(t, files)
	saved := limits
	t.Cleanup(func() { limits = saved })
	total := 3000
	zero := 0
	req := Request{Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}

	full, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatalf("map without a lowered limit: %v", err)
	}
	chunks := full.Stats.Chunks
	if chunks < files {
		t.Fatalf("the tree has %d chunks, want at least one a file (%d)", chunks, files)
	}
	for _, w := range full.Warnings {
		if strings.Contains(w, "beyond this budget's reach") {
			t.Errorf("a map within the limit was cut: %q", w)
		}
	}

	for _, limit := range []int64{int64(chunks) - 1, int64(chunks) * 2 / 3} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			limits = saved
			limits.candidates = limit
			cut, err := e.Pack(context.Background(), req, nil, nil)
			if err != nil {
				t.Fatalf("map over %d chunk candidates with a limit of %d: %v", chunks, limit, err)
			}
			if int64(cut.Stats.Candidates) > limit {
				t.Errorf("%d candidates kept, over the limit of %d", cut.Stats.Candidates, limit)
			}
			said := false
			for _, w := range cut.Warnings {
				said = said || strings.Contains(w, "beyond this budget's reach")
			}
			if !said {
				t.Errorf("the cut map does not say it was cut: %q", cut.Warnings)
			}
			if cut.Content != full.Content || cut.TokenCount != full.TokenCount {
				t.Errorf("the cut map packs %d tokens, the whole map %d; texts differ:\n--- cut\n%s\n--- whole\n%s", cut.TokenCount, full.TokenCount, cut.Content, full.Content)
			}
		})
	}

	// A query pack: over the limit by one chunk, it fails as before.
	limits = saved
	q := req
	q.Query = "Step3 of file"
	qres, err := e.Pack(context.Background(), q, nil, nil)
	if err != nil {
		t.Fatalf("query pack: %v", err)
	}
	for _, limit := range []int64{int64(qres.Stats.Chunks), int64(qres.Stats.Chunks) - 1} {
		limits.candidates = limit
		_, err = e.Pack(context.Background(), q, nil, nil)
		var de *Error
		over := limit < int64(qres.Stats.Chunks)
		if failed := errors.As(err, &de) && de.Code == errcode.PackFailed && de.Data["limit"] == "maxCandidates"; failed != over || (!over && err != nil) {
			t.Errorf("query pack of %d chunks with a limit of %d: error %v; want maxCandidates only over the limit", qres.Stats.Chunks, limit, err)
		}
	}

	// A limit below the chunks of the most central file: nothing to keep.
	limits = saved
	limits.candidates = 1
	_, err = e.Pack(context.Background(), req, nil, nil)
	var de *Error
	if !errors.As(err, &de) || de.Data["limit"] != "maxCandidates" {
		t.Errorf("map with a limit of 1: error %v; want maxCandidates", err)
	}
}

// TestMapCutBeforeItems: a map over the limit decides the files it keeps
// before making items (mapCutAhead), so chunk makes items only for them —
// at most the limit — while the stats still count every chunk and the
// map is the one rank uses.
func TestMapCutBeforeItems(t *testing.T) {
	const files = 2 * mapCutMinFiles
	e, root := mapCutTree(t, files)
	saved := limits
	t.Cleanup(func() { limits = saved })
	total, zero := 3000, 0
	req := Request{Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	full, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	limits.candidates = int64(full.Stats.Chunks) * 2 / 3
	p := &pipeline{e: e, req: req, ctx: context.Background(), progress: func(string, int) {}, start: time.Now()}
	if err := p.resolve(); err != nil {
		t.Fatal(err)
	}
	srcs, err := p.collect(nil)
	if err != nil {
		t.Fatal(err)
	}
	items, err := p.chunk(srcs)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(items)) > limits.candidates || len(items) == 0 {
		t.Errorf("chunk made %d items of %d chunks with a limit of %d: want only the kept files' (at most the limit)", len(items), full.Stats.Chunks, limits.candidates)
	}
	if p.stats.Chunks != full.Stats.Chunks {
		t.Errorf("stats count %d chunks, want all %d", p.stats.Chunks, full.Stats.Chunks)
	}
	if p.repoMap == nil {
		t.Fatal("chunk computed no map ahead of the items")
	}
	kept := map[string]bool{}
	for _, it := range items {
		kept[it.Path] = true
	}
	for i, path := range p.repoMap.order {
		if i < len(kept) != kept[path] {
			t.Fatalf("file %s (#%d in map order) kept=%v: the kept files are not the map's first %d", path, i, kept[path], len(kept))
		}
	}
	if m := p.mapOf(items); m != p.repoMap {
		t.Error("rank would compute the map again from the kept items")
	}
}

// memSetIndex is a memIndex that also keeps sets (SetIndex), keyed by
// path and stat like its chunks: a map answers files from it by stat.
type memSetIndex struct {
	*memIndex
	sets map[string][]chunker.Chunk
	hits int
}

func newMemSetIndex() *memSetIndex {
	return &memSetIndex{memIndex: newMemIndex(), sets: map[string][]chunker.Chunk{}}
}

func (m *memSetIndex) PutSet(f collector.FileRef, content []byte, key string, set []chunker.Chunk) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sets[statKey(f)+"\x00"+key] = set
}

func (m *memSetIndex) Set(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sets[statKey(f)+"\x00"+key]
	return s, ok
}

func (m *memSetIndex) StatSets(f collector.FileRef, keys []string) ([][]chunker.Chunk, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([][]chunker.Chunk, len(keys))
	for i, k := range keys {
		s, ok := m.sets[statKey(f)+"\x00"+k]
		if !ok {
			s, ok = m.chunks[statKey(f)+"\x00"+k]
		}
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	m.hits++
	return out, true
}

// TestMapCutWithIndex: a map cut to its limit packs the same text with an
// index, cold and warm (files answered by their stat, unread), as
// without one.
func TestMapCutWithIndex(t *testing.T) {
	e, root := mapCutTree(t, 2*mapCutMinFiles)
	saved := limits
	t.Cleanup(func() { limits = saved })
	total := 3000
	zero := 0
	req := Request{Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	full, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	limits.candidates = int64(full.Stats.Chunks) / 2
	none, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatalf("cut map without an index: %v", err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e = NewEngine(config.Default(), ws) // a fresh chunk cache: chunks go to the index
	idx := newMemSetIndex()
	e.Index = idx
	for _, round := range []string{"cold", "warm"} {
		res, err := e.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatalf("%s cut map with an index: %v", round, err)
		}
		if res.Content != none.Content || !slices.Equal(res.Warnings, none.Warnings) {
			t.Errorf("%s: the cut map with an index differs from the one without:\n%s\n---\n%s\n%q\n%q", round, res.Content, none.Content, res.Warnings, none.Warnings)
		}
	}
	if idx.hits < mapCutMinFiles {
		t.Errorf("the warm map answered %d files from the index, want most of %d", idx.hits, 2*mapCutMinFiles)
	}
}
