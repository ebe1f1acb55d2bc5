package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// didOpen handles textDocument/didOpen: the document is kept in memory and
// read in preference to the disk from now on.
func (s *Server) didOpen(_ context.Context, p *protocol.DidOpenTextDocumentParams) error {
	item := p.TextDocument
	if item.URI == "" {
		return &rpc.FieldError{Field: "textDocument.uri", Msg: "required"}
	}
	path, _ := uriToPath(item.URI) // "" for untitled: and other schemes
	s.docs.put(&document{
		URI:      item.URI,
		Path:     path,
		Language: string(item.LanguageID),
		Version:  item.Version,
		Text:     item.Text,
		Modified: time.Now(),
	})
	s.budget.trigger()
	return nil
}
