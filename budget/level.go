package budget

import (
	"fmt"
	"math"
)

// Budget levels: how full a budget is. The editors' gauges (acode/budget)
// and the conversation requests (acode/sectionBudget,
// acode/checkConversation) use the same three names and the same
// [Thresholds].
const (
	LevelNormal   = "normal"
	LevelWarning  = "warning"
	LevelCritical = "critical"
)

// Default thresholds (seed 002's table, seed 004's budget alert).
const (
	DefaultWarningPercent     = 80
	DefaultCriticalPercent    = 90
	DefaultMinRemainingTokens = 20000
)

// Thresholds are where the levels start. A budget is at [LevelWarning]
// from WarningPercent of it used, or when fewer than MinRemainingTokens
// remain (that absolute rule only applies to budgets larger than
// MinRemainingTokens; 0 turns it off), and at [LevelCritical] above
// CriticalPercent. The JSON names are those of the requests' "thresholds"
// param; the config file spells them in snake case
// (context.budget.warnings).
type Thresholds struct {
	WarningPercent     float64 `json:"warningPercent"`
	CriticalPercent    float64 `json:"criticalPercent"`
	MinRemainingTokens int     `json:"minRemainingTokens"`
}

// DefaultThresholds returns 80 %, 90 % and 20,000 tokens.
func DefaultThresholds() Thresholds {
	return Thresholds{
		WarningPercent:     DefaultWarningPercent,
		CriticalPercent:    DefaultCriticalPercent,
		MinRemainingTokens: DefaultMinRemainingTokens,
	}
}

// ThresholdError is an invalid [Thresholds] value; Field is the JSON name
// of the offending threshold.
type ThresholdError struct {
	Field   string
	Value   string
	Message string
}

func (e *ThresholdError) Error() string {
	return fmt.Sprintf("budget: %s = %s: %s", e.Field, e.Value, e.Message)
}

// Validate checks 0 < warningPercent ≤ criticalPercent ≤ 100 and
// minRemainingTokens ≥ 0.
func (t Thresholds) Validate() error {
	switch {
	case math.IsNaN(t.WarningPercent) || t.WarningPercent <= 0 || t.WarningPercent > 100:
		return &ThresholdError{"warningPercent", fmt.Sprint(t.WarningPercent), "must be greater than 0 and at most 100 (default 80)"}
	case math.IsNaN(t.CriticalPercent) || t.CriticalPercent <= 0 || t.CriticalPercent > 100:
		return &ThresholdError{"criticalPercent", fmt.Sprint(t.CriticalPercent), "must be greater than 0 and at most 100 (default 90)"}
	case t.CriticalPercent < t.WarningPercent:
		return &ThresholdError{"criticalPercent", fmt.Sprint(t.CriticalPercent),
			fmt.Sprintf("must be at least warningPercent (%g): the warning level comes before the critical one", t.WarningPercent)}
	case t.MinRemainingTokens < 0:
		return &ThresholdError{"minRemainingTokens", fmt.Sprint(t.MinRemainingTokens), "must not be negative (0 turns the rule off, default 20000)"}
	}
	return nil
}

// Level classifies used tokens against a total under t:
//
//   - [LevelCritical] when more than CriticalPercent of total is used, and
//     whenever total ≤ 0 (there is no room at all: even used = 0 of 0 is
//     critical, because any content would overflow);
//   - [LevelWarning] from WarningPercent to CriticalPercent inclusive, or
//     when fewer than MinRemainingTokens remain of a total larger than
//     MinRemainingTokens;
//   - [LevelNormal] otherwise.
//
// It is the only place levels are computed (acode/budget,
// acode/sectionBudget, acode/checkConversation). t is assumed valid
// ([Thresholds.Validate]).
func Level(used, total int, t Thresholds) string {
	if total <= 0 {
		return LevelCritical
	}
	u, n := float64(used)*100, float64(total)
	switch {
	case u > t.CriticalPercent*n:
		return LevelCritical
	case u >= t.WarningPercent*n:
		return LevelWarning
	case t.MinRemainingTokens > 0 && total > t.MinRemainingTokens && total-used < t.MinRemainingTokens:
		return LevelWarning
	}
	return LevelNormal
}
