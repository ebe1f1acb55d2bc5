package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// trimConversation handles acode/trimConversation through the core
// (session.Session.Trim): the messages are trimmed to fit, and the trim is recorded for acode/usageStats (and in
// the request's session).
func (s *Server) trimConversation(ctx context.Context, p *conversation.TrimRequest) (*conversation.TrimResult, error) {
	if err := conversation.CheckSessionID(p.SessionID); err != nil {
		return nil, err
	}
	e := s.conf.env()
	if _, err := e.sess.Tokenizer(p.Model, "", p.TokenizerFile); err != nil {
		return nil, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := e.sess.Trim(ctx, *p) // the core: the configured model, redaction
	if err != nil {
		return nil, err
	}
	s.usage.Record(res, 0)
	s.logSectionUsage(s.sessions.RecordConversation(p.SessionID, res.FinalTokens, true))
	return res, nil
}
