package tokenizer

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// withDeadline runs f and fails the test if it does not return within d:
// a hostile report or state file must be refused, never hang.
func withDeadline(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v (hang)", d)
	}
}

// codeText returns about n bytes of Go-like source.
func codeText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "func handler%d(ctx context.Context, req *Request) (*Response, error) {\n\treturn &Response{ID: req.ID + %d}, nil\n}\n\n", i, i)
	}
	return b.String()
}

// TestCalibrationHostileReports replays the attacks of issue 21: five low
// reports (an honest agent's usage.input_tokens with prompt caching on, or
// a lying client) must not lower the factor below the documented default.
func TestCalibrationHostileReports(t *testing.T) {
	o, _ := ForEncoding(O200kBase)
	text := codeText(36 << 10) // a 36 KB text
	basis := o.Count(text)
	for _, tt := range []struct {
		name   string
		model  string
		report UsageReport
	}{
		{"calibrate --actual 60 for 36 KB", "claude-sonnet-4", UsageReport{Model: "claude-sonnet-4", Text: &text, Actual: 60}},
		{"estimatedTokens 1e6 actualTokens 1", "claude-sonnet-4-5", UsageReport{Model: "claude-sonnet-4-5", Tokens: 1_000_000, Actual: 1}},
		{"ratio just below 0.5", "claude-opus-4-7", UsageReport{Model: "claude-opus-4-7", Text: &text, Actual: basis/2 - 1}},
		{"ratio above 4", "claude-3-opus", UsageReport{Model: "claude-3-opus", Text: &text, Actual: basis*4 + 10}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := useTempCalibration(t)
			withDeadline(t, 30*time.Second, func() {
				for range 5 {
					res, err := ReportUsage(tt.report)
					var re *RatioError
					if !errors.As(err, &re) || !errors.Is(err, ErrRatioOutOfRange) || res.Factor != 0 {
						t.Fatalf("ReportUsage = %+v, %v; want a *RatioError", res, err)
					}
					if msg := err.Error(); !strings.Contains(msg, "ratio") || !strings.Contains(msg, "nothing was learned") {
						t.Errorf("the refusal does not say why: %s", msg)
					}
				}
			})
			tk, _ := ForModel(tt.model)
			if est := EstimateOf(tk); est.Factor != DefaultFactor(tt.model) || est.Samples != 0 {
				t.Errorf("after 5 refused reports: %+v, want the default %v", *est, DefaultFactor(tt.model))
			}
			if _, err := os.Stat(path); err == nil {
				t.Error("a refused report was saved")
			}
		})
	}
	// In range but below the default: learned as a sample, never lowering.
	useTempCalibration(t)
	for range 5 {
		if _, err := ReportUsage(UsageReport{Model: "claude-sonnet-4", Text: &text, Actual: basis * 6 / 10}); err != nil {
			t.Fatal(err)
		}
	}
	if f, cal, n := DefaultCalibration().Factor("claude-sonnet-4"); f != FactorClaude || !cal || n != 5 {
		t.Errorf("after 5 ratio-0.6 reports: factor %v calibrated %v samples %d; want %v, true, 5", f, cal, n, FactorClaude)
	}
}

// TestCalibrationConcurrentWriters: reports from many goroutines, each
// with its own Calibration on one file (as separate processes), and from
// one shared Calibration, are all counted.
func TestCalibrationConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "calibration.json")
	const writers, each = 8, 10
	shared, _ := OpenCalibration(path)
	var wg sync.WaitGroup
	withDeadline(t, 60*time.Second, func() {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := shared
				if w%2 == 0 {
					c, _ = OpenCalibration(path)
				}
				for i := range each {
					if _, _, err := c.Report("claude-sonnet-4", 1000, 1000+10*w+i); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
	})
	c, err := OpenCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _, n := c.Factor("claude-sonnet-4")
	if n != writers*each {
		t.Errorf("samples = %d, want %d (a writer lost reports)", n, writers*each)
	}
	if got := c.models["claude-sonnet-4"].MaxRatio; got != 1+float64(10*(writers-1)+each-1)/1000 {
		t.Errorf("maxRatio = %v, want the largest reported", got)
	}
}

