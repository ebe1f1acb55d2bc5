package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/google/go-cmp/cmp"
)

// budgetFields are the fields of acode/budget, exactly (docs/design.md,
// with the thresholds the editors' level labels say, docs/protocol.md).
var budgetFields = []string{"available", "encoding", "exact", "level", "model", "openFiles", "percent", "thresholds", "total", "used"}

// budgetStatus is the payload of acode/budget.
type budgetStatus struct {
	Model     string  `json:"model"`
	Encoding  string  `json:"encoding"`
	Exact     bool    `json:"exact"`
	Total     int     `json:"total"`
	Available int     `json:"available"`
	Used      int     `json:"used"`
	Percent   float64 `json:"percent"`
	Level     string  `json:"level"`
	OpenFiles int     `json:"openFiles"`
}

// decodeBudget checks the exact field set and decodes the payload.
func decodeBudget(t *testing.T, raw json.RawMessage) budgetStatus {
	t.Helper()
	if diff := cmp.Diff(budgetFields, keys(t, raw)); diff != "" {
		t.Errorf("acode/budget fields (-want +got):\n%s", diff)
	}
	var b budgetStatus
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("acode/budget %s: %v", raw, err)
	}
	return b
}

// levelOf is the level of docs/design.md#rule-2 with the default
// thresholds: budget.Level, the one place levels are computed (the e2e
// oracle used to have its own copy, which disagreed at 0 of 0). The levels
// expected by TestE2EBudgetLevels are written out in its table.
func levelOf(used, available int) string {
	return budget.Level(used, available, budget.DefaultThresholds())
}

func TestE2EBudgetNotification(t *testing.T) {
	e, root := session(t, nil)
	svc, model := filepath.Join(root, "cart/service.go"), filepath.Join(root, "cart/model.go")
	svcText, modelText := readFile(t, svc), readFile(t, model)
	nSvc, nModel := count(t, "o200k_base", svcText), count(t, "o200k_base", modelText)
	status := func(used, open int) budgetStatus {
		return budgetStatus{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, Total: 16000, Available: 12000,
			Used: used, Percent: round1(used, 12000), Level: levelOf(used, 12000), OpenFiles: open}
	}
	// waitBudget waits for the notification that reports want.
	waitBudget := func(from int, want budgetStatus) {
		t.Helper()
		raw := waitNote(e, from, "acode/budget", func(p json.RawMessage) bool {
			var b budgetStatus
			return json.Unmarshal(p, &b) == nil && b.OpenFiles == want.OpenFiles && b.Used == want.Used
		})
		if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
			t.Errorf("acode/budget (-want +got):\n%s", diff)
		}
		var got json.RawMessage
		e.Result("acode/budgetStatus", nil, &got)
		if diff := cmp.Diff(want, decodeBudget(t, got)); diff != "" {
			t.Errorf("acode/budgetStatus (-want +got):\n%s", diff)
		}
	}

	from := e.Mark()
	e.Open(svc, "go", svcText)
	waitBudget(from, status(nSvc, 1))

	from = e.Mark()
	e.Open(model, "go", modelText)
	waitBudget(from, status(nSvc+nModel, 2))

	from = e.Mark()
	changed := modelText + "\n// Later is added later.\nfunc Later() {}\n"
	e.Change(model, 2, lsptest.Change{Text: changed})
	waitBudget(from, status(nSvc+count(t, "o200k_base", changed), 2))

	from = e.Mark()
	e.Close(svc)
	waitBudget(from, status(count(t, "o200k_base", changed), 1))

	// A configuration change is announced too.
	from = e.Mark()
	e.Settings(map[string]any{"acode": map[string]any{"model": "gpt-4", "budget": map[string]any{"totalTokens": 50000}}})
	raw := waitNote(e, from, "acode/budget", func(p json.RawMessage) bool {
		var b budgetStatus
		return json.Unmarshal(p, &b) == nil && b.Total == 50000
	})
	n := count(t, "cl100k_base", changed)
	want := budgetStatus{Model: "gpt-4", Encoding: "cl100k_base", Exact: true, Total: 50000, Available: 46000,
		Used: n, Percent: round1(n, 46000), Level: "normal", OpenFiles: 1}
	if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
		t.Errorf("acode/budget after a configuration change (-want +got):\n%s", diff)
	}
}

func TestE2EBudgetLevels(t *testing.T) {
	e, root := session(t, nil)
	// A document whose count is a multiple of 36, so that 80 % and 90 % of
	// some budget are whole numbers of tokens.
	var text string
	n := 0
	for k := 72; ; k++ {
		if k > 2000 {
			t.Fatal("no text with a count that is a multiple of 36")
		}
		text = strings.Repeat("checkout cart ", k/2) + strings.Repeat("empty ", k%2) + "\n"
		if n = count(t, "o200k_base", text); n%36 == 0 {
			break
		}
	}
	path := filepath.Join(root, "notes.txt")
	writeFile(t, path, text)
	e.Open(path, "plaintext", text)

	tests := []struct {
		name      string
		available int
		level     string
	}{
		{"half", 2 * n, "normal"},
		{"just below 80 %", n*100/80 + 1, "normal"},
		{"exactly 80 %", n * 100 / 80, "warning"},
		{"85 %", n * 100 / 85, "warning"},
		{"exactly 90 %", n * 100 / 90, "warning"},
		{"just above 90 %", n*100/90 - 1, "critical"},
		{"full", n, "critical"},
		{"over", n / 2, "critical"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.In(t)
			if got := levelOf(n, tt.available); got != tt.level {
				t.Fatalf("test table: %d of %d is %s, not %s", n, tt.available, got, tt.level)
			}
			e.Settings(map[string]any{"acode": map[string]any{
				"budget": map[string]any{"totalTokens": tt.available, "systemReserve": 0, "responseReserve": 0}}})
			var raw json.RawMessage
			e.Result("acode/budgetStatus", nil, &raw)
			want := budgetStatus{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, Total: tt.available, Available: tt.available,
				Used: n, Percent: round1(n, tt.available), Level: tt.level, OpenFiles: 1}
			if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
