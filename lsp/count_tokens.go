package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"

	"go.lsp.dev/protocol"
)

// countTokensParams is the params of acode/countTokens: text or uri, and
// optionally the model or encoding to count with.
type countTokensParams struct {
	Text     *string               `json:"text"`
	URI      *protocol.DocumentURI `json:"uri"`
	Model    string                `json:"model"`
	Encoding string                `json:"encoding"`
}

// countTokensResult is the result of acode/countTokens.
type countTokensResult struct {
	Tokens   int                 `json:"tokens"`
	Encoding string              `json:"encoding"`
	Exact    bool                `json:"exact"`
	Estimate *tokenizer.Estimate `json:"estimate,omitempty"` // DESIGN rule 1, when not exact
}

// countTokens handles acode/countTokens. A uri is read like a packContext
// source: the open document first, else the file, always through the
// collector's filters (a file outside the workspace, ignored or secret is
// an ACODE-CTX-002 error, never read).
func (s *Server) countTokens(ctx context.Context, p *countTokensParams) (*countTokensResult, error) {
	switch {
	case p.Text != nil && p.URI != nil:
		return nil, invalidParams("uri", "give text or uri, not both")
	case p.Text == nil && p.URI == nil:
		return nil, invalidParams("text", "required (or uri)")
	}
	tok, err := s.tokenizerFor(p.Model, p.Encoding, "encoding")
	if err != nil {
		return nil, err
	}
	var text string
	if p.Text != nil {
		text = *p.Text
	} else {
		if *p.URI == "" {
			return nil, invalidParams("uri", "must not be empty")
		}
		if text, err = s.readSource(ctx, *p.URI, CodeCountFailed); err != nil {
			return nil, err
		}
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return &countTokensResult{Tokens: tok.Count(text), Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok)}, nil
}
