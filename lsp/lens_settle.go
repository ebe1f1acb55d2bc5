package lsp

import (
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
	st.mu.Lock()
	if st.closed || st.doc != doc || st.enc != tok.Encoding() || st.cd == nil {
		st.mu.Unlock()
		return
	}
	settling := st.cd.PrepareSettle()
	st.mu.Unlock()
	if settling == nil {
		return
	}
	chunks, err := settling.Run(s.ctx, tok.Count, lensChunkOptions)
	if err != nil {
		return
	}
	st.mu.Lock()
	if st.closed || st.doc != doc || st.cd == nil {
		st.mu.Unlock()
		settling.Discard()
		return
	}
	if !st.cd.FinishSettle(settling) {
		st.mu.Unlock()
		return // overtaken by a newer version (FinishSettle freed it)
	}
	top := topChunks(chunks)
	changed := !slices.Equal(top, st.chunks)
	st.chunks = top
	st.mu.Unlock()
	if s.onSettle != nil {
		s.onSettle(doc.URI, changed)
	}
	if changed && s.clientCaps().codeLensRefresh {
		if err := s.client.refreshCodeLenses(s.ctx); err != nil {
			s.log.Debug("code lens refresh failed")
		}
	}
}

// settled reports (tests) that doc's chunks were settled and whether that
// changed them.
type settled func(u protocol.DocumentURI, changed bool)
