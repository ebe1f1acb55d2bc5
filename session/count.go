package session

import (
	"context"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
)

// CountRequest is a count of a text, or of a workspace file read as a pack
// reads it (Path, when Text is nil).
type CountRequest struct {
	Text                           *string
	Path                           string
	Model, Encoding, TokenizerFile string
}

// CountResult is the result of acode/countTokens and count_tokens.
type CountResult struct {
	Tokens   int                 `json:"tokens"`
	Encoding string              `json:"encoding"`
	Exact    bool                `json:"exact"`
	Estimate *tokenizer.Estimate `json:"estimate,omitempty"`
}

// Count counts a text or a file with [Session.Tokenizer].
func (s *Session) Count(ctx context.Context, req CountRequest) (*CountResult, error) {
	switch {
	case req.Text != nil && req.Path != "":
		return nil, &pack.ParamError{Field: "path", Message: "give text or path, not both"}
	case req.Text == nil && req.Path == "":
		return nil, &pack.ParamError{Field: "text", Message: "required (or path)"}
	}
	tok, err := s.Tokenizer(req.Model, req.Encoding, req.TokenizerFile)
	if err != nil {
		return nil, err
	}
	text := ""
	if req.Text != nil {
		text = *req.Text
	} else if text, err = s.ReadFile(ctx, req.Path, errcode.TokenCount); err != nil {
		return nil, err
	}
	return &CountResult{Tokens: tok.Count(text), Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok)}, nil
}
