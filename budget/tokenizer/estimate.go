package tokenizer

import (
	"math"
	"strconv"
	"strings"
)

// Estimate describes an upper-bound estimate (docs/design.md#rule-1): the count
// is ceil(Factor × the exact count of Basis). Results carry it as
// "estimate".
type Estimate struct {
	Basis      string  `json:"basis"`
	Factor     float64 `json:"factor"`
	Calibrated bool    `json:"calibrated"`
	Samples    int     `json:"samples"`
}

// EstimateBasis is the exact encoding estimates multiply.
const EstimateBasis = O200kBase

// Default factors over o200k_base, from published measurements of code
// (docs/tokenizer.md): Claude up to 4.6 counts ~1.18× o200k on code; Opus
// 4.7 and later 1.35–1.53×. Each factor sits above the top of its range.
const (
	FactorClaude    = 1.25 // Claude 3.x and 4.0–4.6
	FactorClaudeNew = 1.55 // Claude 4.7 and later, and Claude of unknown generation
	FactorUnknown   = 1.55 // any other model without a public tokenizer
)

// DefaultFactor returns the documented factor of a model without a public
// tokenizer.
func DefaultFactor(model string) float64 {
	m := normalizeModel(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // anthropic/claude-…, bedrock-style paths
	}
	if i := strings.Index(m, "claude"); i > 0 && i < 24 {
		m = m[i:] // anthropic.claude-… (Bedrock), us.anthropic.claude-…
	}
	if !strings.HasPrefix(m, "claude") {
		return FactorUnknown
	}
	major, minor, ok := claudeVersion(m)
	switch {
	case !ok:
		return FactorClaudeNew
	case major < 4 || major == 4 && minor < 7:
		return FactorClaude
	}
	return FactorClaudeNew
}

// claudeVersion reads the generation from names such as
// "claude-3-5-sonnet-20241022", "claude-sonnet-4-5", "claude-opus-4.7",
// "claude-sonnet-4-20250514" (a date is not a minor version).
func claudeVersion(m string) (major, minor int, ok bool) {
	fields := strings.FieldsFunc(m, func(r rune) bool { return r == '-' || r == '.' || r == '_' || r == '@' || r == ':' })
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || len(f) > 2 {
			continue
		}
		major, ok = n, true
		if i+1 < len(fields) {
			if n2, err := strconv.Atoi(fields[i+1]); err == nil && len(fields[i+1]) <= 2 {
				minor = n2
			}
		}
		return major, minor, ok
	}
	return 0, 0, false
}

// estimator is the tokenizer of a model without a public tokenizer:
// ceil(factor × o200k_base count), the factor being the model's default
// raised by calibration (calibration.go).
type estimator struct {
	model string // normalized
	basis Tokenizer
	cal   *Calibration
}

// newEstimator returns the estimating tokenizer of model.
func newEstimator(model string) (*estimator, error) {
	basis, err := ForEncoding(EstimateBasis)
	if err != nil {
		return nil, err
	}
	return &estimator{model: normalizeModel(model), basis: basis, cal: defaultCalibration()}, nil
}

// Count implements [Tokenizer]: ceil(factor × basis count).
func (e *estimator) Count(text string) int {
	return scale(e.basis.Count(text), e.Estimate().Factor)
}

// scale returns ceil(f × n) without a float rounding below an integer
// product (1.25 × 4 is 5, not 5.000000000000001 → 6).
func scale(n int, f float64) int {
	if n == 0 {
		return 0
	}
	v := f * float64(n)
	r := math.Round(v)
	if math.Abs(v-r) < 1e-9 {
		return int(r)
	}
	return int(math.Ceil(v))
}

// Encoding implements [Tokenizer]: "estimate:<model>×<factor>", e.g.
// "estimate:claude-sonnet-4-5×1.25". It names the model and the current
// factor so that caches keyed by encoding never mix two models' estimates
// nor keep counts made with a factor calibration has since changed.
func (e *estimator) Encoding() string {
	return "estimate:" + e.model + "×" + strconv.FormatFloat(e.Estimate().Factor, 'f', -1, 64)
}

// Exact implements [Tokenizer]; it is false.
func (e *estimator) Exact() bool { return false }

// Estimate returns the current estimate of the model.
func (e *estimator) Estimate() Estimate {
	f, calibrated, samples := e.cal.Factor(e.model)
	return Estimate{Basis: EstimateBasis, Factor: f, Calibrated: calibrated, Samples: samples}
}

// EstimateOf returns the estimate a tokenizer counts with, or nil for an
// exact tokenizer (and for the plain heuristic, which is not a factor).
func EstimateOf(tk Tokenizer) *Estimate {
	if e, ok := tk.(estimating); ok {
		return e.estimate()
	}
	return nil
}

// estimating is implemented by the tokenizers that may estimate.
type estimating interface{ estimate() *Estimate }

func (e *estimator) estimate() *Estimate {
	est := e.Estimate()
	return &est
}

// normalizeModel lower-cases and trims a model name.
func normalizeModel(model string) string { return strings.ToLower(strings.TrimSpace(model)) }
