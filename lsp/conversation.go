package lsp

import (
	"os"
	"path/filepath"

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

// tokenizerFor returns the tokenizer of a request: its model or encoding
// when it names one, else the configured one. field names the parameter
// blamed for an unknown encoding.
func (s *Server) tokenizerFor(model, encoding, field string) (tokenizer.Tokenizer, error) {
	if model == "" && encoding == "" {
		return s.conf.env().tok, nil
	}
	t, err := s.conf.tokenizers.Get(model, encoding, 0)
	if err != nil {
		return nil, rpc.NewInvalidParams(field, "%v", err)
	}
	return t, nil
}

// counterFor returns the tokenizer a conversation request counts with:
// the Hugging Face tokenizer.json it names in tokenizerFile (a relative
// path is taken from the first workspace root), else its model, else the
// configured one. Counts are cached per file as per encoding.
func (s *Server) counterFor(model, file string) (tokenizer.Tokenizer, error) {
	if file == "" {
		return s.tokenizerFor(model, "", "model")
	}
	path := file
	if !filepath.IsAbs(path) {
		roots := s.conf.rootsCopy()
		if len(roots) == 0 {
			return nil, rpc.NewInvalidParams("tokenizerFile", "%q is a relative path and there is no workspace root: give an absolute path to the tokenizer.json", file)
		}
		path = filepath.Join(roots[0], path)
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, rpc.NewInvalidParams("tokenizerFile", "%q is not a readable file: name a Hugging Face tokenizer.json", file)
	}
	t, err := tokenizer.ForFile(path)
	if err != nil {
		return nil, rpc.NewInvalidParams("tokenizerFile", "%v", err)
	}
	return s.conf.tokenizers.Add(t, tokenizer.DefaultCacheSize), nil
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
