package lsp

import (
	"context"
	"encoding/json"
)

// budgetStatus handles acode/budgetStatus: the payload of acode/budget,
// computed now. It takes no params.
func (s *Server) budgetStatus(ctx context.Context, _ json.RawMessage) (any, error) {
	return s.currentBudget(ctx)
}

// configChanged is called after a new configuration was applied: editors
// are told the new budget and, when they can, to ask for lenses again.
func (s *Server) configChanged() {
	if s.lifecycle() != stateInitialized {
		return // initialize applies the first configuration; initialized notifies
	}
	s.budget.trigger()
	if s.clientCaps().codeLensRefresh {
		s.spawn(func() {
			if err := s.client.refreshCodeLenses(s.ctx); err != nil {
				s.log.Debug("code lens refresh failed")
			}
		})
	}
}
