package lsp

import (
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
)

// registerConversation adds the conversation-budget requests of DESIGN.md
// ("Conversation budgets"), thin handlers over package conversation.
func (s *Server) registerConversation() {
	s.requests[methodSectionBudget] = request(s.sectionBudget)
	s.requests[methodTrimConversation] = request(s.trimConversation)
	s.requests[methodFitToolResult] = request(s.fitToolResult)
	s.requests[methodCheckConversation] = request(s.checkConversation)
	s.requests[methodUsageStats] = s.usageStats
}

// tokenizerFor returns the tokenizer of a request: its model or encoding
// when it names one, else the configured one. field names the parameter
// blamed for an unknown encoding.
func (s *Server) tokenizerFor(model, encoding, field string) (tokenizer.Tokenizer, error) {
	if model == "" && encoding == "" {
		return s.conf.env().tok, nil
	}
	t, err := s.conf.tokenizer(model, encoding, 0)
	if err != nil {
		return nil, invalidParams(field, "%v", err)
	}
	return t, nil
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
