package lsp

import (
	"context"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// settleDelay is how long after the last provisional lens answer of a
// document its chunks are settled by a whole parse: typing inside a
// syntax error is answered from windows (chunker.Document.UpdateQuick,
// a few milliseconds a keystroke), and the whole re-parse, which costs
// several times more on a large file, runs once the typing pauses.
const settleDelay = 150 * time.Millisecond

// scheduleSettle (re)starts the quiet period after which the provisional
// chunks of doc are settled.
func (c *lensCache) scheduleSettle(s *Server, doc *document, tok tokenizer.Tokenizer) {
	c.mu.Lock()
	st := c.m[doc.URI]
	c.mu.Unlock()
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return
	}
	if st.settle != nil {
		st.settle.Stop()
	}
	st.settle = time.AfterFunc(settleDelay, func() {
		s.spawn(func() { c.settleNow(s, doc, tok) })
	})
}

// settleNow settles the chunks of doc when it is still the document's
// current version and they are provisional, and asks the client to
// refresh its lenses when that changed one of them. The whole parse runs
// without the document's lock (chunker.Settling), so the lenses of a
// newer version never wait for it; its result is then dropped.
func (c *lensCache) settleNow(s *Server, doc *document, tok tokenizer.Tokenizer) {
	c.mu.Lock()
	st := c.m[doc.URI]
	c.mu.Unlock()
	if st == nil {
		return
	}
	changed, ok := st.settleWhole(s.ctx, doc, tok)
	if !ok {
		return
	}
	if s.onSettle != nil {
		s.onSettle(doc.URI, changed)
	}
	if changed && s.clientCaps().codeLensRefresh {
		if err := s.client.refreshCodeLenses(s.ctx); err != nil {
			s.log.Debug("code lens refresh failed")
		}
	}
}

// settleWhole runs the whole parse of st's document outside its lock and makes
// its chunks the document's state, reporting whether that changed them;
// ok is false when the state changed meanwhile (closed, another document
// or encoding, a newer version) or the parse failed.
func (st *lensState) settleWhole(ctx context.Context, doc *document, tok tokenizer.Tokenizer) (changed, ok bool) {
	st.mu.Lock()
	if st.closed || st.doc != doc || st.enc != tok.Encoding() || st.cd == nil {
		st.mu.Unlock()
		return false, false
	}
	settling := st.cd.PrepareSettle()
	st.mu.Unlock()
	if settling == nil {
		return false, false
	}
	chunks, err := settling.Run(ctx, tok.Count, lensChunkOptions)
	if err != nil {
		return false, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed || st.doc != doc || st.cd == nil {
		settling.Discard()
		return false, false
	}
	if !st.cd.FinishSettle(settling) {
		return false, false // overtaken by a newer version (FinishSettle freed it)
	}
	top := topChunks(chunks)
	changed = !slices.Equal(top, st.chunks)
	st.chunks = top
	return changed, true
}

// settled reports (tests) that doc's chunks were settled and whether that
// changed them.
type settled func(u protocol.DocumentURI, changed bool)
