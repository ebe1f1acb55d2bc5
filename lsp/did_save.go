package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// didSave handles textDocument/didSave: saving the configuration file in
// the editor reloads it, even when the client does not watch files.
func (s *Server) didSave(_ context.Context, p *protocol.DidSaveTextDocumentParams) error {
	if s.isConfigFile(p.TextDocument.URI) {
		s.conf.reloadFile("config file saved")
	}
	return nil
}
