package tokenizer

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// Calibration learns, per model without a public tokenizer, the largest
// ratio between the provider's real token count and the o200k_base count
// of the same text (acode/reportUsage, acode-lsp calibrate). It keeps
// numbers only — never text — in a small JSON file in the user's state
// directory, written atomically (a temporary file renamed over it); a
// corrupt or unreadable file is ignored and replaced on the next report.
type Calibration struct {
	mu     sync.Mutex
	path   string // "" keeps it in memory only
	models map[string]calEntry
}

type calEntry struct {
	MaxRatio float64   `json:"maxRatio"`
	Samples  int       `json:"samples"`
	Updated  time.Time `json:"updated"`
}

type calFile struct {
	Version int                 `json:"version"`
	Models  map[string]calEntry `json:"models"`
}

// Calibration limits and margins.
const (
	// CalibrationMargin is added to the largest observed ratio.
	CalibrationMargin = 0.02
	// calibrationTrusted is the number of samples after which the learned
	// factor replaces the default even when it is lower.
	calibrationTrusted = 5
	// calibrationMaxModels bounds the file; the least recently updated
	// model is dropped first.
	calibrationMaxModels = 256
	// maxRatio rejects reports that cannot be a token count of the text.
	maxRatio = 10.0
)

// CalibrationPath returns the default calibration file:
// $XDG_STATE_HOME/acode-lsp/calibration.json, else
// ~/.local/state/acode-lsp/calibration.json; "" when neither is known.
func CalibrationPath() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "acode-lsp", "calibration.json")
	}
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		return filepath.Join(h, ".local", "state", "acode-lsp", "calibration.json")
	}
	return ""
}

// OpenCalibration reads the calibration file at path ("" = in memory
// only). A missing file is an empty calibration; a corrupt one is ignored
// and reported as err (the calibration is still usable).
func OpenCalibration(path string) (*Calibration, error) {
	c := &Calibration{path: path, models: map[string]calEntry{}}
	if path == "" {
		return c, nil
	}
	m, err := readCalFile(path)
	if err != nil {
		return c, err
	}
	c.models = m
	return c, nil
}

func readCalFile(path string) (map[string]calEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]calEntry{}, nil
	}
	if err != nil {
		return map[string]calEntry{}, fmt.Errorf("tokenizer: calibration %s: %w", path, err)
	}
	var f calFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 {
		return map[string]calEntry{}, fmt.Errorf("tokenizer: calibration %s is not valid and is ignored", path)
	}
	out := map[string]calEntry{}
	for k, e := range f.Models {
		if k == "" || len(k) > 200 || !(e.MaxRatio > 0 && e.MaxRatio <= maxRatio) || e.Samples <= 0 {
			continue
		}
		out[k] = e
	}
	return out, nil
}

var (
	calMu  sync.Mutex
	calDef *Calibration
)

// defaultCalibration is the process's calibration, opened on first use
// from CalibrationPath.
func defaultCalibration() *Calibration {
	calMu.Lock()
	defer calMu.Unlock()
	if calDef == nil {
		calDef, _ = OpenCalibration(CalibrationPath())
	}
	return calDef
}

// DefaultCalibration returns the calibration the estimates of this process
// use (opened on first use from [CalibrationPath]).
func DefaultCalibration() *Calibration { return defaultCalibration() }

// UseCalibration replaces the process's calibration (tests, --state-dir).
func UseCalibration(c *Calibration) {
	calMu.Lock()
	calDef = c
	calMu.Unlock()
}

// Factor returns the factor of a model: its default (DefaultFactor) until
// reports arrive; then at least the largest reported ratio plus
// CalibrationMargin; after calibrationTrusted reports the learned value
// alone, even when it is below the default.
func (c *Calibration) Factor(model string) (factor float64, calibrated bool, samples int) {
	model = normalizeModel(model)
	def := DefaultFactor(model)
	c.mu.Lock()
	e, ok := c.models[model]
	c.mu.Unlock()
	if !ok {
		return def, false, 0
	}
	learned := math.Ceil((e.MaxRatio+CalibrationMargin)*1000) / 1000
	if e.Samples < calibrationTrusted && learned < def {
		return def, true, e.Samples
	}
	return learned, true, e.Samples
}

