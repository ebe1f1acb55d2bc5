package pack

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Engine packs contexts for one configuration and workspace. It is safe for
// concurrent use; it holds no per-request state.
type Engine struct {
	cfg config.Config
	ws  *collector.Workspace
	// Tokenizers resolves a model or an encoding (the encoding wins) to a
	// cached tokenizer. NewEngine gives the engine a registry of its own;
	// a front end sets the one registry of its process, so that packs,
	// counts and reloads share one count cache per encoding.
	Tokenizers *tokenizer.Registry
	// Ablate names relevance features to switch off (the evaluation's
	// ablations, docs/quality.md); empty in normal use.
	Ablate []string
	// Index, when not nil, is the persistent per-file cache of term
	// statistics and chunk boundaries (package index); nil means every
	// file is scanned and chunked afresh.
	Index FileIndex

	chunks       *lru.Cache[[32]byte, []chunker.Chunk]     // chunk boundaries of packed files (chunks.go)
	outlineCache *lru.Cache[[32]byte, []chunker.LineRange] // outline ranges of outlined files (outline_cache.go)
	kept         *keptFiles                                // files kept across packs (keptfiles.go); nil: none
}

// NewEngine returns an engine for cfg; ws may be nil when there is no
// workspace root (then only sources given with content can be packed).
func NewEngine(cfg config.Config, ws *collector.Workspace) *Engine {
	return &Engine{cfg: cfg, ws: ws, Tokenizers: tokenizer.NewRegistry(), chunks: newChunkCache(), outlineCache: newOutlineCache()}
}

// Config returns the engine's configuration.
func (e *Engine) Config() config.Config { return e.cfg }

// ConfiguredTokenizer returns the model and the encoding cfg names for
// counting: context.tokenizer.model and .encoding, with
// context.tokenizer.file as the encoding (tokenizer.FilePrefix + path) when
// no encoding is set. Every front end resolves its default tokenizer from
// these, so that a count and a pack of one config agree.
func ConfiguredTokenizer(cfg config.Config) (model, encoding string) {
	tc := cfg.Context.Tokenizer
	model, encoding = tc.Model, tc.Encoding
	if tc.File != "" && encoding == "" {
		encoding = tokenizer.FilePrefix + tc.File
	}
	return model, encoding
}

// Pack runs the pipeline for req. open lists the documents open in the
// editor (packed as open_file sources unless req.IncludeOpenFiles is false);
// progress, when not nil, is told what stage runs (pct 0..100).
func (e *Engine) Pack(ctx context.Context, req Request, open []OpenDoc, progress func(msg string, pct int)) (*Result, error) {
	if progress == nil {
		progress = func(string, int) {}
	}
	res, err := e.packRounds(ctx, req, open, progress) // mapindex.go
	if err != nil {
		return nil, e.failed(ctx, err)
	}
	return res, nil
}

// failed turns an error of the pipeline into the error a caller sees
// (parameter and domain errors as they are, anything else ACODE-CTX-001)
// and logs it at error level, without its message (which may quote request
// values); cancellation is returned as it is and not logged as a failure.
func (e *Engine) failed(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		Logger(ctx).Debug("pack cancelled")
		return err
	}
	var pe *ParamError
	var de *Error
	switch {
	case errors.As(err, &pe):
		Logger(ctx).Error("pack failed: invalid params", zap.String("field", pe.Field))
	case errors.As(err, &de):
		Logger(ctx).Error("pack failed", zap.String("code", string(de.Code)))
	default:
		err = &Error{Code: errcode.PackFailed, Message: err.Error()}
		Logger(ctx).Error("pack failed", zap.String("code", string(errcode.PackFailed)))
	}
	return err
}

