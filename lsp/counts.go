package lsp

import (
	"sync"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// countCache keeps the token count of each open document's current
// version under one encoding, so the budget and the lenses count a version
// once. Entries are keyed by the document snapshot itself: a new version,
// or the same version number after a close and reopen, is a new entry.
type countCache struct {
	mu sync.Mutex
	m  map[protocol.DocumentURI]*countEntry
}

// countEntry is the count of one document snapshot under one encoding.
type countEntry struct {
	doc  *document
	enc  string
	once sync.Once
	n    int
}

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
		e = &countEntry{doc: doc, enc: enc}
		c.m[doc.URI] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.n = tok.Count(doc.Text) })
	return e.n
}

// drop forgets the count of a closed document.
func (c *countCache) drop(u protocol.DocumentURI) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, u)
}
