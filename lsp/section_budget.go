package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// sectionBudget handles acode/sectionBudget: the per-section allocation of
// a conversation's context window, with the configured thresholds, and
// per session when the request names one.
func (s *Server) sectionBudget(_ context.Context, p *conversation.SectionBudgetRequest) (*conversation.SectionBudgetResult, error) {
	p.BaseThresholds = s.thresholds()
	res, u, err := s.sessions.SectionBudget(*p)
	if err != nil {
		return nil, err
	}
	s.logSectionUsage(u)
	return res, nil
}
