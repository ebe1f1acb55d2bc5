package lsp

import (
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// registerConversation adds the conversation-budget requests of DESIGN.md
// ("Conversation budgets"), thin handlers over package conversation.
func (s *Server) registerConversation() {
	s.requests[methodSectionBudget] = request(s.sectionBudget)
	s.requests[methodTrimConversation] = request(s.trimConversation)
	s.requests[methodFitToolResult] = request(s.fitToolResult)
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
