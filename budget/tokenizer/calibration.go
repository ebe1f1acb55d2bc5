package tokenizer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/collector/safeio"
)

// Calibration learns, per model without a public tokenizer, the largest
// ratio between the provider's real token count and the o200k_base count
// of the same text (acode/reportUsage, acode-lsp calibrate). A report can
// only raise a factor, never lower it: the factor is the larger of the
// model's documented default and the largest observed ratio plus
// [CalibrationMargin], and a ratio outside [[MinRatio], [MaxRatio]] is
// refused (a [*RatioError]). It keeps numbers only — never text — in a
// small JSON file in the user's state directory, read through the safe read
// (regular file only, no link followed, never blocking, at most
// maxCalibrationFile bytes) and checked entry by entry; a file that fails
// the checks is ignored and replaced on the next report. Writes hold a lock
// file and re-read the file before writing it atomically (a temporary file
// renamed over it), so concurrent writers — goroutines or processes — lose
// no sample.
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
	// MinRatio and MaxRatio bound the ratio of a report (the provider's
	// count / the o200k_base count of the same text). No tokenizer in use
	// counts less than half or more than four times o200k on the same
	// text: a ratio outside is a count of something else (cached prompt
	// tokens left out, a system prompt or earlier turns included) or a lie,
	// and is refused.
	MinRatio = 0.5
	MaxRatio = 4.0
	// calibrationMaxModels bounds the file; the least recently updated
	// model is dropped first.
	calibrationMaxModels = 256
	// maxCalibrationFile caps the read of the state file (256 models take
	// about 30 KB).
	maxCalibrationFile = 1 << 20
	// maxCalibrationSamples clamps a sample count read from the file.
	maxCalibrationSamples = math.MaxInt32
)

// ErrRatioOutOfRange is wrapped by every [*RatioError].
var ErrRatioOutOfRange = errors.New("tokenizer: calibration: ratio out of range")

// RatioError refuses a usage report whose ratio (Actual / Basis, the
// provider's count over the o200k_base count) is outside [MinRatio,
// MaxRatio]. Its message says why and what to report instead.
type RatioError struct {
	Actual, Basis int
	Ratio         float64
}

func (e *RatioError) Error() string {
	if e.Ratio < MinRatio {
		return fmt.Sprintf("the provider's %d tokens for a text of %d o200k_base tokens is a ratio of %.3f, below %g: "+
			"no tokenizer counts less than half of o200k on the same text, so this is not the full input count "+
			"(a count that leaves out cached prompt tokens — add cache_read_input_tokens and cache_creation_input_tokens to input_tokens — "+
			"or the count of another text); nothing was learned (a report can only raise a factor)",
			e.Actual, e.Basis, e.Ratio, MinRatio)
	}
	return fmt.Sprintf("the provider's %d tokens for a text of %d o200k_base tokens is a ratio of %.2f, above %g: "+
		"no tokenizer counts more than four times o200k on the same text, so the count includes something else "+
		"(a system prompt, tools, earlier turns); report the count of this text alone; nothing was learned",
		e.Actual, e.Basis, e.Ratio, MaxRatio)
}

// Unwrap makes errors.Is(err, ErrRatioOutOfRange) true.
func (e *RatioError) Unwrap() error { return ErrRatioOutOfRange }

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
// only). A missing file is an empty calibration; one that cannot be
// trusted (not a regular file, a link, too large, not ours, corrupt) is
// ignored and reported as err (the calibration is still usable, from the
// documented defaults).
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

