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
