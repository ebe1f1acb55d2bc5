package lsp

import (
	"io/fs"
	"regexp/syntax"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/pack"
)

// indexFlushDelay: the server writes what its packs put into the index this
// long after the last put.
const indexFlushDelay = 2 * time.Second

// workspaceIndex is the persistent index of the workspace roots
// (docs/index.md), opened when the roots change and shared by every env of
// those roots. didChangeWatchedFiles tells it which files changed.
type workspaceIndex struct {
	mu    sync.Mutex
	roots []string
	set   *index.Set
}

// forRoots returns the index of roots for an engine, opening it (and
// closing the previous one) when the roots changed; nil when it is off or
// cannot be opened (packs go on without it).
func (w *workspaceIndex) forRoots(s *Server, roots []string) pack.FileIndex {
	if !s.opts.WorkspaceIndex || len(roots) == 0 {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.set == nil || !slices.Equal(w.roots, roots) {
		if w.set != nil {
			_ = w.set.Close() // a request still holding it only misses
		}
		set, err := index.OpenSet(roots, index.Options{})
		if err != nil {
			s.log.Info("workspace index not opened for every root", zap.Error(err))
		}
		set.AutoFlush(indexFlushDelay)
		w.roots, w.set = slices.Clone(roots), set
	}
	if !w.set.Usable() {
		return nil
	}
	return openAware{set: w.set, docs: s.docs}
}

// forget drops the index entries of a changed file.
func (w *workspaceIndex) forget(abs string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.set != nil {
		w.set.Forget(abs)
	}
}

// close flushes and closes the index (at exit).
func (w *workspaceIndex) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.set != nil {
		_ = w.set.Close()
		w.set = nil
	}
}

var _ collector.SearchIndex = openAware{}

// openAware keeps the term entries of documents open in the editor out of
// the index: their text is the editor's, not the file's the stat describes.
// Chunk entries are keyed by the content itself and need no such care.
type openAware struct {
	set  *index.Set
	docs *documentStore
}

func (o openAware) open(abs string) bool {
	_, _, ok := o.docs.Open(abs)
	return ok
}

func (o openAware) Terms(f collector.FileRef, terms []string) (pack.FileTerms, bool) {
	if o.open(f.Abs) {
		return pack.FileTerms{}, false
	}
	return o.set.Terms(f, terms)
}

func (o openAware) PutTerms(f collector.FileRef, content []byte, all map[string]int) {
	if !o.open(f.Abs) {
		o.set.PutTerms(f, content, all)
	}
}

func (o openAware) Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	return o.set.Chunks(f, content, key)
}

func (o openAware) PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk) {
	o.set.PutChunks(f, content, key, chunks)
}

func (o openAware) Forget(abs string) { o.set.Forget(abs) }

// SearchFilter implements collector.SearchIndex: a search asks the index
// which files cannot match; an open document is never ruled out (the
// search reads the editor's text).
func (o openAware) SearchFilter(re *syntax.Regexp) func(collector.FileRef) (skip, known bool) {
	filter := o.set.SearchFilter(re)
	if filter == nil {
		return nil
	}
	return func(f collector.FileRef) (bool, bool) {
		if o.open(f.Abs) {
			return false, false
		}
		return filter(f)
	}
}

// Learn implements collector.SearchIndex: the terms of a file a search
// read go to the index, unless the file is open in the editor.
func (o openAware) Learn(f collector.FileRef, text string) {
	if !o.open(f.Abs) {
		o.set.LearnTerms(f, text)
	}
}

// Refused implements collector.RefusedFiles: a refusal remembered for a
// file's stat, never for a document open in the editor (its text is the
// editor's).
func (o openAware) Refused(abs string, info fs.FileInfo) (collector.Refusal, bool) {
	if o.open(abs) {
		return collector.Refusal{}, false
	}
	return o.set.Refused(abs, info)
}

// PutRefused implements collector.RefusedFiles, open documents aside.
func (o openAware) PutRefused(abs string, info fs.FileInfo, r collector.Refusal) {
	if !o.open(abs) {
		o.set.PutRefused(abs, info, r)
	}
}

// KnownClean implements collector.CleanTexts: a text is known clean by
// its content, whoever holds it.
func (o openAware) KnownClean(abs string, text []byte) bool { return o.set.KnownClean(abs, text) }
