package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// didClose handles textDocument/didClose: the document is read from disk
// again, and its lens state is freed.
func (s *Server) didClose(_ context.Context, p *protocol.DidCloseTextDocumentParams) error {
	if s.docs.remove(p.TextDocument.URI) == nil {
		return nil
	}
	s.lenses.drop(p.TextDocument.URI)
	s.counts.drop(p.TextDocument.URI)
	s.budget.trigger()
	return nil
}
