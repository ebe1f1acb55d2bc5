package tokenizer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain keeps the tests away from the user's calibration: estimates read
// $XDG_STATE_HOME/acode-lsp/calibration.json.
func TestMain(m *testing.M) {
	if path := os.Getenv(calWriterEnv); path != "" {
		os.Exit(calibrationWriter(path)) // a writer of TestCalibrationTwoProcesses
	}
	dir, err := os.MkdirTemp("", "acode-tokenizer-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestDefaultFactor(t *testing.T) {
	tests := []struct {
		model string
		want  float64
	}{
		{"claude-3-5-sonnet-20241022", FactorClaude},
		{"claude-3-7-sonnet-latest", FactorClaude},
		{"claude-sonnet-4-20250514", FactorClaude},
		{"claude-sonnet-4-5", FactorClaude},
		{"claude-opus-4-1", FactorClaude},
		{"claude-opus-4-6", FactorClaude},
		{"anthropic/claude-sonnet-4.5", FactorClaude},
		{"us.anthropic.claude-3-5-haiku-20241022-v1:0", FactorClaude},
		{"claude-opus-4-7", FactorClaudeNew},
		{"claude-opus-4.7", FactorClaudeNew},
		{"claude-sonnet-5", FactorClaudeNew},
		{"claude-next", FactorClaudeNew},
		{"mistral-large", FactorUnknown},
		{"", FactorUnknown},
	}
	for _, tt := range tests {
		if got := DefaultFactor(tt.model); got != tt.want {
			t.Errorf("DefaultFactor(%q) = %v, want %v", tt.model, got, tt.want)
		}
	}
}

func TestScale(t *testing.T) {
	tests := []struct {
		n    int
		f    float64
		want int
	}{
		{0, 1.55, 0}, {1, 1.25, 2}, {4, 1.25, 5}, {100, 1.55, 155}, {101, 1.55, 157}, {7, 1.0, 7}, {3, 1.001, 4},
	}
	for _, tt := range tests {
		if got := scale(tt.n, tt.f); got != tt.want {
			t.Errorf("scale(%d, %v) = %d, want %d", tt.n, tt.f, got, tt.want)
		}
	}
}

// useTempCalibration points the process's calibration at a file in a
// temporary directory for one test.
func useTempCalibration(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "acode-lsp", "calibration.json")
	c, err := OpenCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	old := DefaultCalibration()
	UseCalibration(c)
	t.Cleanup(func() { UseCalibration(old) })
	return path
}

