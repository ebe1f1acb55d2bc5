package pack

import (
	"context"
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestClaudePackFitsAfterAnyUsageReports is issue 21's property: after
// any sequence of usage reports — honest ones, an agent's input_tokens
// without its cached prompt tokens, a client that lies — a Claude pack
// recounted with the documented factor (ceil(factor × o200k)) never
// exceeds its budget. Before, five low reports set the factor to ~0.02 and
// a 4,000-token pack came out 5.9× over.
func TestClaudePackFitsAfterAnyUsageReports(t *testing.T) {
	old := tokenizer.DefaultCalibration()
	t.Cleanup(func() { tokenizer.UseCalibration(old) })
	root, err := filepath.Abs(filepath.Join("..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	o200k, _ := tokenizer.ForEncoding(tokenizer.O200kBase)
	texts := []string{"package main\n\nfunc main() {}\n", "SELECT id, name FROM users WHERE id = $1;\n"}
	for i := range 6 {
		texts = append(texts, texts[i%2]+texts[(i+1)%2]+texts[i%2])
	}
	models := []string{"claude-sonnet-4", "claude-sonnet-4-5", "claude-opus-4-7"}
	seeds := 12
	if testing.Short() {
		seeds = 4
	}
	zero := 0
	for seed := range seeds {
		rng := rand.New(rand.NewSource(int64(seed)))
		cal, _ := tokenizer.OpenCalibration(filepath.Join(t.TempDir(), "calibration.json"))
		tokenizer.UseCalibration(cal)
		if seed == 0 { // the attack, for every model
			for _, m := range models {
				for range 5 {
					_, _ = tokenizer.ReportUsage(tokenizer.UsageReport{Model: m, Tokens: 1_000_000, Actual: 1})
				}
			}
		}
		for range 3 + rng.Intn(10) {
			m := models[rng.Intn(len(models))]
			text := texts[rng.Intn(len(texts))]
			r := tokenizer.UsageReport{Model: m, Text: &text}
			switch rng.Intn(4) {
			case 0: // {estimatedTokens: 1e6, actualTokens: 1}
				r.Text, r.Tokens, r.Actual = nil, 1+rng.Intn(1_000_000), 1
			case 1: // input_tokens without the cached prefix
				r.Actual = 1 + rng.Intn(o200k.Count(text))
			default: // honest, anywhere in the accepted range and beyond
				r.Actual = 1 + rng.Intn(5*o200k.Count(text))
			}
			_, _ = tokenizer.ReportUsage(r)
		}
		for _, m := range models {
			total := 400 + rng.Intn(6000)
			req := Request{Query: "checkout fails for empty carts", Model: m, Paths: []string{root},
				Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
			res, err := e.Pack(context.Background(), req, nil, nil)
			if err != nil {
				t.Fatalf("seed %d %s budget %d: %v", seed, m, total, err)
			}
			documented := int(math.Ceil(tokenizer.DefaultFactor(m)*float64(o200k.Count(res.Content)) - 1e-9))
			if documented > total || res.TokenCount > total || res.Estimate == nil || res.Estimate.Factor < tokenizer.DefaultFactor(m) {
				t.Errorf("seed %d %s budget %d: %d tokens with the documented factor (reported %d, estimate %+v)", seed, m, total, documented, res.TokenCount, res.Estimate)
			}
		}
	}
}
