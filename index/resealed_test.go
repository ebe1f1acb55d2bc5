package index

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/pack"
)

// TestResealedLyingChunks: a segment sealed with the user's key (MAC,
// CRCs: what someone holding the key can write) whose chunk sets for a
// file claim lines the file does not have. A pack with that index is the
// pack without an index, byte for byte, and no included item claims a
// line past the file's end.
func TestResealedLyingChunks(t *testing.T) {
	root := t.TempDir()
	var src strings.Builder
	src.WriteString("package cart\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&src, "// Checkout step %d.\nfunc Step%d() int { return %d }\n\n", i, i, i)
	}
	a := filepath.Join(root, "cart.go")
	write(t, a, src.String())
	write(t, filepath.Join(root, "other.go"), "package cart\n\nfunc other() {}\n")
	lines := strings.Count(src.String(), "\n")
	time.Sleep(racyWindow + 100*time.Millisecond) // entries of settled files

	ws, err := collector.New(collector.Options{Roots: []string{root}, MaxFileSize: collector.DefaultMaxFileSize})
	if err != nil {
		t.Fatal(err)
	}
	run := func(idx pack.FileIndex) *pack.Result {
		t.Helper()
		e := pack.NewEngine(config.Default(), ws)
		e.Index = idx
		total, zero := 4000, 0
		r, err := e.Pack(context.Background(), pack.Request{Query: "checkout step", Paths: []string{root},
			Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	none := run(nil)

	dir := t.TempDir()
	open := func() *Set {
		x, err := Open(root, Options{Dir: dir, Version: DefaultVersion()})
		if err != nil {
			t.Fatal(err)
		}
		return &Set{idx: []*Index{x}}
	}
	s := open()
	if cold := run(s); cold.Content != none.Content {
		t.Fatal("the cold pack differs from the pack without an index")
	}
	s.Close()

	// Re-seal: every chunk set of cart.go, its lines moved past the end.
	x := open().idx[0]
	var sets []chunkSet
	for _, seg := range x.segs {
		if i := seg.find(a, x.k.pathHash(a)); i >= 0 {
			got, err := seg.sets(i, nil)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, got...)
		}
	}
	if len(sets) == 0 {
		t.Fatal("the cold pack stored no chunks of cart.go: nothing to tamper with")
	}
	for _, cs := range sets {
		for j := range cs.chunks {
			cs.chunks[j].StartLine += 3 * lines
			cs.chunks[j].EndLine += 3 * lines
		}
	}
	e := &entry{path: a, st: stat{}, sets: sets, put: time.Now().Unix()}
	if _, err := writeSegment(dir, x.k, x.vh, []*entry{e}, batchTerms([]*entry{e})); err != nil {
		t.Fatal(err)
	}
	x.Close()

	s = open()
	defer s.Close()
	warm := run(s)
	if warm.Content != none.Content {
		t.Error("a pack with the re-sealed segment differs from the pack without an index")
	}
	for _, it := range warm.Included {
		if it.EndLine > lines {
			t.Errorf("%s claims lines %d-%d of a %d-line file", it.Path, it.StartLine, it.EndLine, lines)
		}
	}
	if st := s.Stats(); st.ChunkMisses == 0 {
		t.Errorf("the lying chunks were served: %+v", st)
	}
}
