package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/conversation"
)

// fitToolResult handles acode/fitToolResult: a page of a tool output that
// fits maxTokens, or its summary with mode "history" (read_file summaries
// list the file's top-level declarations; the work history's size comes
// from the session when the request names one and gives no
// historyTokens).
func (s *Server) fitToolResult(ctx context.Context, p *conversation.FitRequest) (*conversation.FitResult, error) {
	if err := conversation.CheckSessionID(p.SessionID); err != nil {
		return nil, err
	}
	tok, err := s.counterFor(p.Model, p.TokenizerFile)
	if err != nil {
		return nil, err
	}
	p.Outline = FileOutline
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
	res, err := conversation.FitToolResult(ctx, tok, *p)
	if err != nil {
		return nil, err
	}
	s.logSectionUsage(s.sessions.RecordFit(p.SessionID, res, p.Mode))
	return res, nil
}

// outlineOptions give one chunk per top-level declaration.
var outlineOptions = chunker.Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}

// FileOutline lists the top-level declarations of a file as "kind name"
// ("function Checkout", "type Cart"), in file order, for read_file history
// summaries. A file the chunker has no grammar for (or cannot parse) has
// none.
func FileOutline(ctx context.Context, path, content string) []string {
	if path == "" || chunker.Language(path) == "" {
		return nil
	}
	chunks, err := chunker.Split(ctx, path, []byte(content), func(string) int { return 0 }, outlineOptions)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range chunks {
		if c.TopLevel && c.Name != "" && c.Kind != "imports" && c.Kind != "package" {
			out = append(out, c.Kind+" "+c.Name)
		}
	}
	return out
}
