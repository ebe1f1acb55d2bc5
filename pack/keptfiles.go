package pack

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// Bounds of an engine's kept files ([Engine.KeepFiles]): the files, and the
// bytes of their texts (each kept twice: as read and as bytes for the
// chunker and the index, plus its line index and chunks).
const (
	keptFilesMax      = 4096
	keptFilesMaxBytes = 48 << 20
)

// keptFileRacy: a file changed this recently is not kept (as the index
// marks such entries racy: a change within the mtime's granularity would
// keep its size and mtime).
const keptFileRacy = 2 * time.Second

// keptFiles are the files a running server's packs read, kept with what
// the pipeline made of them (a line index, chunks by chunking), so that a
// warm pack of the same files does not read, index, hash or cut them again
// (issue 24: reading and cutting the kept files was 15 % of a warm MCP
// pack of net/http, and hashing their chunks for the memos 20 %).
type keptFiles struct {
	c     *lru.Cache[string, *keptFile] // by absolute path
	bytes atomic.Int64
	paths *pathFacts // what of the listed paths' scores the query does not change
}

// keptFile is one file as read under one stat.
type keptFile struct {
	path        string // the listing's path (ref.Path)
	size, mtime int64
	src         collector.Source
	text        *budget.Text
	data        []byte // src.Content as bytes (never written)

	mu   sync.Mutex
	cuts map[string][]chunker.Chunk // chunks with their text, by indexChunkKey
	gone bool                       // let go: its chunks are no longer named
}

// cost is what f holds in bytes, roughly.
func (f *keptFile) cost() int64 {
	return int64(2*len(f.src.Content) + 8*f.text.Lines() + 256)
}

// KeepFiles makes e keep the files its packs read across packs (a running
// server without an editor's overlay: the MCP server), each by its path,
// size and mtime, as listed and as stated again when it is taken;
// [Engine.Forget] drops one. A file changed in the last two seconds is
// not kept.
func (e *Engine) KeepFiles() {
	k := &keptFiles{paths: newPathFacts()}
	c, err := lru.NewWithEvict(keptFilesMax, func(_ string, f *keptFile) {
		k.bytes.Add(-f.cost())
		f.mu.Lock()
		defer f.mu.Unlock()
		f.gone = true
		for _, cut := range f.cuts {
			for _, ch := range cut {
				textid.Drop(ch.Content)
			}
		}
	})
	if err != nil {
		panic(fmt.Sprintf("pack: kept files: %v", err)) // only for a size ≤ 0
	}
	k.c = c
	e.kept = k
}

// Forget drops what the engine keeps of the file at abs (a file the
// watcher saw change).
func (e *Engine) Forget(abs string) {
	if e.kept != nil {
		e.kept.c.Remove(abs)
	}
}

// ForgetFiles drops every file the engine keeps (an engine let go).
func (e *Engine) ForgetFiles() {
	if e.kept != nil {
		e.kept.c.Purge()
	}
}

// readRef reads a listed file as [collector.Workspace.ReadRef], or takes
// it from the kept files when they hold it under the listing's stat; the
// kept file, when there is one, goes with the source.
func (p *pipeline) readRef(ctx context.Context, ref collector.FileRef) (collector.Source, *keptFile, *collector.Exclusion) {
	k := p.e.kept
	if k == nil || ref.Info == nil {
		s, x := p.e.ws.ReadRef(ctx, collector.OpenFile, ref)
		return s, nil, x
	}
	size, mtime := ref.Info.Size(), ref.Info.ModTime().UnixNano()
	if f, ok := k.c.Get(ref.Abs); ok && f.size == size && f.mtime == mtime && f.path == ref.Path && f.unchanged(ref.Abs) {
		return f.src, f, nil
	}
	s, x := p.e.ws.ReadRef(ctx, collector.OpenFile, ref)
	if x != nil || !s.Timestamp.Equal(ref.Info.ModTime()) || time.Since(ref.Info.ModTime()) < keptFileRacy {
		return s, nil, x // not as listed (a stale listing), or too recent to trust its stat
	}
	f := &keptFile{path: ref.Path, size: size, mtime: mtime, src: s, text: budget.NewText(s.Content), data: []byte(s.Content)}
	k.c.Remove(ref.Abs) // its evict hook drops the old chunks' names
	k.c.Add(ref.Abs, f)
	for k.bytes.Add(f.cost()) > keptFilesMaxBytes {
		if _, _, ok := k.c.RemoveOldest(); !ok {
			break
		}
	}
	return s, f, nil
}

// unchanged reports whether the file at abs still has f's stat: a kept
// listing's stat can be stale (a change its watcher missed), and a
// changed file is read as it is now (collector: which also drops that
// listing). A stat costs a fraction of a read.
func (f *keptFile) unchanged(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular() && fi.Size() == f.size && fi.ModTime().UnixNano() == f.mtime
}

// cut returns the chunks f was cut into for key (indexChunkKey), false
// when it was not cut so yet.
func (f *keptFile) cut(key string) ([]chunker.Chunk, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.cuts[key]
	return slices.Clone(c), ok
}

// keepCut keeps chunks (cut for key from f's text) with their text as
// slices of f's, naming each text for the memos (textid.Keep).
func (f *keptFile) keepCut(key string, chunks []chunker.Chunk) {
	kept := make([]chunker.Chunk, len(chunks))
	for i, ch := range chunks {
		ch.Content = f.src.Content[ch.StartByte:ch.EndByte]
		kept[i] = ch
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.cuts[key]; ok || f.gone {
		return
	}
	if f.cuts == nil {
		f.cuts = map[string][]chunker.Chunk{}
	}
	f.cuts[key] = kept
	for _, ch := range kept {
		if len(ch.Content) >= chunkTermsMin {
			textid.Keep(ch.Content)
		}
	}
}
