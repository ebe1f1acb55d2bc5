package lsp

import (
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
func (s *Server) counterFor(model, file string) (tokenizer.Tokenizer, error) {
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