// pipeline is the state of one Pack or Preview call: the request, the
// budget and tokenizer resolved for it, and what its stages found.
type pipeline struct {
	e        *Engine
	req      Request
	ctx      context.Context
	progress func(string, int)
	start    time.Time
	lap      time.Time
	stats    Stats

	tok          tokenizer.Tokenizer
	model        string
	alloc        budget.Allocation
	redistribute bool

	srcOf       []int                // source index of each item, by budget.Item.Seq
	cacheBefore tokenizer.CacheStats // the count cache when the pack started
	factors     map[int]factors      // score factors by budget.Item.Seq, when logging at debug
	excluded    []Entry
	seenExcl    map[string]bool
	warnings    []string

	files     *fileSelection                       // a file-first walk's ranking (filescore.go); nil: none
	repoMap   *repoMap                             // a no-query pack's file centrality (repomap.go); nil: not a map
	cutNote   string                               // the warning of a map cut ahead of its items (mapcut.go)
	parsed    map[*budget.Text][]chunker.LineRange // outline ranges looked up in this pack, by file (outline.go)
	ahead     *aheadOutlines                       // outline ranges kept by a map's cut without a lean map (outline_ahead.go)
	refs      map[*budget.Text]collector.FileRef   // the listing of each walked file's text (for the index)
	lean      *leanMap                             // a map answered from the index (mapindex.go); nil: none
	phantoms  map[*budget.Text]string              // texts not read (answered from the index), to their files
	idents    map[string]*fileFacts                // facts (identifiers) of the files not read, by path
	hist      *historyOnce                         // the workspace's git history (history.go), read at most once
	place     *placeState                          // the place swaps (recentplace.go); nil: off
	vendored  *[]string                            // vendored-copy directories (vendored.go), found once
	reads     map[readKey]readResult               // files read in this request (limits.go)
	charged   map[textKey]bool                     // texts counted in bytesRead
	bytesRead int64

	// outlines, when not nil, keeps the outlines of files across the
	// packs of one [Previews] (they do not depend on the budget).
	outlines map[*budget.Text][]chunker.LineRange
}

func (p *pipeline) time(stage string) {
	now := time.Now()
	from := p.lap
	if from.IsZero() {
		from = p.start
	}
	p.stats.Timings = append(p.stats.Timings, Timing{Stage: stage, Duration: now.Sub(from)})
	p.lap = now
}

// pack is the pipeline of [Engine.Pack], stage by stage.
func (p *pipeline) pack(open []OpenDoc) (*Result, error) {
	if sn := p.resumable(); sn != nil {
		cands, dstats, ok, err := p.resume(sn) // a map's later round (mapresume.go)
		if err != nil {
			return nil, err
		}
		if ok {
			return p.finish(cands, dstats)
		}
		p.lean.snap = nil // a text changed: start over from the walk
		*p = pipeline{e: p.e, req: p.req, ctx: p.ctx, progress: p.progress, start: p.start, lean: p.lean}
	}
	cands, dstats, err := p.candidates(open) // resolve → collect → chunk → rank → dedup
	if err != nil {
		return nil, err
	}
	return p.finish(cands, dstats)
}

// finish runs the pipeline from selection on: the stages that depend on
// the budget.
func (p *pipeline) finish(cands []*budget.Item, dstats budget.DedupStats) (*Result, error) {
	f := newFormatter(p.tok.Count)
	if p.repoMap != nil {
		// A map (repomap.go): the central files' outlines rank first.
		if outs := p.mapOutlines(cands, f); len(outs) > 0 {
			cands = append(cands, outs...)
			sort.SliceStable(cands, func(i, j int) bool { return budget.Less(cands[i], cands[j]) })
		}
		p.warnings = append(p.warnings, mapWarning)
	}
	cands = p.placeChunks(cands, f) // off unless switched on (recentplace.go)
	packed, err := p.fit(cands, f)  // select → render → exact count → re-select → drop
	if err != nil {
		return nil, err
	}
	p.leftOut(packed, &dstats)
	p.stats.Selected, p.stats.Rejected = len(packed.Kept), len(p.excluded)
	p.progress("done", 100)
	p.stats.Cache = p.cacheUse()
	p.logDecisions(packed.Kept, packed.Dropped, packed.Covered)
	return p.result(packed.Text, packed.Tokens, packed.Kept, f, dstats), nil
}

// fit packs cands into the available budget in f's format with
// [budget.Pack] (docs/design.md#rule-3, #rule-7).
func (p *pipeline) fit(cands []*budget.Item, f *formatter) (budget.Packed, error) {
	p.progress("selecting", 70)
	render, err := p.renderer(f)
	if err != nil {
		return budget.Packed{}, err
	}
	render = p.leanRender(render)
	sel := p.selectOptions(f)
	count, flush := p.storedCounts(cands) // textcounts.go
	defer flush()
	sel.Count = count
	return budget.Pack(p.ctx, cands, p.alloc, budget.PackOptions{
		SelectOptions: sel,
		Render: func(items []*budget.Item) (string, error) {
			text, err := render(items)
			var pe *ParamError
			switch {
			case err == nil:
				return text, nil
			case errors.As(err, &pe), errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				return "", err // a template's limit, or the request cancelled while it ran
			}
			return "", &Error{Code: errcode.PackFailed, Message: "formatting failed: " + err.Error()}
		},
		BeforeRender: func() {
			p.time("select")
			p.progress("formatting", 85)
		},
	})
}

