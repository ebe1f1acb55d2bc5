package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
	"github.com/acode-lsp/acode-lsp/session"
)

// fitParams is the params of acode/fitToolResult: content may be left out
// when path names a workspace file, which the server then reads (as MCP's
// fit_tool_result does).
type fitParams struct {
	conversation.FitRequest
	Content   *string        `json:"content"`
	MaxTokens *config.Tokens `json:"maxTokens"` // 8000 or "8k"
}

// fitToolResult handles acode/fitToolResult through the core
// (session.Session.Fit: the tokenizer rule, the 8,000 default, redaction):
// a page of a tool output — or of the workspace file path names, when no
// content is given — that fits maxTokens, or its summary with mode
// "history" (read_file summaries list the file's top-level declarations;
// the work history's size comes from the session when the request names
// one and gives no historyTokens).
func (s *Server) fitToolResult(ctx context.Context, fp *fitParams) (*conversation.FitResult, error) {
	p := &fp.FitRequest
	if fp.MaxTokens != nil {
		p.MaxTokens = int(*fp.MaxTokens)
	}
	req := session.FitRequest{}
	switch {
	case fp.Content != nil:
		p.Content = *fp.Content
	case p.Path != "":
		req.ReadPath = true
	default:
		return nil, rpc.NewInvalidParams("content", "required (or path: a workspace file to page)")
	}
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
	req.FitRequest = *p
	res, err := e.sess.Fit(ctx, req)
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