// readCalFile reads and checks the state file. It never blocks (a FIFO is
// refused), never follows a link (a link to /dev/zero is refused) and
// reads at most maxCalibrationFile bytes. Entries that fail the checks are
// dropped: a ratio outside [MinRatio, MaxRatio] or not a number, no
// samples, an empty or long model name. Even an accepted entry can only
// raise a factor ([Calibration.Factor]).
func readCalFile(path string) (map[string]calEntry, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	data, err := safeio.ReadFile(ctx, path, maxCalibrationFile, safeio.Options{NoFollow: true})
	if errors.Is(err, os.ErrNotExist) {
		return map[string]calEntry{}, nil
	}
	if err == nil {
		err = checkOwned(path)
	}
	if err != nil {
		return map[string]calEntry{}, fmt.Errorf("tokenizer: calibration %s is ignored: %s", path, calReadErr(err))
	}
	var f calFile
	if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 {
		return map[string]calEntry{}, fmt.Errorf("tokenizer: calibration %s is not valid and is ignored", path)
	}
	out := map[string]calEntry{}
	for k, e := range f.Models {
		if k == "" || len(k) > 200 || k != normalizeModel(k) || !(e.MaxRatio >= MinRatio && e.MaxRatio <= MaxRatio) || e.Samples <= 0 {
			continue
		}
		e.Samples = min(e.Samples, maxCalibrationSamples)
		out[k] = e
		if len(out) == calibrationMaxModels {
			break
		}
	}
	return out, nil
}

// calReadErr says why the state file was not read, without its content.
func calReadErr(err error) string {
	var pe *fs.PathError
	switch {
	case errors.Is(err, safeio.ErrNotRegular), errors.Is(err, safeio.ErrTooLarge):
		return err.Error()
	case errors.As(err, &pe):
		return pe.Err.Error()
	}
	return err.Error()
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

// Factor returns the factor of a model: the larger of its documented
// default ([DefaultFactor]) and the largest reported ratio plus
// [CalibrationMargin] (rounded up to 0.001). It is never below the
// default, whatever was reported or read from the file. calibrated says
// that reports were received.
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
	if !(learned > def) { // NaN included
		learned = def
	}
	return learned, true, e.Samples
}

// Report records that the provider counted actual tokens for a text whose
// o200k_base count is basis, and returns the model's new factor. A ratio
// outside [MinRatio, MaxRatio] is a [*RatioError] and nothing is recorded.
// A non-nil error with a factor > 0 means the report was learned but not
// saved (it holds for this process).
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
	if !(ratio >= MinRatio && ratio <= MaxRatio) {
		return 0, 0, &RatioError{Actual: actual, Basis: basis, Ratio: ratio}
	}
	c.mu.Lock()
	var saveErr error
	unlock := func() {}
	if c.path != "" {
		// The file lock is taken and released inside c.mu (never the
		// other way round).
		var u func()
		if u, saveErr = lockCalibration(c.path); saveErr == nil {
			unlock = u
			c.mergeDisk()
		}
	}
	e := c.models[model]
	e.MaxRatio = math.Max(e.MaxRatio, ratio)
	if e.Samples < maxCalibrationSamples {
		e.Samples++
	}
	e.Updated = time.Now().UTC()
	c.models[model] = e
	c.evict()
	if saveErr == nil {
		saveErr = c.save()
	}
	unlock()
	c.mu.Unlock()
	f, _, n := c.Factor(model)
	return f, n, saveErr
}

// mergeDisk merges what other processes wrote since the file was read;
// c.mu and the file lock are held. Per model the larger ratio, the larger
// sample count and the later time win: the file is re-read under the lock
// before every write, so each write starts from every sample written
// before it.
func (c *Calibration) mergeDisk() {
	disk, err := readCalFile(c.path)
	if err != nil {
		return
	}
	for k, d := range disk {
		e, ok := c.models[k]
		if !ok {
			c.models[k] = d
			continue
		}
		e.MaxRatio = math.Max(e.MaxRatio, d.MaxRatio)
		e.Samples = max(e.Samples, d.Samples)
		if d.Updated.After(e.Updated) {
			e.Updated = d.Updated
		}
		c.models[k] = e
	}
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

// save writes the file atomically; c.mu and the file lock are held.
func (c *Calibration) save() error {
	if c.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(calFile{Version: 1, Models: c.models}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(c.path)
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