// selectOptions are the options of a selection (docs/design.md#rule-7)
// for a pack or a preview in f's format.
func (p *pipeline) selectOptions(f *formatter) budget.SelectOptions {
	return budget.SelectOptions{Redistribute: p.redistribute, Overhead: f.overhead, Count: p.tok.Count, Outline: p.outliner()}
}

// leftOut records what the pack left out: covered candidates as
// duplicates (counted in dstats), then what did not fit as over_budget,
// with their warnings.
func (p *pipeline) leftOut(packed budget.Packed, dstats *budget.DedupStats) {
	dstats.SaveOverlap(packed.TrimmedTokens)
	for _, it := range packed.Covered {
		dstats.ExactRemoved++
		dstats.SaveExact(it.Tokens)
		p.excluded = append(p.excluded, entryOf(it, "duplicate", coveredDetail))
	}
	p.time("format+verify")
	for _, it := range packed.Dropped {
		p.excluded = append(p.excluded, entryOf(it, "over_budget", ""))
	}
	if len(packed.Dropped) > 0 {
		p.warnings = append(p.warnings, overBudgetWarning(packed.Dropped, p.alloc.Available))
	}
	if len(packed.Kept) == 0 {
		p.warnings = append(p.warnings, "no chunk fits the budget: raise totalTokens or lower the reserves")
	}
}

// cacheUse is what this pack did to the token-count cache, when the
// tokenizer is cached.
func (p *pipeline) cacheUse() *tokenizer.CacheStats {
	cached, ok := p.tok.(*tokenizer.Cached)
	if !ok {
		return nil
	}
	before, after := p.cacheBefore, cached.Stats()
	return &tokenizer.CacheStats{Hits: after.Hits - before.Hits, Misses: after.Misses - before.Misses,
		Evictions: after.Evictions - before.Evictions, Size: after.Size, Capacity: after.Capacity}
}

// overBudgetWarning is the warning of a pack or preview that left chunks out.
func overBudgetWarning(over []*budget.Item, available int64) string {
	return fmt.Sprintf("%d chunks (%d tokens) did not fit the budget of %d tokens", len(over), sumTokens(over), available)
}

// candidates runs the pipeline up to selection: resolve, collect, chunk,
// rank and dedup. What dedup removed is recorded in p.excluded.
func (p *pipeline) candidates(open []OpenDoc) ([]*budget.Item, budget.DedupStats, error) {
	if err := p.resolve(); err != nil {
		return nil, budget.DedupStats{}, err
	}
	if cached, ok := p.tok.(*tokenizer.Cached); ok {
		p.cacheBefore = cached.Stats()
	}
	p.progress("collecting sources", 0)
	srcs, err := p.collect(open)
	if err != nil {
		return nil, budget.DedupStats{}, err
	}
	p.time("collect")
	p.stats.Sources = len(srcs)
	items, err := p.chunk(srcs) // reports progress from 30 to 60 % by bytes chunked
	if err != nil {
		return nil, budget.DedupStats{}, err
	}
	p.time("chunk+count") // chunk set p.stats.Chunks (a map cut ahead counts what it cut)
	if len(items) == 0 {
		return nil, budget.DedupStats{}, &Error{Code: errcode.NoContent, Message: p.noContentMessage(), Data: map[string]any{"excluded": len(p.excluded)}}
	}
	p.progress("ranking", 60)
	p.rank(items, srcs)
	p.time("rank")
	if err := p.ctx.Err(); err != nil {
		return nil, budget.DedupStats{}, err
	}
	if items, err = p.mapCut(items); err != nil { // within maxCandidates (mapcut.go)
		return nil, budget.DedupStats{}, err
	}
	dd := p.e.cfg.Context.Dedup
	cands, removed, dstats, err := budget.DedupContext(p.ctx, items, budget.DedupOptions{Enabled: dd.Enabled, OverlapThreshold: dd.OverlapThreshold, MergeOverlapping: dd.MergeOverlapping, MaxTokens: p.chunkTokens()}, p.tok.Count)
	if err != nil {
		return nil, budget.DedupStats{}, err
	}
	for _, r := range removed {
		p.excluded = append(p.excluded, entryOf(r.Item, r.Reason, "same lines as "+describe(r.Into)))
	}
	p.time("dedup")
	p.stats.Candidates = len(cands)
	p.snapshot(cands, dstats, srcs) // a map's later rounds start here (mapresume.go)
	return cands, dstats, nil
}

