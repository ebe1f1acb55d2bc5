package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

func TestReportUsage(t *testing.T) {
	state := filepath.Join(t.TempDir(), "calibration.json")
	cal, err := tokenizer.OpenCalibration(state)
	if err != nil {
		t.Fatal(err)
	}
	old := tokenizer.DefaultCalibration()
	tokenizer.UseCalibration(cal)
	t.Cleanup(func() { tokenizer.UseCalibration(old) })

	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, tempRoot(t))
	text := "func Checkout(ctx context.Context, cart *Cart) error { return nil }\n"
	o200k, _ := tokenizer.ForEncoding("o200k_base")
	basis := o200k.Count(text)

	// Before: the documented default, not calibrated.
	var before countTokensResult
	c.result(methodCountTokens, map[string]any{"text": text, "model": "claude-sonnet-4-5"}, &before)
	if before.Exact || before.Estimate == nil || before.Estimate.Calibrated || before.Estimate.Factor != tokenizer.FactorClaude || before.Estimate.Basis != "o200k_base" {
		t.Fatalf("before calibration: %+v", before)
	}

	// The provider counted 1.4× o200k: the factor rises above that.
	actual := basis*14/10 + 1
	var res tokenizer.UsageResult
	c.result(methodReportUsage, map[string]any{"model": "claude-sonnet-4-5", "text": text, "actualTokens": actual}, &res)
	ratio := float64(actual) / float64(basis)
	if res.Model != "claude-sonnet-4-5" || res.Samples != 1 || res.Factor < ratio+tokenizer.CalibrationMargin-1e-9 {
		t.Errorf("reportUsage = %+v, want factor ≥ %.3f, 1 sample", res, ratio+tokenizer.CalibrationMargin)
	}
	var after countTokensResult
	c.result(methodCountTokens, map[string]any{"text": text, "model": "claude-sonnet-4-5"}, &after)
	if !after.Estimate.Calibrated || after.Estimate.Factor != res.Factor || after.Tokens < actual {
		t.Errorf("after calibration: %+v (the provider counted %d)", after, actual)
	}

	// Survives a restart: the file holds the factor, never the text.
	data, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "Checkout") {
		t.Errorf("the state file holds text:\n%s", data)
	}
	reopened, _ := tokenizer.OpenCalibration(state)
	if f, cal, n := reopened.Factor("claude-sonnet-4-5"); f != res.Factor || !cal || n != 1 {
		t.Errorf("after a restart: %v %v %d", f, cal, n)
	}

	// By estimatedTokens instead of text.
	c.result(methodReportUsage, map[string]any{"model": "claude-sonnet-4-5", "estimatedTokens": after.Tokens, "actualTokens": after.Tokens}, &res)
	if res.Samples != 2 {
		t.Errorf("second report: %+v", res)
	}

	// Exact models are checked, not learned.
	gpt, _ := tokenizer.ForModel("gpt-4o")
	c.result(methodReportUsage, map[string]any{"model": "gpt-4o", "text": text, "actualTokens": gpt.Count(text)}, &res)
	if !res.Exact || res.Match == nil || !*res.Match || res.Factor != 1 {
		t.Errorf("exact model: %+v, want exact and matching", res)
	}

	bad := []struct {
		name   string
		params map[string]any
		field  string
	}{
		{"no model", map[string]any{"text": text, "actualTokens": 5}, "model"},
		{"no actual", map[string]any{"model": "claude-3-opus", "text": text}, "actualTokens"},
		{"zero actual", map[string]any{"model": "claude-3-opus", "text": text, "actualTokens": 0}, "actualTokens"},
		{"neither", map[string]any{"model": "claude-3-opus", "actualTokens": 5}, "text"},
		{"both", map[string]any{"model": "claude-3-opus", "text": text, "estimatedTokens": 3, "actualTokens": 5}, "estimatedTokens"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(methodReportUsage, tt.params)
			if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, tt.field) {
				t.Errorf("got %+v, want -32602 naming %s", m.Error, tt.field)
			}
		})
	}
	// A ratio outside [0.5, 4] is refused as invalid params naming the
	// field, with the reason (docs/design.md rule 1: a report can only raise
	// a factor). It was -32803 before issue 21.
	m := c.call(methodReportUsage, map[string]any{"model": "claude-3-opus", "text": text, "actualTokens": basis * 100})
	if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "actualTokens") || !strings.Contains(m.Error.Message, "above 4") {
		t.Errorf("an impossible ratio: %+v, want -32602 naming actualTokens and why", m.Error)
	}
}

// TestReportUsageHostile replays issue 21's attack: five reports of
// {estimatedTokens: 1e6, actualTokens: 1} used to set the Claude factor to
// 0.021; each is refused and the factor stays the documented default.
func TestReportUsageHostile(t *testing.T) {
	state := filepath.Join(t.TempDir(), "calibration.json")
	cal, _ := tokenizer.OpenCalibration(state)
	old := tokenizer.DefaultCalibration()
	tokenizer.UseCalibration(cal)
	t.Cleanup(func() { tokenizer.UseCalibration(old) })

	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, tempRoot(t))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 5 {
			m := c.call(methodReportUsage, map[string]any{"model": "claude-sonnet-4-5", "estimatedTokens": 1_000_000, "actualTokens": 1})
			if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "actualTokens") || !strings.Contains(m.Error.Message, "below 0.5") {
				t.Errorf("hostile report: %+v, want -32602 naming actualTokens and why", m.Error)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("reportUsage did not answer within 30s")
	}
	var after countTokensResult
	c.result(methodCountTokens, map[string]any{"text": "package main\n", "model": "claude-sonnet-4-5"}, &after)
	if after.Estimate == nil || after.Estimate.Factor != tokenizer.FactorClaude || after.Estimate.Samples != 0 {
		t.Errorf("after 5 hostile reports: %+v, want the default factor %v", after.Estimate, tokenizer.FactorClaude)
	}
}
