package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/session"
)

// fitToolResult handles acode/fitToolResult through the core
// (session.Session.Fit: the tokenizer rule, the 8,000 default, redaction):
// a page of a tool output that fits maxTokens, or its summary with mode
// "history" (read_file summaries list the file's top-level declarations;
// the work history's size comes from the session when the request names
// one and gives no historyTokens).
func (s *Server) fitToolResult(ctx context.Context, p *conversation.FitRequest) (*conversation.FitResult, error) {
	if err := conversation.CheckSessionID(p.SessionID); err != nil {
		return nil, err
	}
	e := s.conf.env()
	if _, err := e.sess.Tokenizer(p.Model, "", p.TokenizerFile); err != nil {
		return nil, err
	}
	if p.Mode == conversation.ModeHistory && p.HistoryTokens == nil {
		if n, ok := s.sessions.HistoryTokens(p.SessionID); ok {
			p.HistoryTokens = &n
		}
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := e.sess.Fit(ctx, session.FitRequest{FitRequest: *p})
	if err != nil {
		return nil, err
	}
	s.logSectionUsage(s.sessions.RecordFit(p.SessionID, res, p.Mode))
	return res, nil
}

// FileOutline lists the top-level declarations of a file for read_file
// history summaries (session.FileOutline).
func FileOutline(ctx context.Context, path, content string) []string {
	return session.FileOutline(ctx, path, content)
}