// resolve applies the request's budget and model over the configuration.
func (p *pipeline) resolve() error {
	if err := p.checkFormat(); err != nil {
		return err
	}
	if err := p.allocate(); err != nil {
		return err
	}
	cfg := p.e.cfg
	model, enc := ConfiguredTokenizer(cfg)
	if p.req.Model != "" {
		model, enc = p.req.Model, ""
	}
	if p.req.Encoding != "" {
		enc = p.req.Encoding
	}
	tok, err := p.tokenizer(model, enc, cfg.Context.Tokenizer.CacheSize)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if err != nil {
		field := "model"
		if enc != "" {
			field = "encoding"
		}
		return &ParamError{Field: field, Message: err.Error()}
	}
	p.tok, p.model = tok, model
	if p.lean == nil {
		// Not a map that its plan may answer without counting: this pack
		// counts, so its tokenizer's tables are built beside the walk.
		tokenizer.Preload(tok)
	}
	if !tok.Exact() {
		est := tokenizer.EstimateOf(tok)
		factor := 0.0
		if est != nil {
			factor = est.Factor
		}
		p.warnings = append(p.warnings, fmt.Sprintf("model %q has no public tokenizer: token counts are upper-bound estimates (%.3g × o200k_base); report the provider's real counts with acode/reportUsage or acode-lsp calibrate to calibrate them, or name an encoding for exact counts", model, factor))
	}
	return nil
}

// tokenizer resolves the request's tokenizer (see [tokenizer.Registry.Get])
// without holding up a cancelled request: the first use of a tokenizer
// file or a Hugging Face encoding loads it (~0.1 s of CPU or more), which
// then goes on in the background and stays cached for the next request;
// the request returns its context's error at once (issue 24: a cancelled
// pack returns within 100 ms). A tiktoken encoding's ranks are built on
// its first count instead ([tokenizer.Preload]).
func (p *pipeline) tokenizer(model, enc string, cacheSize int) (tokenizer.Tokenizer, error) {
	type resolved struct {
		tok tokenizer.Tokenizer
		err error
	}
	ch := make(chan resolved, 1)
	go func() {
		tok, err := p.e.Tokenizers.Get(model, enc, cacheSize)
		ch <- resolved{tok, err}
	}()
	select {
	case r := <-ch:
		return r.tok, r.err
	case <-p.ctx.Done():
		return nil, p.ctx.Err()
	}
}

// allocate shares the request's budget out over the configuration's
// (p.alloc, p.redistribute).
func (p *pipeline) allocate() error {
	cfg := p.e.cfg
	b := p.req.Budget.Apply(cfg.Context.Budget)
	total, sys, resp := b.TotalTokens, b.SystemPromptReserve, b.ResponseReserve
	p.redistribute = b.Redistribute
	alloc, err := budget.Allocate(int64(total), int64(sys), int64(resp), b.Categories)
	if err != nil {
		var be *budget.Error
		if !errors.As(err, &be) {
			return err
		}
		pr := be.Problems[0]
		// The request's field has the editor setting's name (acode.budget.x).
		field := strings.TrimPrefix(config.SettingName(pr.Key), "acode.")
		msg := fmt.Sprintf("%s = %s: %s; %s", field, pr.Value, pr.Rule, pr.Fix)
		if int64(total)-int64(sys)-int64(resp) <= 0 && total > 0 && sys >= 0 && resp >= 0 {
			return &Error{Code: errcode.Budget, Message: "no budget available: " + msg, Data: map[string]any{"available": int64(total) - int64(sys) - int64(resp)}}
		}
		return &ParamError{Field: field, Message: msg}
	}
	p.alloc = alloc
	return nil
}

func (p *pipeline) noContentMessage() string {
	if len(p.excluded) == 0 {
		return "no content to pack: give sources, a search, paths or open files"
	}
	byReason := map[string]int{}
	for _, x := range p.excluded {
		byReason[x.Reason]++
	}
	keys := make([]string, 0, len(byReason))
	for k := range byReason {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, byReason[k])
	}
	return fmt.Sprintf("no content to pack: every input was excluded (%s)", strings.Join(parts, ", "))
}

