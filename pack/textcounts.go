package pack

import (
	"strings"
	"sync"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TextCounts is what a [FileIndex] may also keep: the exact token counts
// of texts a pack counted whole, per root (index/counts.go).
type TextCounts interface {
	// TextCounts returns the counts of the root holding abs; nil when none.
	TextCounts(abs string) TextCountStore
}

// TextCountStore keeps exact counts of texts under keyed digests: no text
// is kept.
type TextCountStore interface {
	// TextKey returns the keyed digest of text counted by what id names.
	TextKey(id, text string) [32]byte
	// Count returns the count stored under key.
	Count(key [32]byte) (int, bool)
	// PutCounts stores counts (by key).
	PutCounts(counts map[[32]byte]int)
}

// textCountVersion names what a stored count's key covers.
const textCountVersion = "acode text count v1"

// storedCountMin: a shorter text is counted, not looked up (the texts
// worth keeping are a pack's whole renderings: hundreds of KB, tens of ms
// to count).
const storedCountMin = 16 << 10

// storedCounts returns the count of the pack's fit — the tokenizer's,
// except that a text of at least storedCountMin bytes whose count the
// index holds under the digest of this program, this tokenizer and the
// text itself takes that count: the same text counted by the same program
// with the same encoding has the same count, so the fit's exact count
// (rule 3) is unchanged; a text that differs in any byte has another
// digest and is counted. flush stores the counts made (call it once the
// fit is done). Without an index holding the pack's files, an exact
// tokenizer built into the program (not a tokenizer file, which may
// change under its name) or a name for the program, it is the
// tokenizer's count.
func (p *pipeline) storedCounts(cands []*budget.Item) (count func(string) int, flush func()) {
	st := p.countStore(cands)
	if st == nil {
		return p.tok.Count, func() {}
	}
	id := textCountVersion + "\x00" + exe() + "\x00" + p.tok.Encoding()
	var mu sync.Mutex
	made := map[[32]byte]int{}
	count = func(text string) int {
		if len(text) < storedCountMin {
			return p.tok.Count(text)
		}
		k := st.TextKey(id, text)
		if n, ok := st.Count(k); ok {
			return n
		}
		n := p.tok.Count(text)
		mu.Lock()
		made[k] = n
		mu.Unlock()
		return n
	}
	return count, func() { st.PutCounts(made) }
}

// countStore returns the index's text counts for the root of the first
// of cands read from a file; nil when they may not serve (storedCounts).
func (p *pipeline) countStore(cands []*budget.Item) TextCountStore {
	tc, ok := IndexAs[TextCounts](p.e.Index)
	if !ok || !p.tok.Exact() || strings.HasPrefix(p.tok.Encoding(), tokenizer.FilePrefix) || exe() == "" {
		return nil
	}
	for _, it := range cands {
		if ref, ok := p.refs[it.Source]; ok && ref.Abs != "" {
			return tc.TextCounts(ref.Abs)
		}
	}
	return nil
}
