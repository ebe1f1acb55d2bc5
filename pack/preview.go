package pack

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/config"
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

// Previews previews one request at several budgets (the language server's
// what-if lenses): the stages of a pack that do not depend on the budget —
// resolve, collect, chunk, rank, dedup — run once, in the first
// [Previews.At], and each At runs the rest — select, render, exact count,
// re-select, drop — as [Engine.Pack] does. At(b) is what
// Preview(ctx, req with Budget b, open) returns over the workspace as the
// first At found it: when the collection depends on the budget (a query's
// file-first walk) or the prepared stages failed, each At runs the whole
// pipeline.
//
// A Previews is not safe for concurrent use.
type Previews struct {
	e    *Engine
	ctx  context.Context
	req  Request
	open []OpenDoc

	prepared bool
	base     *pipeline // after candidates; nil: At runs everything
	cands    []*budget.Item
	dstats   budget.DedupStats
}

// Previews returns the previews of req at other budgets (see [Previews]);
// it does no work until the first At.
func (e *Engine) Previews(ctx context.Context, req Request, open []OpenDoc) *Previews {
	return &Previews{e: e, ctx: ctx, req: req, open: open}
}

// prepare runs the stages up to selection once.
func (ps *Previews) prepare() {
	ps.prepared = true
	p := &pipeline{e: ps.e, req: ps.req, ctx: ps.ctx, progress: func(string, int) {}, start: time.Now(),
		outlines: map[*budget.Text][]chunker.LineRange{}}
	cands, dstats, err := p.candidates(ps.open)
	if err != nil || p.fileFirst() {
		// At runs the whole pipeline: it returns the error, or walks the
		// files again for its budget (walkRanked reads files until the
		// budget is comfortably exceeded).
		return
	}
	ps.base, ps.cands, ps.dstats = p, cands, dstats
}

// At is the preview of the request with b as its budget.
func (ps *Previews) At(b *config.BudgetOverrides) (*Preview, error) {
	req := ps.req
	req.Budget = b
	if !ps.prepared {
		ps.prepare()
	}
	if ps.base == nil {
		return ps.e.Preview(ps.ctx, req, ps.open)
	}
	if err := ps.ctx.Err(); err != nil {
		return nil, ps.e.failed(ps.ctx, err)
	}
	p := *ps.base
	p.req, p.start, p.lap = req, time.Now(), time.Time{}
	// What the prepared stages recorded, copied so this pack's appends do
	// not reach the next one's.
	p.excluded = slices.Clip(p.excluded)
	p.warnings = slices.Clip(p.warnings)
	p.stats.Timings = slices.Clip(p.stats.Timings)
	p.parsed = maps.Clone(p.parsed) // the files this pack looked up for outlines count toward its own bound
	if err := p.allocate(); err != nil {
		return nil, ps.e.failed(ps.ctx, err)
	}
	res, err := p.finish(ps.cands, ps.dstats)
	if err != nil {
		return nil, ps.e.failed(ps.ctx, err)
	}
	return previewOf(res), nil
}
