package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// contentChange is one TextDocumentContentChangeEvent.
//
// Defect: protocol.TextDocumentContentChangeEvent.Range is not a pointer,
// so a full-text change (no range) and an edit at 0:0–0:0 decode alike;
// with incremental sync that would turn every full replacement into an
// insertion. The server decodes the changes itself, with Range a pointer.
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// didChangeParams is DidChangeTextDocumentParams with contentChange.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

// didChange handles textDocument/didChange (incremental sync): the changes
// are applied in order to the stored text. Code lenses and the budget are
// recomputed from the new text when next asked for.
func (s *Server) didChange(_ context.Context, p *didChangeParams) error {
	doc, ok := s.docs.get(p.TextDocument.URI)
	if !ok {
		return fmt.Errorf("lsp: didChange: document not open: %s", p.TextDocument.URI)
	}
	text := doc.Text
	for i, ch := range p.ContentChanges {
		if ch.Range == nil {
			text = ch.Text
			continue
		}
		next, err := applyChange(text, *ch.Range, ch.Text)
		if err != nil {
			return &rpc.FieldError{Field: fmt.Sprintf("contentChanges[%d].range", i), Msg: err.Error()}
		}
		text = next
	}
	next := *doc
	next.Text, next.Version, next.Modified = text, p.TextDocument.Version, time.Now()
	s.docs.put(&next)
	s.budget.trigger()
	return nil
}
