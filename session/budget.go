package session

import "github.com/acode-lsp/acode-lsp/config"

// ContextBudget is what "budget N" means wherever a caller says budget —
// the command line's --budget, MCP's budget, an editor's per-pack budget
// (docs/design.md rule 2): the room the context itself may take, so
// available = N, with no reserves subtracted. A door that states a model
// window instead passes the configured reserves (TotalTokens only).
func ContextBudget(n int) *config.BudgetOverrides {
	zero := 0
	return &config.BudgetOverrides{TotalTokens: &n, SystemReserve: &zero, ResponseReserve: &zero}
}

// DefaultPackBudget is the budget of an MCP pack_context call that gives
// none: the tokens the returned context may take.
const DefaultPackBudget = 16000
