package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// methodCheckConversation measures a conversation against its budget
// without trimming it (seed 003's checkBudget).
const methodCheckConversation = "acode/checkConversation"

// checkConversation handles acode/checkConversation.
func (s *Server) checkConversation(ctx context.Context, p *conversation.CheckRequest) (*conversation.CheckResult, error) {
	if err := conversation.CheckSessionID(p.SessionID); err != nil {
		return nil, err
	}
	tok, err := s.counterFor(p.Model, p.TokenizerFile)
	if err != nil {
		return nil, err
	}
	p.BaseThresholds = s.thresholds()
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := conversation.CheckConversation(ctx, tok, *p)
	if err != nil {
		return nil, err
	}
	s.logSectionUsage(s.sessions.RecordConversation(p.SessionID, res.CurrentTokens, false))
	return res, nil
}
