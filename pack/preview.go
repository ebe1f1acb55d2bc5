package pack

import (
	"context"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Preview is the result of acode/previewContext (and `pack --preview`):
// what a pack with the same request would include and exclude, without
// formatting it. Items have the shape of [Result]'s; EstimatedTokens adds
// up the selection's estimated costs (content and formatting), and the
// budget's categories show those estimates as used.
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

// Preview runs the pipeline of [Engine.Pack] up to the selection (collect,
// chunk, rank, dedup, select) and reports it without formatting. A pack of
// the same request may still drop its lowest-ranked items when the exact
// count of the formatted text is over the budget (docs/design.md#rule-3).
func (e *Engine) Preview(ctx context.Context, req Request, open []OpenDoc) (*Preview, error) {
	p := &pipeline{e: e, req: req, ctx: ctx, progress: func(string, int) {}, start: time.Now()}
	res, err := p.preview(open)
	if err != nil {
		return nil, e.failed(ctx, err)
	}
	return res, nil
}

func (p *pipeline) preview(open []OpenDoc) (*Preview, error) {
	cands, dstats, err := p.candidates(open)
	if err != nil {
		return nil, err
	}
	f := newFormatter(p.tok.Count)
	if _, err := p.renderer(f); err != nil { // the format's estimates, and its errors
		return nil, err
	}
	sel := budget.Select(cands, p.alloc, p.selectOptions(f))
	p.time("select")
	if err := p.ctx.Err(); err != nil {
		return nil, err
	}
	dstats.TokensSaved += sel.TrimmedTokens
	for _, it := range sel.Covered {
		dstats.ExactRemoved++
		p.excluded = append(p.excluded, entryOf(it, "duplicate", coveredDetail))
	}
	for _, it := range sel.OverBudget {
		p.excluded = append(p.excluded, entryOf(it, "over_budget", ""))
	}
	out := &Preview{
		Included: make([]Entry, 0, len(sel.Selected)),
		Excluded: p.excluded,
		Budget: BudgetResult{
			Total: int(p.alloc.Total), SystemReserve: int(p.alloc.SystemReserve), ResponseReserve: int(p.alloc.ResponseReserve),
			Available: int(p.alloc.Available), Categories: map[string]CategoryResult{},
		},
		Dedup: dstats, Model: p.model, Encoding: p.tok.Encoding(), Exact: p.tok.Exact(), Estimate: tokenizer.EstimateOf(p.tok), Warnings: p.warnings,
	}
	for _, it := range sel.Selected {
		out.Included = append(out.Included, entryOf(it, "", ""))
	}
	for _, c := range budget.Categories {
		out.Budget.Categories[c] = CategoryResult{Allocated: int(p.alloc.Tokens[c]), Used: int(sel.Used[c])}
		out.EstimatedTokens += int(sel.Used[c])
	}
	if len(sel.OverBudget) > 0 {
		out.Warnings = append(out.Warnings, overBudgetWarning(sel.OverBudget, p.alloc.Available))
	}
	if out.Excluded == nil {
		out.Excluded = []Entry{}
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	p.logDecisions(sel.Selected, sel.OverBudget, sel.Covered)
	return out, nil
}
