package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
)

// codeLens handles textDocument/codeLens: on line 0 "<N> tokens · <P>% of
// budget" for the whole document, and "<N> tokens" on the first line of
// every top-level chunk, counted from the in-memory text under the current
// model ("≈" in front when the model has no exact tokenizer). A document
// that is not open has no lenses; a request without a document is invalid.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	if err := required(p.TextDocument.URI != "", "textDocument.uri"); err != nil {
		return nil, err
	}
	doc, ok := s.docs.get(p.TextDocument.URI)
	if !ok {
		return []protocol.CodeLens{}, nil
	}
	e := s.conf.env()
	chunks, err := s.lenses.chunks(ctx, doc, e.tok)
	if err != nil {
		return nil, err
	}
	total := s.counts.get(doc, e.tok)
	exact := e.exact()
	title := fmt.Sprintf("%s · %s%% of budget", formatTokens(total, exact), fmt.Sprintf("%.1f", percentOf(total, e.cfg.Available())))
	lenses := make([]protocol.CodeLens, 0, len(chunks)+1)
	lenses = append(lenses, lensAt(0, title))
	for _, c := range chunks {
		lenses = append(lenses, lensAt(uint32(c.line), formatTokens(c.tokens, exact)))
	}
	return lenses, nil
}

// lensAt is a lens on a line. Its command has no id: it is a label, which
// editors show without making it clickable.
func lensAt(line uint32, title string) protocol.CodeLens {
	pos := protocol.Position{Line: line}
	return protocol.CodeLens{
		Range:   protocol.Range{Start: pos, End: pos},
		Command: &protocol.Command{Title: title, Command: ""},
	}
}
