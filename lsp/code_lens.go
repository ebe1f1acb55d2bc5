package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// codeLens handles textDocument/codeLens: on line 0 "<N> tokens · <P>% of
// budget" for the whole document, and "<N> tokens" on the first line of
// every top-level chunk, counted from the in-memory text under the current
// model ("≈" in front when the model has no exact tokenizer, thousands
// separated by commas). When the what-if state of this document version is
// known (whatif.go), each title goes on with " · ✓ in context" or
// " · +<M> to fit" and the lens becomes clickable: acode.showChunkReport
// for what is in, acode.pinChunk for what is not. It never waits for that
// state: until it is computed, the previous version's states are shown for
// the chunks with the same kind and name, a computation is started, and the
// client is asked to refresh when it changed a title. A document that is not open has no lenses; a request without a
// document is invalid.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) (rpc.JSON, error) {
	if err := rpc.Required(p.TextDocument.URI != "", "textDocument.uri"); err != nil {
		return nil, err
	}
	doc, ok := s.docs.get(p.TextDocument.URI)
	if !ok {
		return rpc.JSON("[]"), nil
	}
	e := s.conf.env()
	chunks, exactChunks, err := s.lenses.chunks(ctx, doc, e.tok)
	if err != nil {
		return nil, err
	}
	if !exactChunks {
		s.lenses.scheduleSettle(s, doc, e.tok)
	}
	total := s.counts.get(doc, e.tok)
	exactCount := e.exact()
	fileState, chunkStates, known, exact := s.whatif.lensStates(doc, e, chunks)
	if !exact {
		s.whatif.kick()
	}
	common := lensCommon{uri: doc.URI, path: doc.Path, total: e.cfg.Context.Budget.TotalTokens, available: e.cfg.Available(), known: known}
	title := fmt.Sprintf("%s · %s%% of budget", formatTokens(total, exactCount), fmt.Sprintf("%.1f", percentOf(total, e.cfg.Available())))
	items := make([]lensItem, 0, len(chunks)+1)
	items = append(items, lensItem{line: 0, end: countLines(doc.Text) - 1, tokens: total, title: title, st: fileState, whole: true})
	for i, c := range chunks {
		var st fitState
		if known {
			st = chunkStates[i]
		}
		items = append(items, lensItem{line: c.line, end: c.end, tokens: c.tokens, title: formatTokens(c.tokens, exactCount), st: st})
	}
	per := 130 // bytes a label lens takes; a clickable one with its arguments about 400
	if known {
		per = 420
	}
	return appendLenses(make([]byte, 0, per*len(items)), items, common), nil
}

// countLines is the number of lines of text (a final line without a
// newline counts; an empty text has one line).
func countLines(text string) int {
	return strings.Count(text, "\n") + 1 // vectorised: a 1 MB text in a few µs
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
