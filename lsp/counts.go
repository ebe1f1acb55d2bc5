package lsp

import (
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// countCache keeps the token count of each open document's current
// version under one encoding, so the budget and the lenses count a version
// once. Entries are keyed by the document snapshot itself: a new version,
// or the same version number after a close and reopen, is a new entry.
//
// The count of a version is kept as the counts of blocks of its text cut at
// safe boundaries ([safeCut]), so the next version recounts only the blocks
// its edit touched: the blocks before and after the edit are unchanged
// text between safe boundaries, and their counts add up exactly.
type countCache struct {
	mu sync.Mutex
	m  map[protocol.DocumentURI]*countEntry
}

// countEntry is the count of one document snapshot under one encoding.
type countEntry struct {
	doc    *document
	enc    string
	prev   *countEntry // a counted earlier version, until this one is counted (guarded by countCache.mu)
	done   atomic.Bool // the count is known
	once   sync.Once
	n      int
	blocks []countBlock // nil when the encoding is not counted by blocks
}

// countBlock is a run of text [start, end) between safe boundaries and
// its token count.
type countBlock struct {
	start, end int
	tokens     int
}

// blockTarget is the size a block is cut at (the next safe boundary after
// it): an edit recounts about this many bytes.
const blockTarget = 2048

// newCountCache returns an empty cache.
func newCountCache() *countCache {
	return &countCache{m: make(map[protocol.DocumentURI]*countEntry)}
}

// get returns the token count of doc's whole text under tok. Concurrent
// callers for the same version wait for one count.
func (c *countCache) get(doc *document, tok tokenizer.Tokenizer) int {
	enc := tok.Encoding()
	c.mu.Lock()
	e := c.m[doc.URI]
	if e == nil || e.doc != doc || e.enc != enc {
		ne := &countEntry{doc: doc, enc: enc}
		if e != nil && e.enc == enc {
			// Never a chain of uncounted versions: an uncounted entry
			// passes on the counted one it would have started from.
			if e.done.Load() {
				ne.prev = e
			} else {
				ne.prev = e.prev
			}
		}
		e = ne
		c.m[doc.URI] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		defer e.done.Store(true)
		c.mu.Lock()
		prev := e.prev
		e.prev = nil
		c.mu.Unlock()
		if !blockCounted(tok) {
			e.n = tok.Count(doc.Text)
			return
		}
		var old string
		var oldBlocks []countBlock
		if prev != nil {
			old, oldBlocks = prev.doc.Text, prev.blocks
		}
		e.blocks = recount(old, oldBlocks, doc.Text, tok.Count)
		for _, b := range e.blocks {
			e.n += b.tokens
		}
	})
	return e.n
}

// drop forgets the count of a closed document.
func (c *countCache) drop(u protocol.DocumentURI) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, u)
}

// blockCounting turns counting by blocks on; a variable so benchmarks can
// compare with whole counts in one run.
var blockCounting = true

// blockCounted reports whether tok's counts may be summed over blocks
// ([tokenizer.Additive]; other encodings are counted whole).
func blockCounted(tok tokenizer.Tokenizer) bool {
	return blockCounting && tokenizer.Additive(tok)
}

// safeCut reports whether text may be cut before index p with the counts
// of both sides adding up: [tokenizer.SafeCut], the rule's one home.
func safeCut(text string, p int) bool { return tokenizer.SafeCut(text, p) }

// recount returns the blocks of text, reusing the blocks of old (the
// previous version, cut by the same rule) that lie wholly in the unchanged
// prefix or suffix and whose boundaries are still safe in text, and
// counting with count only the region between them.
func recount(old string, oldBlocks []countBlock, text string, count func(string) int) []countBlock {
	if len(oldBlocks) == 0 {
		return split(text, 0, len(text), count, nil)
	}
	pre := unchangedPrefix(old, oldBlocks, text)
	suf := unchangedSuffix(old, oldBlocks, text, pre)
	shift := len(text) - len(old)

	out := make([]countBlock, 0, len(oldBlocks)+2)
	out, a := reusedLeading(oldBlocks, text, pre, out)
	first := reusedTrailing(old, oldBlocks, text, suf, a)
	b := len(text)
	if first < len(oldBlocks) {
		b = oldBlocks[first].start + shift
	}
	out = split(text, a, b, count, out)
	for _, ob := range oldBlocks[first:] {
		out = append(out, countBlock{start: ob.start + shift, end: ob.end + shift, tokens: ob.tokens})
	}
	return out
}

// unchangedPrefix returns the length of the prefix old and text share:
// whole blocks compared at memory speed, then the first differing block
// byte by byte.
func unchangedPrefix(old string, oldBlocks []countBlock, text string) int {
	pre := 0
	for _, b := range oldBlocks {
		if b.end > len(text) || old[b.start:b.end] != text[b.start:b.end] {
			break
		}
		pre = b.end
	}
	for pre < len(old) && pre < len(text) && old[pre] == text[pre] {
		pre++
	}
	return pre
}

// unchangedSuffix returns the length of the suffix old and text share,
// not overlapping the prefix of length pre in either text: whole blocks
// first, then byte by byte.
func unchangedSuffix(old string, oldBlocks []countBlock, text string, pre int) int {
	maxSuf := min(len(old), len(text)) - pre
	suf := 0
	shift := len(text) - len(old)
	for i := len(oldBlocks) - 1; i >= 0; i-- {
		b := oldBlocks[i]
		n := len(old) - b.start
		if n > maxSuf || old[b.start:b.end] != text[b.start+shift:b.end+shift] {
			break
		}
		suf = n
	}
	for suf < maxSuf && old[len(old)-1-suf] == text[len(text)-1-suf] {
		suf++
	}
	return suf
}

// reusedLeading appends to out the leading old blocks that lie in the
// unchanged prefix of length pre and end at a boundary still safe in
// text, and returns out with the end of the last one (0 if none).
func reusedLeading(oldBlocks []countBlock, text string, pre int, out []countBlock) ([]countBlock, int) {
	a := 0
	for _, b := range oldBlocks {
		if b.end > pre || (b.end < len(text) && !safeCut(text, b.end)) {
			break
		}
		out = append(out, b)
		a = b.end
	}
	return out, a
}

// reusedTrailing returns the index of the first of the trailing old blocks
// that lie in the unchanged suffix of length suf, start at or after a once
// shifted into text, and start at a boundary still safe in text;
// len(oldBlocks) if none.
func reusedTrailing(old string, oldBlocks []countBlock, text string, suf, a int) int {
	shift := len(text) - len(old)
	first := len(oldBlocks)
	for i := len(oldBlocks) - 1; i >= 0; i-- {
		b := oldBlocks[i]
		s := b.start + shift
		if b.start < len(old)-suf || s < a || (s > 0 && !safeCut(text, s)) {
			break
		}
		first = i
	}
	return first
}

// split appends to out the blocks of text[from:to], cut at the first safe
// boundary after every blockTarget bytes, each counted with count. from
// and to are safe boundaries (or the ends of text).
func split(text string, from, to int, count func(string) int, out []countBlock) []countBlock {
	for from < to {
		end := to
		for p := from + blockTarget; p < to; p++ {
			if safeCut(text, p) {
				end = p
				break
			}
		}
		out = append(out, countBlock{start: from, end: end, tokens: count(text[from:end])})
		from = end
	}
	return out
}
