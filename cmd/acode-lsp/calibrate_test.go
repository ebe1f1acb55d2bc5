package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestCalibrateRefusesLowerings replays issue 21's attack: five
// `calibrate --actual 60` for a 36 KB text (an agent's usage.input_tokens
// with prompt caching on) used to set the Claude factor to 0.026. Each is
// refused with exit 2 naming --actual and saying why; the factor stays the
// documented default.
func TestCalibrateRefusesLowerings(t *testing.T) {
	dir := t.TempDir()
	cal, err := tokenizer.OpenCalibration(filepath.Join(dir, "state", "calibration.json"))
	if err != nil {
		t.Fatal(err)
	}
	old := tokenizer.DefaultCalibration()
	tokenizer.UseCalibration(cal)
	t.Cleanup(func() { tokenizer.UseCalibration(old) })

	var b strings.Builder
	for i := 0; b.Len() < 36<<10; i++ {
		fmt.Fprintf(&b, "func handler%d(w http.ResponseWriter, r *http.Request) {\n\tw.WriteHeader(%d)\n}\n\n", i, 200+i%5)
	}
	file := filepath.Join(dir, "prompt.txt")
	if err := os.WriteFile(file, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for i := range 5 {
		var stdout, stderr bytes.Buffer
		code := runCalibrate(ctx, []string{"--model", "claude-sonnet-4", "--actual", "60", file}, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), "--actual 60") || !strings.Contains(stderr.String(), "below 0.5") {
			t.Fatalf("report %d: exit %d, stderr %q; want exit 2 naming --actual and why", i, code, stderr.String())
		}
	}
	if ctx.Err() != nil {
		t.Fatal("calibrate did not finish within the deadline")
	}
	tk, _ := tokenizer.ForModel("claude-sonnet-4")
	if est := tokenizer.EstimateOf(tk); est.Factor != tokenizer.FactorClaude || est.Samples != 0 {
		t.Errorf("after 5 refused reports: %+v, want the default %v", *est, tokenizer.FactorClaude)
	}

	// An honest report above the default raises the factor.
	o, _ := tokenizer.ForEncoding(tokenizer.O200kBase)
	actual := o.Count(b.String()) * 3 / 2
	var stdout, stderr bytes.Buffer
	if code := runCalibrate(ctx, []string{"--model", "claude-sonnet-4", "--actual", fmt.Sprint(actual), file}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("honest report: exit %d, %s", code, stderr.String())
	}
	if est := tokenizer.EstimateOf(tk); est.Factor < 1.5 || est.Samples != 1 {
		t.Errorf("after an honest 1.5× report: %+v", *est)
	}
}