// TestCalibrationTwoProcesses runs two writer processes (this test binary
// re-executed, see TestMain) on one file: no sample is lost.
func TestCalibrationTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes; covered in-process by TestCalibrationConcurrentWriters")
	}
	path := filepath.Join(t.TempDir(), "calibration.json")
	const procs, each = 2, 40
	var cmds []*exec.Cmd
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for range procs {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), calWriterEnv+"="+path, calWriterCountEnv+"="+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	c, err := OpenCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, n := c.Factor("claude-sonnet-4"); n != procs*each {
		t.Errorf("samples = %d, want %d (a process lost reports)", n, procs*each)
	}
}

// Environment of the writer processes of TestCalibrationTwoProcesses.
const (
	calWriterEnv      = "ACODE_TEST_CALIBRATION_WRITER"
	calWriterCountEnv = "ACODE_TEST_CALIBRATION_COUNT"
)

// calibrationWriter is the body of a writer process.
func calibrationWriter(path string) int {
	n, _ := strconv.Atoi(os.Getenv(calWriterCountEnv))
	c, _ := OpenCalibration(path)
	for i := range n {
		if _, _, err := c.Report("claude-sonnet-4", 1000, 1100+i); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestCalibrationNeverLowersProperty: after any sequence of usage reports,
// honest and hostile, a "pack" filled to a budget with the calibrated
// estimate and recounted with the documented factor never exceeds the
// budget — the effective factor never drops below the default.
func TestCalibrationNeverLowersProperty(t *testing.T) {
	o, _ := ForEncoding(O200kBase)
	models := []string{"claude-sonnet-4", "claude-opus-4-7", "claude-3-5-haiku", "mystery-model"}
	texts := make([]string, 40)
	for i := range texts {
		texts[i] = codeText(200 + 97*i)
	}
	iters := 60
	if testing.Short() {
		iters = 20
	}
	for seed := range iters {
		rng := rand.New(rand.NewSource(int64(seed)))
		path := useTempCalibration(t)
		if seed%3 == 0 { // sometimes start from a hostile file
			os.MkdirAll(filepath.Dir(path), 0o700)
			os.WriteFile(path, []byte(`{"version":1,"models":{"claude-sonnet-4":{"maxRatio":0.001,"samples":5},"mystery-model":{"maxRatio":0.5,"samples":9}}}`), 0o600)
			c, _ := OpenCalibration(path)
			UseCalibration(c)
		}
		for range 1 + rng.Intn(12) {
			m := models[rng.Intn(len(models))]
			text := texts[rng.Intn(len(texts))]
			tk, _ := ForModel(m)
			r := UsageReport{Model: m, Actual: 1 + rng.Intn(o.Count(text)*6)}
			switch rng.Intn(4) {
			case 0: // hostile: tiny actual for a huge estimate
				r.Tokens, r.Actual = 1+rng.Intn(2_000_000), 1+rng.Intn(3)
			case 1:
				r.Tokens = tk.Count(text)
			default:
				r.Text = &text
			}
			_, _ = ReportUsage(r)
		}
		for _, m := range models {
			tk, _ := ForModel(m)
			def := DefaultFactor(m)
			if est := EstimateOf(tk); est.Factor < def {
				t.Fatalf("seed %d: %s factor %v below the default %v", seed, m, est.Factor, def)
			}
			budget := 500 + rng.Intn(20000)
			used, documented := 0, 0
			for _, i := range rng.Perm(len(texts)) {
				n := tk.Count(texts[i])
				if used+n > budget {
					continue
				}
				used += n
				documented += scale(o.Count(texts[i]), def)
			}
			if documented > budget {
				t.Fatalf("seed %d: %s pack of %d estimated tokens is %d with the documented factor, over the budget %d", seed, m, used, documented, budget)
			}
		}
	}
}
