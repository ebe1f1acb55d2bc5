package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

func TestBudgetWarnings(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want budget.Thresholds
		key  string // the problem's key when invalid
		msg  string
	}{
		{name: "defaults", yaml: "context: {}\n", want: budget.DefaultThresholds()},
		{name: "all three", yaml: "context:\n  budget:\n    warnings: {warning_percent: 70, critical_percent: 85, min_remaining_tokens: 5000}\n",
			want: budget.Thresholds{WarningPercent: 70, CriticalPercent: 85, MinRemainingTokens: 5000}},
		{name: "one key keeps the other defaults", yaml: "context:\n  budget:\n    warnings:\n      min_remaining_tokens: 0\n",
			want: budget.Thresholds{WarningPercent: 80, CriticalPercent: 90, MinRemainingTokens: 0}},
		{name: "critical below warning", yaml: "context:\n  budget:\n    warnings: {warning_percent: 95}\n",
			key: "context.budget.warnings.critical_percent", msg: "at least warningPercent"},
		{name: "percent over 100", yaml: "context:\n  budget:\n    warnings: {critical_percent: 150}\n",
			key: "context.budget.warnings.critical_percent", msg: "at most 100"},
		{name: "negative tokens", yaml: "context:\n  budget:\n    warnings: {min_remaining_tokens: -1}\n",
			key: "context.budget.warnings.min_remaining_tokens", msg: "must not be negative"},
		{name: "unknown key", yaml: "context:\n  budget:\n    warnings: {warn_percent: 70}\n",
			key: "context.budget.warnings.warn_percent", msg: "warning_percent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tt.yaml), "test.yml")
			if tt.key == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := cfg.Context.Budget.Warnings.Thresholds(); got != tt.want {
					t.Errorf("thresholds %+v, want %+v", got, tt.want)
				}
				return
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v, want *config.Error", err)
			}
			for _, p := range ce.Problems {
				if p.Key == tt.key && strings.Contains(ce.Error(), tt.msg) && p.Fix != "" {
					return
				}
			}
			t.Errorf("problems %v, want one on %s saying %q", ce.Problems, tt.key, tt.msg)
		})
	}
}
