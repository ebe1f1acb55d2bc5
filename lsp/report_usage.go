package lsp

import (
	"context"
	"errors"
	"strings"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// methodReportUsage is acode/reportUsage (docs/design.md#rule-1's calibration).
const methodReportUsage = "acode/reportUsage"

// reportUsageParams is the params of acode/reportUsage: the provider's real
// count (actualTokens) for a text acode counted, given as the text or as
// the count acode gave for it (estimatedTokens).
type reportUsageParams struct {
	Model           string  `json:"model"`
	Text            *string `json:"text"`
	EstimatedTokens *int    `json:"estimatedTokens"`
	ActualTokens    *int    `json:"actualTokens"`
}

// registerReportUsage adds acode/reportUsage.
func (s *Server) registerReportUsage() {
	s.requests[methodReportUsage] = rpc.Request(s.reportUsage)
}

// reportUsage handles acode/reportUsage. For a model without a public
// tokenizer the ratio of the real count to the o200k_base count is learned
// and kept across restarts (budget/tokenizer's calibration); for a model
// with an exact encoding the report is checked and a mismatch logged
// (counts only, never the text).
func (s *Server) reportUsage(ctx context.Context, p *reportUsageParams) (*tokenizer.UsageResult, error) {
	model := strings.TrimSpace(p.Model)
	if err := p.check(model); err != nil {
		return nil, err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	r := tokenizer.UsageReport{Model: model, Text: p.Text, Actual: *p.ActualTokens}
	if p.EstimatedTokens != nil {
		r.Tokens = *p.EstimatedTokens
	}
	res, err := tokenizer.ReportUsage(r)
	var re *tokenizer.RatioError
	if errors.As(err, &re) {
		// A report can only raise a factor: a ratio no tokenizer produces
		// is a count of something else (or a lie) and is refused.
		return nil, rpc.NewInvalidParams("actualTokens", "%v", re)
	}
	if res.Model == "" {
		return nil, rpc.NewRequestFailed(errcode.TokenCount, err.Error(), nil)
	}
	if err != nil {
		// Learned, but not saved: it holds for this process only.
		s.log.Warn("calibration not saved", zap.Error(err))
	}
	if res.Exact && res.Match != nil && !*res.Match {
		s.log.Warn("reported usage differs from the exact count", zap.String("model", model), zap.Int("actual", *p.ActualTokens))
	}
	s.budget.trigger() // the status bar shows the new factor
	return &res, nil
}

// check refuses a report that names no model or lacks, or contradicts,
// the counts it compares; model is p.Model trimmed.
func (p *reportUsageParams) check(model string) error {
	switch {
	case model == "":
		return rpc.NewInvalidParams("model", "required: the model the provider counted for")
	case len(model) > 200:
		return rpc.NewInvalidParams("model", "longer than 200 characters")
	case p.ActualTokens == nil:
		return rpc.NewInvalidParams("actualTokens", "required: the provider's real token count")
	case *p.ActualTokens <= 0:
		return rpc.NewInvalidParams("actualTokens", "must be positive")
	case p.Text != nil && p.EstimatedTokens != nil:
		return rpc.NewInvalidParams("estimatedTokens", "give text or estimatedTokens, not both")
	case p.Text == nil && p.EstimatedTokens == nil:
		return rpc.NewInvalidParams("text", "required (or estimatedTokens)")
	case p.EstimatedTokens != nil && *p.EstimatedTokens <= 0:
		return rpc.NewInvalidParams("estimatedTokens", "must be positive")
	}
	return nil
}
