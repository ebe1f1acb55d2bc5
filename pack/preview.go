package pack

import (
	"context"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// Preview is the result of acode/previewContext (and `pack --preview`):
// what a pack with the same request includes and excludes, without its
// text. Items have the shape of [Result]'s; EstimatedTokens is the exact
// count of the text the pack renders (its tokenCount), and the budget's
// categories share it out as a pack's do.
type Preview struct {
	Included        []Entry             `json:"included"`
	Excluded        []Entry             `json:"excluded"`
	EstimatedTokens int                 `json:"estimatedTokens"`
	Budget          BudgetResult        `json:"budget"`
	Dedup           budget.DedupStats   `json:"dedup"`
	Model           string              `json:"model"`
	Encoding        string              `json:"encoding"`
	Exact           bool                `json:"exact"`
	Estimate        *tokenizer.Estimate `json:"estimate,omitempty"`
	Warnings        []string            `json:"warnings"`
}

// Preview runs the very pipeline of [Engine.Pack] — collect, chunk, rank,
// dedup, select, render, the exact count of the final text, re-selection
// and the drop of rule 3 (docs/design.md "acode/previewContext") — and
// reports it without the text. A pack of the same request over the same
// workspace includes exactly what the preview includes, and its tokenCount
// is the preview's EstimatedTokens. The text is rendered and counted (a
// preview costs what a pack costs) because only the count of the final
// string decides what fits (docs/design.md#rule-3).
func (e *Engine) Preview(ctx context.Context, req Request, open []OpenDoc) (*Preview, error) {
	p := &pipeline{e: e, req: req, ctx: ctx, progress: func(string, int) {}, start: time.Now()}
	res, err := p.pack(open)
	if err != nil {
		return nil, e.failed(ctx, err)
	}
	return previewOf(res), nil
}

// previewOf is the preview of a pack's result: everything but its text.
func previewOf(res *Result) *Preview {
	return &Preview{
		Included:        res.Included,
		Excluded:        res.Excluded,
		EstimatedTokens: res.TokenCount,
		Budget:          res.Budget,
		Dedup:           res.Dedup,
		Model:           res.Model,
		Encoding:        res.Encoding,
		Exact:           res.Exact,
		Estimate:        res.Estimate,
		Warnings:        res.Warnings,
	}
}
