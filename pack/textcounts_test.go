package pack

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
)

// memCounts is a memSetIndex that keeps text counts (TextCounts) by a
// digest of id and text, and can poison them.
type memCounts struct {
	*memSetIndex
	cmu    sync.Mutex
	counts map[[32]byte]int
	looked int
}

func newMemCounts() *memCounts {
	return &memCounts{memSetIndex: newMemSetIndex(), counts: map[[32]byte]int{}}
}

func (m *memCounts) TextCounts(string) TextCountStore { return m }

func (m *memCounts) TextKey(id, text string) [32]byte {
	return sha256.Sum256([]byte(id + "\x00" + text))
}

func (m *memCounts) Count(key [32]byte) (int, bool) {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	m.looked++
	n, ok := m.counts[key]
	return n, ok
}

func (m *memCounts) PutCounts(c map[[32]byte]int) {
	m.cmu.Lock()
	defer m.cmu.Unlock()
	for k, n := range c {
		m.counts[k] = n
	}
}

// bigCounter counts the texts of at least storedCountMin bytes it counts.
type bigCounter struct {
	tokenizer.Tokenizer
	big *atomic.Int64
}

func (c bigCounter) Count(text string) int {
	if len(text) >= storedCountMin {
		c.big.Add(1)
	}
	return c.Tokenizer.Count(text)
}

// TestStoredCountsExact: a query pack's fit takes a whole rendering's
// count from the index only under the digest of that very text with this
// program and encoding — a warm pack of an unchanged tree counts no whole
// rendering and packs what a pack without an index packs; after a file
// changes, or with another encoding, the renderings are counted again and
// the packs are again those without an index, even when every stored
// count is wrong.
func TestStoredCountsExact(t *testing.T) {
	root := planTree(t, 40)
	req := planRequest(root, 9000)
	req.Query = "which step calls Step0_0 with x"
	want := packText(t, planEngine(t, root, nil), req)
	if len(want.Content) < storedCountMin {
		t.Fatalf("the pack is %d bytes, want at least %d", len(want.Content), storedCountMin)
	}
	idx := newMemCounts()
	same := func(what string, got, want *Result) {
		t.Helper()
		if got.Content != want.Content || got.TokenCount != want.TokenCount || !reflect.DeepEqual(got.Budget, want.Budget) || !slices.Equal(got.Included, want.Included) {
			t.Errorf("%s: the pack differs from the one without an index: %d/%d tokens", what, got.TokenCount, want.TokenCount)
		}
	}
	same("cold", packText(t, planEngine(t, root, idx), req), want)
	if len(idx.counts) == 0 {
		t.Fatal("the cold pack stored no count")
	}
	base, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	counting := func(enc tokenizer.Tokenizer) (*Engine, *atomic.Int64) {
		var big atomic.Int64
		e := planEngine(t, root, idx)
		e.Tokenizers = tokenizer.NewRegistry()
		e.Tokenizers.Add(bigCounter{enc, &big}, 0)
		return e, &big
	}
	e, big := counting(base)
	same("warm", packText(t, e, req), want)
	if n := big.Load(); n != 0 {
		t.Errorf("the warm pack counted %d whole renderings, want none", n)
	}

	// Every stored count made wrong: a pack whose renderings differ must
	// not take any of them.
	for k := range idx.counts {
		idx.counts[k] += 1000
	}
	p := filepath.Join(root, "f007.go")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, append(data, "\n// Step0_0 is called with x by every step.\n"...))
	want = packText(t, planEngine(t, root, nil), req)
	e, big = counting(base)
	same("changed file", packText(t, e, req), want)
	if big.Load() == 0 {
		t.Error("the pack of a changed file counted no rendering")
	}
	cl100k, err := tokenizer.ForEncoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	for k := range idx.counts {
		idx.counts[k] += 1000
	}
	req.Encoding = "cl100k_base"
	want = packText(t, planEngine(t, root, nil), req)
	e, big = counting(cl100k)
	same("other encoding", packText(t, e, req), want)
	if big.Load() == 0 {
		t.Error("the pack with another encoding counted no rendering")
	}
}

// TestStoredCountKeyHasEncoding: the same text counted with two encodings
// is stored under two keys, each with its encoding's count.
func TestStoredCountKeyHasEncoding(t *testing.T) {
	idx := newMemCounts()
	e := planEngine(t, t.TempDir(), idx)
	src := budget.NewText("package a\n")
	cands := []*budget.Item{{Path: "a.go", Source: src}}
	text := strings.Repeat("idle connections close after a timeout; ", storedCountMin/16)
	want := map[int]bool{}
	for _, enc := range []string{tokenizer.O200kBase, "cl100k_base"} {
		tok, err := tokenizer.ForEncoding(enc)
		if err != nil {
			t.Fatal(err)
		}
		p := &pipeline{e: e, tok: tok, refs: map[*budget.Text]collector.FileRef{src: {Abs: "/r/a.go", Path: "a.go"}}}
		count, flush := p.storedCounts(cands)
		if got, exact := count(text), tok.Count(text); got != exact {
			t.Errorf("%s: count %d, want %d", enc, got, exact)
		}
		flush()
		want[tok.Count(text)] = true
	}
	got := map[int]bool{}
	for _, n := range idx.counts {
		got[n] = true
	}
	if len(idx.counts) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("stored %v, want one count per encoding %v", idx.counts, want)
	}
}
