package conversation

import (
	"errors"
	"fmt"

	"github.com/acode-lsp/acode-lsp/budget"
)

// ThresholdParams is the optional "thresholds" param of
// acode/sectionBudget and acode/checkConversation: where the levels start
// for this request. A field left out keeps the server's value
// (context.budget.warnings in the config file, else 80 %, 90 % and 20,000
// tokens).
type ThresholdParams struct {
	WarningPercent     *float64 `json:"warningPercent,omitempty"`
	CriticalPercent    *float64 `json:"criticalPercent,omitempty"`
	MinRemainingTokens *int     `json:"minRemainingTokens,omitempty"`
}

// resolveThresholds overlays the request's thresholds on base (the zero
// value means budget.DefaultThresholds) and validates the result.
func resolveThresholds(p *ThresholdParams, base budget.Thresholds) (budget.Thresholds, error) {
	t := base
	if t == (budget.Thresholds{}) {
		t = budget.DefaultThresholds()
	}
	if p != nil {
		if p.WarningPercent != nil {
			t.WarningPercent = *p.WarningPercent
		}
		if p.CriticalPercent != nil {
			t.CriticalPercent = *p.CriticalPercent
		}
		if p.MinRemainingTokens != nil {
			t.MinRemainingTokens = *p.MinRemainingTokens
		}
	}
	if err := t.Validate(); err != nil {
		var te *budget.ThresholdError
		if errors.As(err, &te) {
			return t, paramErrorf("thresholds."+te.Field, "is %s: %s", te.Value, te.Message)
		}
		return t, paramErrorf("thresholds", "%v", err)
	}
	return t, nil
}

// levelWarning says in words why a budget is at its level, or "" when it
// is normal. what names the budget ("the 6400-token budget").
func levelWarning(level string, used, total int, percent float64, t budget.Thresholds, what string) string {
	remaining := max(total-used, 0)
	switch level {
	case LevelCritical:
		return fmt.Sprintf("%.1f%% of %s used, %d tokens remaining: compress the conversation now (acode/trimConversation)",
			percent, what, remaining)
	case LevelWarning:
		if float64(used)*100 < t.WarningPercent*float64(total) { // the absolute rule
			return fmt.Sprintf("fewer than %d tokens remaining (%d of %s): consider summarizing or completing soon",
				t.MinRemainingTokens, remaining, what)
		}
		return fmt.Sprintf("%.1f%% of %s used, %d tokens remaining: consider compressing the conversation",
			percent, what, remaining)
	}
	return ""
}

// thousands formats n with comma separators (20000 → "20,000").
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
