package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/collector/safeio"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// countTokensParams is the params of acode/countTokens: text or uri, and
// optionally the model or encoding to count with.
type countTokensParams struct {
	Text     *string               `json:"text"`
	URI      *protocol.DocumentURI `json:"uri"`
	Model    string                `json:"model"`
	Encoding string                `json:"encoding"`
}

// countTokensResult is the result of acode/countTokens. Tokens counts the
// text as it is — the number the code lens and `acode-lsp count` show for
// the same file. When a pack would redact secrets in it, PackedTokens is
// the count of the redacted text a pack uses, Redactions the number of
// values replaced, and Note says why the two differ.
type countTokensResult struct {
	Tokens       int                 `json:"tokens"`
	Encoding     string              `json:"encoding"`
	Exact        bool                `json:"exact"`
	Estimate     *tokenizer.Estimate `json:"estimate,omitempty"` // docs/design.md#rule-1, when not exact
	PackedTokens *int                `json:"packedTokens,omitempty"`
	Redactions   int                 `json:"redactions,omitempty"`
	Note         string              `json:"note,omitempty"`
}

// countTokens handles acode/countTokens. A uri is read like a packContext
// source: the open document first, else the file, always through the
// collector's filters (a file outside the workspace, ignored or secret is
// an ACODE-CTX-002 error, never read).
func (s *Server) countTokens(ctx context.Context, p *countTokensParams) (*countTokensResult, error) {
	switch {
	case p.Text != nil && p.URI != nil:
		return nil, rpc.NewInvalidParams("uri", "give text or uri, not both")
	case p.Text == nil && p.URI == nil:
		return nil, rpc.NewInvalidParams("text", "required (or uri)")
	}
	tok, err := s.tokenizerFor(p.Model, p.Encoding)
	if err != nil {
		return nil, err
	}
	var text, raw string
	redactions := 0
	if p.Text != nil {
		text, raw = *p.Text, *p.Text
	} else {
		if *p.URI == "" {
			return nil, rpc.NewInvalidParams("uri", "must not be empty")
		}
		var src collector.Source
		if src, err = s.readSourceFull(ctx, *p.URI, errcode.TokenCount); err != nil {
			return nil, err
		}
		text, raw, redactions = src.Content, src.Content, src.Redactions
		if redactions > 0 {
			// The file passed every rule; count it as the lens and
			// `acode-lsp count` do, and give the pack's count beside it.
			if raw, err = s.rawText(*p.URI, src.AbsPath); err != nil {
				return nil, rpc.NewRequestFailed(errcode.TokenCount, fmt.Sprintf("%s was not read: %v", collector.EscapePath(src.Path), err), map[string]any{"reason": string(collector.ReasonUnreadable), "path": src.Path})
			}
		}
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res := &countTokensResult{Tokens: tok.Count(raw), Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok)}
	if redactions > 0 {
		packed := tok.Count(text)
		res.PackedTokens, res.Redactions = &packed, redactions
		res.Note = fmt.Sprintf("a pack replaces %d secret value(s) in this file by [REDACTED] and counts %d tokens for it; the file as written has %d", redactions, packed, res.Tokens)
	}
	return res, nil
}

// rawText returns a document's text before redaction: the open document's,
// else the file's (which the collector has just admitted).
func (s *Server) rawText(u protocol.DocumentURI, abs string) (string, error) {
	if doc, ok := s.docs.get(u); ok {
		return doc.Text, nil
	}
	// Read as the collector reads: a regular file only, bounded, so a file
	// swapped for a FIFO or a device since it was admitted cannot hang or
	// flood the server (issue 15).
	data, err := safeio.ReadFile(context.Background(), abs, maxRawText, safeio.Options{})
	return string(data), err
}

// maxRawText bounds the raw read of a file the collector admitted (its
// cap is 1 MiB by default; a file that grew past this since is refused).
const maxRawText = 64 << 20