func TestEstimatorIsFactorTimesO200k(t *testing.T) {
	useTempCalibration(t)
	o, err := ForEncoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	text := "func main() {\n\tfmt.Println(\"hello, world\")\n}\n"
	for _, model := range []string{"claude-sonnet-4-5", "claude-opus-4-7", "some-unknown-model"} {
		tk, err := ForModel(model)
		if err != nil {
			t.Fatal(err)
		}
		est := EstimateOf(tk)
		if tk.Exact() || est == nil {
			t.Fatalf("%s: exact=%v estimate=%v, want an estimate", model, tk.Exact(), est)
		}
		want := scale(o.Count(text), DefaultFactor(model))
		if got := tk.Count(text); got != want || est.Factor != DefaultFactor(model) || est.Basis != O200kBase || est.Calibrated || est.Samples != 0 {
			t.Errorf("%s: Count = %d (want %d), estimate %+v", model, got, want, *est)
		}
	}
	if tk, _ := ForModel("gpt-4o"); EstimateOf(tk) != nil || EstimateOf(NewCached(tk, 0)) != nil {
		t.Error("an exact tokenizer has an estimate")
	}
	// Cached estimates cache the basis and scale with the current factor.
	tk, _ := ForModel("claude-sonnet-4-5")
	c := NewCached(tk, 0)
	if c.Count(text) != tk.Count(text) || c.Exact() || c.Encoding() != "estimate:claude-sonnet-4-5×1.25" || *EstimateOf(c) != *EstimateOf(tk) {
		t.Errorf("cached estimate: %d %v %s %+v", c.Count(text), c.Exact(), c.Encoding(), EstimateOf(c))
	}
	basis := o.Count(text)
	if _, err := ReportUsage(UsageReport{Model: "claude-sonnet-4-5", Text: &text, Actual: basis * 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := c.Count(text), scale(basis, 2+CalibrationMargin); got != want || !strings.HasSuffix(c.Encoding(), "×2.02") {
		t.Errorf("cached estimate after calibration: %d (%s), want %d", got, c.Encoding(), want)
	}
}

func TestCalibration(t *testing.T) {
	path := useTempCalibration(t)
	o, _ := ForEncoding(O200kBase)
	secret := "package main // a text that must never reach the state file"
	basis := o.Count(secret)
	model := "claude-sonnet-4-5"

	// A first report below the default keeps the default (too few samples).
	res, err := ReportUsage(UsageReport{Model: model, Text: &secret, Actual: basis})
	if err != nil {
		t.Fatal(err)
	}
	if res.Factor != FactorClaude || res.Samples != 1 {
		t.Errorf("after a ratio-1 report: %+v, want the default %v and 1 sample", res, FactorClaude)
	}
	// A report above the default raises the factor above the ratio.
	actual := basis * 3 / 2
	res, err = ReportUsage(UsageReport{Model: model, Text: &secret, Actual: actual})
	if err != nil {
		t.Fatal(err)
	}
	ratio := float64(actual) / float64(basis)
	if res.Factor < ratio+CalibrationMargin-1e-9 || res.Samples != 2 {
		t.Errorf("after a ratio-%.3f report: %+v, want factor ≥ %.3f", ratio, res, ratio+CalibrationMargin)
	}
	tk, _ := ForModel(model)
	if est := EstimateOf(tk); !est.Calibrated || est.Factor != res.Factor || est.Samples != 2 {
		t.Errorf("estimate after calibration: %+v", *est)
	}
	if got := tk.Count(secret); got < actual {
		t.Errorf("calibrated estimate %d is below the reported real count %d", got, actual)
	}

	// Persisted, without text, and read back by a new process.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "package main") {
		t.Errorf("the state file holds text: %s", data)
	}
	c2, err := OpenCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	if f, cal, n := c2.Factor(model); f != res.Factor || !cal || n != 2 {
		t.Errorf("reopened: factor %v calibrated %v samples %d; want %v, true, 2", f, cal, n, res.Factor)
	}

	// A report by count (no text) uses the factor that produced it.
	est := tk.Count(secret)
	if _, err := ReportUsage(UsageReport{Model: model, Tokens: est, Actual: est}); err != nil {
		t.Fatal(err)
	}

	// Exact models are checked, not learned.
	res, err = ReportUsage(UsageReport{Model: "gpt-4o", Text: &secret, Actual: basis + 1})
	if err != nil || !res.Exact || res.Match == nil || *res.Match || res.Factor != 1 {
		t.Errorf("exact model report: %+v, %v; want exact, no match", res, err)
	}
	if _, cal, _ := c2.Factor("gpt-4o"); cal {
		t.Error("an exact model was learned")
	}

	// Bad reports.
	for _, r := range []UsageReport{
		{Model: model, Text: &secret, Actual: 0},
		{Model: model, Text: &secret, Actual: basis * 50},
		{Model: model, Tokens: 0, Actual: 10},
	} {
		if _, err := ReportUsage(r); err == nil {
			t.Errorf("ReportUsage(%+v) succeeded", r)
		}
	}
}

func TestCalibrationCorruptAndBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "calibration.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCalibration(path)
	if err == nil {
		t.Error("a corrupt file was not reported")
	}
	if f, cal, _ := c.Factor("claude-opus-4-7"); f != FactorClaudeNew || cal {
		t.Errorf("corrupt file: factor %v calibrated %v", f, cal)
	}
	for i := range calibrationMaxModels + 20 {
		if _, _, err := c.Report("model-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+itoa(i), 100, 120); err != nil {
			t.Fatal(err)
		}
	}
	c2, err := OpenCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c2.models) != calibrationMaxModels {
		t.Errorf("file holds %d models, want the bound %d", len(c2.models), calibrationMaxModels)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, ".calibration-*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
