package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// trimConversation handles acode/trimConversation: the messages are
// trimmed to fit, and the trim is recorded for acode/usageStats (and in
// the request's session).
func (s *Server) trimConversation(ctx context.Context, p *conversation.TrimRequest) (*conversation.TrimResult, error) {
	if err := conversation.CheckSessionID(p.SessionID); err != nil {
		return nil, err
	}
	tok, err := s.counterFor(p.Model, p.TokenizerFile)
	if err != nil {
		return nil, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := conversation.Trim(ctx, tok, *p)
	if err != nil {
		return nil, err
	}
	s.usage.Record(res, 0)
	s.logSectionUsage(s.sessions.RecordConversation(p.SessionID, res.FinalTokens, true))
	return res, nil
}