func (p *pipeline) result(text string, tokens int, kept []*budget.Item, f *formatter, dstats budget.DedupStats) *Result {
	res := &Result{
		Content: text, TokenCount: tokens, Model: p.model, Encoding: p.tok.Encoding(), Exact: p.tok.Exact(), Estimate: tokenizer.EstimateOf(p.tok),
		Budget: BudgetResult{
			Total: int(p.alloc.Total), SystemReserve: int(p.alloc.SystemReserve), ResponseReserve: int(p.alloc.ResponseReserve),
			Available: int(p.alloc.Available), Categories: map[string]CategoryResult{},
		},
		Included: make([]Entry, 0, len(kept)),
		Excluded: p.excluded,
		Dedup:    dstats,
		Warnings: p.warnings,
		Stats:    p.stats,
	}
	for _, it := range kept {
		res.Included = append(res.Included, entryOf(it, "", ""))
	}
	used := usedByCategory(tokens, kept, f)
	for _, c := range budget.Categories {
		res.Budget.Categories[c] = CategoryResult{Allocated: int(p.alloc.Tokens[c]), Used: used[c]}
	}
	if res.Excluded == nil {
		res.Excluded = []Entry{}
	}
	if res.Warnings == nil {
		res.Warnings = []string{}
	}
	return res
}

// usedByCategory is the exact tokenCount apportioned by the estimated
// cost (content + formatting) of each category's chunks, so that the
// categories add up to tokenCount exactly. When every kept chunk is of
// one category (a map), that category has it all whatever the estimates
// (each chunk's cost is positive: its header), so nothing is counted.
func usedByCategory(tokens int, kept []*budget.Item, f *formatter) map[string]int {
	if len(kept) > 0 && slices.Contains(budget.Categories, kept[0].Category) &&
		!slices.ContainsFunc(kept, func(it *budget.Item) bool { return it.Category != kept[0].Category }) {
		out := make(map[string]int, len(budget.Categories))
		for _, c := range budget.Categories {
			out[c] = 0
		}
		out[kept[0].Category] = tokens
		return out
	}
	est := map[string]int{}
	seen := map[string]bool{}
	estTotal := 0
	for _, it := range kept {
		key := it.Path
		first := key == "" || !seen[key]
		seen[key] = true
		c := it.Tokens + f.overhead(it, first)
		est[it.Category] += c
		estTotal += c
	}
	return apportion(tokens, est, estTotal)
}

// apportion splits total between the categories in proportion to est
// (largest remainder), so the parts add up to total.
func apportion(total int, est map[string]int, estTotal int) map[string]int {
	out := map[string]int{}
	if estTotal <= 0 {
		return out
	}
	type rem struct {
		c string
		r int64
	}
	var rems []rem
	sum := 0
	for _, c := range budget.Categories {
		num := int64(total) * int64(est[c])
		out[c] = int(num / int64(estTotal))
		sum += out[c]
		if est[c] > 0 {
			rems = append(rems, rem{c, num % int64(estTotal)})
		}
	}
	sort.SliceStable(rems, func(i, j int) bool { return rems[i].r > rems[j].r })
	for i := 0; sum < total && len(rems) > 0; i = (i + 1) % len(rems) {
		out[rems[i].c]++
		sum++
	}
	return out
}

// entryOf is the result entry of an item; an included one (no reason) says
// whether it holds whole chunks ("full") or outline lines ("outline").
func entryOf(it *budget.Item, reason, detail string) Entry {
	if reason == "" {
		detail = "full"
		if it.Outline {
			detail = "outline"
		}
	}
	return Entry{Type: it.Type, Origin: it.Origin, Path: it.Path, Label: it.Label, StartLine: it.StartLine, EndLine: it.EndLine, Tokens: it.Tokens, Score: it.Score, Reason: reason, Detail: detail}
}

func describe(it *budget.Item) string {
	name := it.Path
	if name == "" {
		name = "tool " + it.Label
	}
	return fmt.Sprintf("%s lines %d-%d", name, it.StartLine, it.EndLine)
}

func sumTokens(items []*budget.Item) int {
	n := 0
	for _, it := range items {
		n += it.Tokens
	}
	return n
}