// Report records that the provider counted actual tokens for a text whose
// o200k_base count is basis, and returns the model's new factor.
func (c *Calibration) Report(model string, basis, actual int) (factor float64, samples int, err error) {
	model = normalizeModel(model)
	switch {
	case model == "" || len(model) > 200:
		return 0, 0, errors.New("tokenizer: calibration: the model name must be 1–200 characters")
	case basis <= 0:
		return 0, 0, errors.New("tokenizer: calibration: the text has no tokens to compare with")
	case actual <= 0:
		return 0, 0, errors.New("tokenizer: calibration: the actual token count must be positive")
	}
	ratio := float64(actual) / float64(basis)
	if ratio > maxRatio {
		return 0, 0, fmt.Errorf("tokenizer: calibration: %d actual tokens for %d o200k tokens (ratio %.2f) cannot be the same text", actual, basis, ratio)
	}
	c.mu.Lock()
	if c.path != "" {
		// Merge what other processes wrote since we read the file.
		if disk, err := readCalFile(c.path); err == nil {
			for k, d := range disk {
				e := c.models[k]
				e.MaxRatio = math.Max(e.MaxRatio, d.MaxRatio)
				e.Samples = max(e.Samples, d.Samples)
				if d.Updated.After(e.Updated) {
					e.Updated = d.Updated
				}
				c.models[k] = e
			}
		}
	}
	e := c.models[model]
	e.MaxRatio = math.Max(e.MaxRatio, ratio)
	if e.Samples < math.MaxInt32 {
		e.Samples++
	}
	e.Updated = time.Now().UTC()
	c.models[model] = e
	c.evict()
	err = c.save()
	c.mu.Unlock()
	f, _, n := c.Factor(model)
	return f, n, err
}

// evict keeps at most calibrationMaxModels models.
func (c *Calibration) evict() {
	if len(c.models) <= calibrationMaxModels {
		return
	}
	keys := make([]string, 0, len(c.models))
	for k := range c.models {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return c.models[keys[i]].Updated.Before(c.models[keys[j]].Updated) })
	for _, k := range keys[:len(keys)-calibrationMaxModels] {
		delete(c.models, k)
	}
}

// save writes the file atomically; c.mu is held.
func (c *Calibration) save() error {
	if c.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(calFile{Version: 1, Models: c.models}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(c.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("tokenizer: calibration: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".calibration-*.json")
	if err != nil {
		return fmt.Errorf("tokenizer: calibration: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tokenizer: calibration: write %s: %v", tmp.Name(), errors.Join(werr, cerr))
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("tokenizer: calibration: %w", err)
	}
	return nil
}

// UsageReport is what a client reports: the provider's real count for a
// text acode counted (acode/reportUsage, acode-lsp calibrate).
type UsageReport struct {
	Model  string
	Text   *string // the text, or
	Tokens int     // the count acode gave for it (used when Text is nil)
	Actual int
}

// UsageResult is the outcome of a report.
type UsageResult struct {
	Model   string  `json:"model"`
	Factor  float64 `json:"factor"`
	Samples int     `json:"samples"`
	// Exact is true for a model with an exact encoding: the report was
	// checked, not learned from; Match says whether the counts agreed.
	Exact bool  `json:"exact,omitempty"`
	Match *bool `json:"match,omitempty"`
}

// ReportUsage applies a usage report to the process's calibration. For a
// model with an exact encoding the count is only compared (Match); for
// others the ratio to the o200k_base count is learned. A report by Tokens
// (no text) is turned back into the basis count with the factor that
// produced it.
func ReportUsage(r UsageReport) (UsageResult, error) {
	tk, err := ForModel(r.Model)
	if err != nil {
		return UsageResult{}, err
	}
	if r.Actual <= 0 {
		return UsageResult{}, errors.New("tokenizer: actualTokens must be positive")
	}
	if tk.Exact() {
		n := r.Tokens
		if r.Text != nil {
			n = tk.Count(*r.Text)
		}
		match := n == r.Actual
		return UsageResult{Model: r.Model, Factor: 1, Exact: true, Match: &match}, nil
	}
	e, ok := tk.(*estimator)
	if !ok {
		return UsageResult{}, fmt.Errorf("tokenizer: model %q cannot be calibrated", r.Model)
	}
	var basis int
	if r.Text != nil {
		basis = e.basis.Count(*r.Text)
	} else {
		if r.Tokens <= 0 {
			return UsageResult{}, errors.New("tokenizer: estimatedTokens must be positive")
		}
		basis = int(math.Round(float64(r.Tokens) / e.Estimate().Factor))
	}
	f, n, err := e.cal.Report(e.model, basis, r.Actual)
	if f == 0 {
		return UsageResult{}, err
	}
	return UsageResult{Model: r.Model, Factor: f, Samples: n}, err
}
