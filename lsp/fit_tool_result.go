package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// fitToolResult handles acode/fitToolResult: a page of a tool output that
// fits maxTokens, or its summary with mode "history".
func (s *Server) fitToolResult(ctx context.Context, p *conversation.FitRequest) (*conversation.FitResult, error) {
	tok, err := s.tokenizerFor(p.Model, "", "model")
	if err != nil {
		return nil, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return conversation.FitToolResult(ctx, tok, *p)
}
