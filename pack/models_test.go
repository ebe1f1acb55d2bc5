package pack

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestPackHoldsBudgetForEveryModelFamily packs the sample workspace for the
// models of issue 12 at small budgets: the tokenCount is the count of the
// model's own tokenizer (recounted here from the content) — or, for models
// without a public tokenizer, ceil(factor × o200k) — and never exceeds what
// is available.
func TestPackHoldsBudgetForEveryModelFamily(t *testing.T) {
	cal, err := tokenizer.OpenCalibration("") // no calibration from the user's state
	if err != nil {
		t.Fatal(err)
	}
	old := tokenizer.DefaultCalibration()
	tokenizer.UseCalibration(cal)
	t.Cleanup(func() { tokenizer.UseCalibration(old) })
	root, err := filepath.Abs(filepath.Join("..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root); err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	models := []struct {
		model, encoding string
		factor          float64 // 0: exact
	}{
		{"llama-3.1-8b-instruct", tokenizer.Llama3, 0},
		{"qwen2.5-coder-32b", tokenizer.Qwen3, 0},
		{"deepseek-chat", tokenizer.DeepseekV3, 0},
		{"gemini-2.5-pro", tokenizer.Gemma3, 0},
		{"claude-sonnet-4-5", "", tokenizer.FactorClaude},
		{"claude-opus-4-7", "", tokenizer.FactorClaudeNew},
		{"some-local-model", "", tokenizer.FactorUnknown},
	}
	zero := 0
	for _, m := range models {
		for _, total := range []int{400, 1500, 6000} {
			total := total
			req := Request{Query: "checkout fails for empty carts", Model: m.model, Paths: []string{root},
				Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
			res, err := e.Pack(context.Background(), req, nil, nil)
			if err != nil {
				t.Fatalf("%s, budget %d: %v", m.model, total, err)
			}
			if res.TokenCount > total || res.TokenCount <= 0 {
				t.Errorf("%s, budget %d: tokenCount %d", m.model, total, res.TokenCount)
			}
			if m.factor == 0 {
				tk, err := tokenizer.ForEncoding(m.encoding)
				if err != nil {
					t.Fatal(err)
				}
				if res.Encoding != m.encoding || !res.Exact || res.Estimate != nil || tk.Count(res.Content) != res.TokenCount {
					t.Errorf("%s, budget %d: encoding %s exact %v, tokenCount %d, recount %d", m.model, total, res.Encoding, res.Exact, res.TokenCount, tk.Count(res.Content))
				}
				continue
			}
			o200k, _ := tokenizer.ForEncoding(tokenizer.O200kBase)
			want := int(math.Ceil(m.factor*float64(o200k.Count(res.Content)) - 1e-9))
			if res.Exact || res.Estimate == nil || res.Estimate.Factor != m.factor || res.Estimate.Basis != tokenizer.O200kBase || res.TokenCount != want {
				t.Errorf("%s, budget %d: exact %v estimate %+v tokenCount %d, want %d", m.model, total, res.Exact, res.Estimate, res.TokenCount, want)
			}
		}
	}
}
