package lsp

import (
	"errors"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// registerConversation adds the conversation-budget requests of docs/design.md
// ("Conversation budgets"), thin handlers over package conversation.
func (s *Server) registerConversation() {
	s.requests[methodSectionBudget] = rpc.Request(s.sectionBudget)
	s.requests[methodTrimConversation] = rpc.Request(s.trimConversation)
	s.requests[methodFitToolResult] = rpc.Request(s.fitToolResult)
	s.requests[methodCheckConversation] = rpc.Request(s.checkConversation)
	s.requests[methodUsageStats] = s.usageStats
}

// tokenizerFor returns the tokenizer of a request by the core's one rule
// (session.Session.Tokenizer): its model or encoding when it names one,
// else the configured one.
func (s *Server) tokenizerFor(model, encoding string) (tokenizer.Tokenizer, error) {
	return s.conf.env().sess.Tokenizer(model, encoding, "")
}

// counterFor returns the tokenizer a conversation request counts with, by
// the same rule: the Hugging Face tokenizer.json it names in tokenizerFile
// (a relative path is taken from the first workspace root), else its
// model, else the configured one.
//
// The file must resolve inside a workspace root or the user's own
// configuration directory (issue 21: a client could otherwise make the
// server read and compile any file on the machine).
func (s *Server) counterFor(model, file string) (tokenizer.Tokenizer, error) {
	if file != "" {
		roots := s.conf.rootsCopy()
		path := file
		if !filepath.IsAbs(path) && len(roots) > 0 {
			path = filepath.Join(roots[0], path)
		}
		if _, err := tokenizer.CheckFileAllowed(path, roots, tokenizer.UserConfigDir()); err != nil && errors.Is(err, tokenizer.ErrFileNotAllowed) {
			return nil, rpc.NewInvalidParams("tokenizerFile", "%s", strings.TrimPrefix(err.Error(), "tokenizer: "))
		}
	}
	return s.conf.env().sess.Tokenizer(model, "", file)
}

// thresholds are the configured budget thresholds (context.budget.warnings).
func (s *Server) thresholds() budget.Thresholds {
	return s.conf.env().cfg.Context.Budget.Warnings.Thresholds()
}

// logSectionUsage logs a session's section usage at debug level: counts
// and section names only, never the session id or any content.
func (s *Server) logSectionUsage(u conversation.SectionUsage) {
	if u.Method == "" || !s.log.Core().Enabled(zap.DebugLevel) {
		return
	}
	fields := []zap.Field{zap.String("method", u.Method), zap.String("preset", u.Preset),
		zap.Int("total", u.Total), zap.Int("usedTotal", u.UsedTotal)}
	for name, n := range u.Used {
		fields = append(fields, zap.Int("used."+name, n))
	}
	s.log.Debug("section usage", fields...)
}
