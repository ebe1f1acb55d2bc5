package lsp

import (
	"context"

	"github.com/acode-lsp/acode-lsp/conversation"
)

// sectionBudget handles acode/sectionBudget: the per-section allocation of
// a conversation's context window.
func (s *Server) sectionBudget(_ context.Context, p *conversation.SectionBudgetRequest) (*conversation.SectionBudgetResult, error) {
	return conversation.SectionBudget(*p)
}
