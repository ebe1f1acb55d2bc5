package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// waitBudget waits for an acode/budget notification after index after
// that satisfies ok, and returns it with the index to continue from.
func waitBudget(t *testing.T, c *fakeClient, after int, ok func(budgetStatusResult) bool) (budgetStatusResult, int) {
	t.Helper()
	var st budgetStatusResult
	_, next := c.waitNote(methodBudget, after, func(p json.RawMessage) bool {
		var b budgetStatusResult
		if err := json.Unmarshal(p, &b); err != nil {
			t.Fatalf("acode/budget params: %v", err)
		}
		if ok(b) {
			st = b
			return true
		}
		return false
	})
	return st, next
}

func TestBudgetNotifications(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	tok, _ := tokenizer.ForModel("gpt-4o")

	first, next := waitBudget(t, c, 0, func(budgetStatusResult) bool { return true })
	want := budgetStatusResult{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, Total: 100000, Available: 90000, Level: budget.LevelNormal, Thresholds: budget.DefaultThresholds()}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("first acode/budget (-want +got):\n%s", diff)
	}

	a := "package a\n\n// A is a function.\nfunc A() int { return 1 }\n"
	b := strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 40)
	ua := c.open(filepath.Join(root, "a.go"), "go", a)
	c.open(filepath.Join(root, "b.txt"), "plaintext", b)
	used := tok.Count(a) + tok.Count(b)
	st, next := waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.OpenFiles == 2 })
	want.Used, want.OpenFiles, want.Percent = used, 2, percentOf(used, 90000)
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("after two opens (-want +got):\n%s", diff)
	}

	change(c, ua, 2, map[string]any{"text": a + a})
	used = tok.Count(a+a) + tok.Count(b)
	st, next = waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.Used == used })
	if st.OpenFiles != 2 {
		t.Errorf("after a change: openFiles = %d", st.OpenFiles)
	}

	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": ua}})
	st, _ = waitBudget(t, c, next, func(s budgetStatusResult) bool { return s.OpenFiles == 1 })
	want.Used, want.OpenFiles, want.Percent = tok.Count(b), 1, percentOf(tok.Count(b), 90000)
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("after a close (-want +got):\n%s", diff)
	}

	var status budgetStatusResult
	c.result(methodBudgetStatus, nil, &status)
	if diff := cmp.Diff(want, status); diff != "" {
		t.Errorf("acode/budgetStatus (-want +got):\n%s", diff)
	}
}

func TestBudgetLevelsAtTheEdges(t *testing.T) {
	root := tempRoot(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, map[string]any{"budget": map[string]any{"totalTokens": 1000, "systemReserve": 0, "responseReserve": 0}}, root)
	tok, _ := tokenizer.ForModel("gpt-4o")
	text := strings.Repeat("alpha beta gamma delta\n", 60)
	c.open(filepath.Join(root, "big.txt"), "plaintext", text)
	n := tok.Count(text)
	var st budgetStatusResult
	c.result(methodBudgetStatus, nil, &st)
	if want := budget.Level(n, 1000, budget.DefaultThresholds()); st.Used != n || st.Level != want || st.Available != 1000 {
		t.Errorf("status %+v, want used %d level %s", st, n, want)
	}
}

// TestBudgetLevelThresholdsFromConfig: the gauge's level follows
// context.budget.warnings (the same budget.Level as the conversation
// requests).
func TestBudgetLevelThresholdsFromConfig(t *testing.T) {
	tok, _ := tokenizer.ForModel("gpt-4o")
	text := strings.Repeat("alpha beta gamma delta\n", 60) // 300 tokens or so
	n := tok.Count(text)
	tests := []struct {
		name     string
		warnings string
		want     string
		th       budget.Thresholds // sent with the level, for the editors' labels
	}{
		{"defaults: under 80 percent", "", budget.LevelNormal, budget.DefaultThresholds()},
		{"warning from 20 percent", "    warnings: {warning_percent: 20, critical_percent: 90}\n", budget.LevelWarning, budget.Thresholds{WarningPercent: 20, CriticalPercent: 90, MinRemainingTokens: 20000}},
		{"critical from 20 percent", "    warnings: {warning_percent: 10, critical_percent: 20}\n", budget.LevelCritical, budget.Thresholds{WarningPercent: 10, CriticalPercent: 20, MinRemainingTokens: 20000}},
		{"fewer than 950 tokens remaining", "    warnings: {min_remaining_tokens: 950}\n", budget.LevelWarning, budget.Thresholds{WarningPercent: 80, CriticalPercent: 90, MinRemainingTokens: 950}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempRoot(t)
			writeConfig(t, root, "context:\n  budget:\n    total_tokens: 1000\n    system_prompt_reserve: 0\n    response_reserve: 0\n"+tt.warnings)
			c := startServer(t, Options{}, nil)
			c.initialize(nil, nil, root)
			c.open(filepath.Join(root, "big.txt"), "plaintext", text)
			var st budgetStatusResult
			c.result(methodBudgetStatus, nil, &st)
			if st.Used != n || st.Level != tt.want {
				t.Errorf("used %d level %s, want used %d level %s", st.Used, st.Level, n, tt.want)
			}
			if st.Thresholds != tt.th {
				t.Errorf("acode/budgetStatus thresholds %+v, want %+v", st.Thresholds, tt.th)
			}
			note, _ := waitBudget(t, c, 0, func(s budgetStatusResult) bool { return s.OpenFiles == 1 })
			if note.Thresholds != tt.th || note.Level != tt.want {
				t.Errorf("acode/budget level %s thresholds %+v, want %s %+v", note.Level, note.Thresholds, tt.want, tt.th)
			}
		})
	}
}

func TestPercentOf(t *testing.T) {
	tests := []struct {
		part, whole int
		want        float64
	}{
		{12345, 90000, 13.7},
		{1, 3, 33.3},
		{2, 3, 66.7},
		{0, 5, 0},
		{5, 0, 0},
		{90000, 90000, 100},
	}
	for _, tt := range tests {
		if got := percentOf(tt.part, tt.whole); got != tt.want {
			t.Errorf("percentOf(%d, %d) = %v, want %v", tt.part, tt.whole, got, tt.want)
		}
	}
}
