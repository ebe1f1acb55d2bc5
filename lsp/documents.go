package lsp

import (
	"sort"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// document is one open document as the editor has it. A *document is never
// changed once stored: an edit stores a new one, so a request that took a
// document keeps a consistent snapshot.
type document struct {
	URI      protocol.DocumentURI
	Path     string // absolute path; "" when the URI is not a file: URI
	Language string
	Version  int32
	Text     string
	Modified time.Time // last open or change: the recency of docs/design.md#rule-5
}

// documentStore holds the open documents. It is the collector's overlay:
// an open document is read in preference to the file on disk.
type documentStore struct {
	mu     sync.RWMutex
	byURI  map[protocol.DocumentURI]*document
	byPath map[string]*document
}

// newDocumentStore returns an empty store.
func newDocumentStore() *documentStore {
	return &documentStore{byURI: make(map[protocol.DocumentURI]*document), byPath: make(map[string]*document)}
}

// put stores doc, replacing any document with the same URI.
func (d *documentStore) put(doc *document) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if old := d.byURI[doc.URI]; old != nil && old.Path != "" {
		delete(d.byPath, old.Path)
	}
	d.byURI[doc.URI] = doc
	if doc.Path != "" {
		d.byPath[doc.Path] = doc
	}
}

// remove forgets a document and returns it (nil when it was not open).
func (d *documentStore) remove(u protocol.DocumentURI) *document {
	d.mu.Lock()
	defer d.mu.Unlock()
	doc := d.byURI[u]
	if doc == nil {
		return nil
	}
	delete(d.byURI, u)
	if doc.Path != "" && d.byPath[doc.Path] == doc {
		delete(d.byPath, doc.Path)
	}
	return doc
}

// get returns the open document with URI u.
func (d *documentStore) get(u protocol.DocumentURI) (*document, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	doc, ok := d.byURI[u]
	return doc, ok
}

// byFile returns the open document of an absolute path.
func (d *documentStore) byFile(path string) (*document, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	doc, ok := d.byPath[path]
	return doc, ok
}

// all returns the open documents in URI order.
func (d *documentStore) all() []*document {
	d.mu.RLock()
	docs := make([]*document, 0, len(d.byURI))
	for _, doc := range d.byURI {
		docs = append(docs, doc)
	}
	d.mu.RUnlock()
	sort.Slice(docs, func(i, j int) bool { return docs[i].URI < docs[j].URI })
	return docs
}

// Open implements the collector's Overlay: the text of an open document
// at absPath, and when it last changed.
func (d *documentStore) Open(absPath string) (text string, modTime time.Time, ok bool) {
	doc, ok := d.byFile(absPath)
	if !ok {
		return "", time.Time{}, false
	}
	return doc.Text, doc.Modified, true
}
