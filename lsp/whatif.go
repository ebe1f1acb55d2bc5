package lsp

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
)

// What-if lenses (docs/design.md#language-server): for each file and top-level chunk
// of the open documents, whether a pack of the open files at the current
// budget would include it (" · ✓ in context"), or by how many tokens the
// total budget would have to grow for it to go in (" · +<M> to fit").
//
// The answer comes from the pack pipeline's selection (pack.Engine.Preview
// over the open documents with the current configuration, no query; a pack
// may still drop its lowest-ranked chunks when the exact recount of the
// formatted text is over, docs/design.md#rule-3), computed in the
// background after a quiet period, never while a lens request waits. The
// result is kept per configuration and per document snapshot. Until the
// state of a new snapshot is computed, its lenses show the previous
// snapshot's states under the same configuration, mapped to the new chunks
// by key (lensChunk.key: kind and symbol name). The client is asked to
// refresh its lenses only when a computation changed a title some lens of
// an open document shows, comparing the rendered suffixes, so an edit that
// keeps every suffix (typing in a function body) costs no refresh.

// Lens commands the editor integrations implement (clicking a lens).
const (
	// cmdPinChunk pins the chunk as a reference source of the next pack.
	cmdPinChunk = "acode.pinChunk"
	// cmdShowChunkReport shows what the pack of the open files does with
	// the chunk.
	cmdShowChunkReport = "acode.showChunkReport"
)

// whatIfQuiet is the what-if computation's quiet period in budget
// debounces (600 ms by default): a computation re-chunks every changed
// open document whole and runs up to maxWhatIfPreviews packs, work that
// on a large file costs several lens refreshes, so it waits for a pause
// in the typing rather than competing with the lenses of each keystroke
// (issue 24). Lenses show the previous states until then.
const whatIfQuiet = 3

// maxWhatIfPreviews bounds the packs one computation runs: one at the
// current budget, one or more to find a budget where everything fits, and
// the rest to narrow each chunk's "+M" down.
const maxWhatIfPreviews = 16

// fitState is the what-if state of one lens target.
type fitState struct {
	in     bool   // every non-blank line is in the pack at the current budget
	toFit  int    // else: tokens the total budget must grow by (0: none found)
	reason string // else, when no budget helps: why the file stays out
	score  float64
}

// suffix is the what-if part of a lens title, after the existing prefix.
func (f fitState) suffix() string {
	switch {
	case f.in:
		return " · ✓ in context"
	case f.toFit > 0:
		return " · +" + thousands(f.toFit) + " to fit"
	case f.reason != "":
		return " · not packed: " + f.reason
	default:
		return ""
	}
}

// docWhatIf is the what-if state of one document snapshot.
type docWhatIf struct {
	doc    *document
	file   fitState
	chunks map[int]fitState    // by the 0-based first line of the lens chunk
	byKey  map[string]fitState // the same, by lensChunk.key
}

// view returns the states the lenses of doc, with chunks, show: this
// snapshot's own when dw is of doc, else those of the chunks with the same
// key (none for a chunk without one). exact reports the former.
func (dw *docWhatIf) view(doc *document, chunks []lensChunk) (file fitState, states []fitState, exact bool) {
	exact = dw.doc == doc
	states = make([]fitState, len(chunks))
	for i, c := range chunks {
		if exact {
			states[i] = dw.chunks[c.line]
		} else {
			states[i] = dw.byKey[c.key]
		}
	}
	return dw.file, states, exact
}

// chunkArgs is the argument of a lens command: the chunk (1-based lines)
// and its what-if state, so an editor can pin it or describe it without
// asking the server again.
type chunkArgs struct {
	URI       protocol.DocumentURI `json:"uri"`
	Path      string               `json:"path"`
	StartLine int                  `json:"startLine"`
	EndLine   int                  `json:"endLine"`
	Tokens    int                  `json:"tokens"`
	InContext bool                 `json:"inContext"`
	ToFit     int                  `json:"toFit,omitempty"`
	Reason    string               `json:"reason,omitempty"`
	Score     float64              `json:"score,omitempty"`
	Total     int                  `json:"budgetTotal"`
	Available int                  `json:"budgetAvailable"`
	WholeFile bool                 `json:"wholeFile,omitempty"`
}

// whatIf computes and caches the what-if states in the background.
type whatIf struct {
	s     *Server
	delay time.Duration

	mu      sync.Mutex
	timer   *time.Timer
	pending bool // a computation is scheduled
	running bool // a computation (and its refresh request) is under way
	stopped bool
	env     *env // the configuration of docs
	docs    map[protocol.DocumentURI]*docWhatIf

	run sync.Mutex // one computation at a time

	// onPreview, when set (benchmarks), is called before each pack a
	// computation runs.
	onPreview func()
}

// newWhatIf returns an empty what-if cache that computes delay after the
// last change.
func newWhatIf(s *Server, delay time.Duration) *whatIf {
	return &whatIf{s: s, delay: delay, docs: map[protocol.DocumentURI]*docWhatIf{}}
}

// trigger (re)starts the quiet period before a computation.
func (w *whatIf) trigger() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.pending = true
	if w.timer == nil {
		w.timer = time.AfterFunc(w.delay, w.fire)
		return
	}
	w.timer.Reset(w.delay)
}

// kick schedules a computation unless one is scheduled already (a lens
// request that found no state must not postpone the one under way).
func (w *whatIf) kick() {
	w.mu.Lock()
	pending := w.pending
	w.mu.Unlock()
	if !pending {
		w.trigger()
	}
}

// stop ends computations (shutdown, exit).
func (w *whatIf) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
}

// lensStates returns the states the lenses of doc (with chunks) show under
// e: known when some snapshot of doc has states under e, exact when they
// are of doc itself (else they are the last snapshot's, by chunk key).
func (w *whatIf) lensStates(doc *document, e *env, chunks []lensChunk) (file fitState, states []fitState, known, exact bool) {
	w.mu.Lock()
	d := w.docs[doc.URI]
	same := w.env == e
	w.mu.Unlock()
	if !same || d == nil {
		return fitState{}, nil, false, false
	}
	file, states, exact = d.view(doc, chunks)
	return file, states, true, exact
}

// fire runs one computation in the background and asks the client to
// refresh its lenses when what they show changed.
func (w *whatIf) fire() {
	w.s.spawn(func() {
		w.run.Lock()
		defer w.run.Unlock()
		w.mu.Lock()
		stopped := w.stopped
		w.pending = false
		w.running = true
		w.mu.Unlock()
		defer func() {
			w.mu.Lock()
			w.running = false
			w.mu.Unlock()
		}()
		if stopped {
			return
		}
		changed, err := w.compute(w.s.ctx)
		// Its packs parse every changed open document with tree-sitter:
		// glibc keeps that memory unless trimmed.
		w.s.returnMemory()
		scheduleTrim()
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				w.s.log.Debug("what-if lenses not computed", zap.Error(err))
			}
			return
		}
		if changed && w.s.clientCaps().codeLensRefresh {
			if err := w.s.client.refreshCodeLenses(w.s.ctx); err != nil {
				w.s.log.Debug("code lens refresh failed")
			}
		}
	})
}

// snapshot returns the cached states, their configuration, and whether
// they are those of docs under e already.
func (w *whatIf) snapshot(e *env, docs []*document) (old map[protocol.DocumentURI]*docWhatIf, oldEnv *env, current bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	current = w.env == e && len(w.docs) == len(docs)
	if current {
		for _, d := range docs {
			if c := w.docs[d.URI]; c == nil || c.doc != d {
				current = false
				break
			}
		}
	}
	return w.docs, w.env, current
}

// whatIfRound is what one computation packs and asks about.
type whatIfRound struct {
	next    map[protocol.DocumentURI]*docWhatIf
	shown   map[protocol.DocumentURI][]lensChunk // the lens chunks of the computed snapshots
	targets []*whatIfTarget
	open    []pack.OpenDoc
	tokens  []int // of open
}

// gather lists the open documents to pack and the lens targets to
// compute; a document closed or changed since keeps the states it shows.
func (w *whatIf) gather(ctx context.Context, e *env, docs []*document, old map[protocol.DocumentURI]*docWhatIf, oldEnv *env) (*whatIfRound, error) {
	s := w.s
	r := &whatIfRound{next: map[protocol.DocumentURI]*docWhatIf{}, shown: map[protocol.DocumentURI][]lensChunk{}}
	for _, d := range docs {
		dw := &docWhatIf{doc: d, chunks: map[int]fitState{}, byKey: map[string]fitState{}}
		r.next[d.URI] = dw
		if d.Path == "" || e.workspace == nil {
			continue // not packed as an open file: no what-if state
		}
		rel, inside := e.workspace.Rel(d.Path)
		if !inside {
			dw.file.reason = "outside the workspace"
			continue
		}
		if cur, ok := s.docs.get(d.URI); !ok || cur != d {
			// Closed or changed since: the next computation has it; until
			// then its lenses keep showing the states they show.
			if o := old[d.URI]; o != nil && oldEnv == e {
				r.next[d.URI] = o
			}
			continue
		}
		chunks, exact, err := s.lenses.chunks(ctx, d, e.tok)
		if err != nil {
			return nil, err
		}
		if !exact {
			s.lenses.scheduleSettle(s, d, e.tok) // the targets are those the lenses show
		}
		r.shown[d.URI] = chunks
		r.open = append(r.open, pack.OpenDoc{AbsPath: d.Path, Version: d.Version, Modified: d.Modified})
		r.tokens = append(r.tokens, s.counts.get(d, e.tok)) // counted by blocks, as the budget counts it
		lines := strings.Split(d.Text, "\n")
		r.targets = append(r.targets, &whatIfTarget{uri: d.URI, rel: rel, start: 1, end: len(lines), lines: lines, chunkLine: -1})
		for _, c := range chunks {
			r.targets = append(r.targets, &whatIfTarget{uri: d.URI, rel: rel, start: c.line + 1, end: c.end + 1, lines: lines, chunkLine: c.line})
		}
	}
	return r, nil
}

// whatIfTarget is one lens target being computed.
type whatIfTarget struct {
	uri        protocol.DocumentURI
	rel        string // workspace-relative path, as pack items have it
	start, end int    // 1-based inclusive
	lines      []string
	chunkLine  int // 0-based lens line; -1 for the whole file
	state      fitState
}

// compute brings the cache up to date with the open documents and the
// configuration. It reports whether any lens title changed.
func (w *whatIf) compute(ctx context.Context) (bool, error) {
	e := w.s.conf.env()
	docs := w.s.docs.all()
	old, oldEnv, current := w.snapshot(e, docs)
	if current {
		return false, nil
	}
	r, err := w.gather(ctx, e, docs, old, oldEnv)
	if err != nil {
		return false, err
	}
	if len(r.open) > 0 {
		if err := w.solve(ctx, e, r.open, r.tokens, r.targets); err != nil {
			return false, err
		}
	}
	next, shown := r.next, r.shown
	for _, t := range r.targets {
		dw := next[t.uri]
		if t.chunkLine < 0 {
			dw.file = t.state
		} else {
			dw.chunks[t.chunkLine] = t.state
		}
	}
	for u, chunks := range shown {
		dw := next[u]
		for _, c := range chunks {
			dw.byKey[c.key] = dw.chunks[c.line]
		}
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.env != e {
		old = nil // lenses show no states of another configuration
	}
	changed := false
	for u, dw := range next {
		if !sameTitles(old[u], dw, shown[u]) {
			changed = true
			break
		}
	}
	w.env, w.docs = e, next
	return changed, nil
}

// sameTitles reports whether the lenses of b's snapshot, with chunks, show
// the same what-if suffixes under a (the states before a computation, nil
// for none) as under b (after it). A snapshot this computation did not
// reach (b kept from a, or without chunks) compares equal: the next
// computation has it.
func sameTitles(a, b *docWhatIf, chunks []lensChunk) bool {
	if a == b {
		return true
	}
	if a == nil {
		if b.file.suffix() != "" {
			return false
		}
		for _, st := range b.chunks {
			if st.suffix() != "" {
				return false
			}
		}
		return true
	}
	af, as, _ := a.view(b.doc, chunks)
	bf, bs, _ := b.view(b.doc, chunks)
	if af.suffix() != bf.suffix() {
		return false
	}
	for i := range as {
		if as[i].suffix() != bs[i].suffix() {
			return false
		}
	}
	return true
}

// coverage is what one pack of the open files included, per path.
type coverage struct {
	spans  map[string][]pack.Entry // included items by path
	reason map[string]string       // why a whole file was left out, by path
	// left holds the chunks left out for another reason than the budget
	// (a duplicate of another file's lines, …), by path.
	left map[string][]pack.Entry
	// dup holds the chunks left out as exact duplicates of lines the pack
	// takes from elsewhere (a shared licence header), by path: a target
	// that has other lines is judged by those (docs/ranking.md "What-if
	// lenses and duplicates").
	dup map[string][]pack.Entry
}

// leftReason is why a chunk overlapping t was left out for another reason
// than the budget, or "". A reason other than "duplicate" comes first: a
// file left out for its own content is not described by its shared
// licence header.
func (c *coverage) leftReason(t *whatIfTarget) string {
	for _, dup := range []bool{false, true} {
		for _, it := range c.left[t.rel] {
			if it.StartLine <= t.end && it.EndLine >= t.start && (it.Reason == "duplicate") == dup {
				if it.Detail != "" {
					return it.Reason + " (" + it.Detail + ")"
				}
				return it.Reason
			}
		}
	}
	return ""
}

// covers reports whether every non-blank line of t is included, and the best
// score among the items that include it. Lines of chunks left out as exact
// duplicates do not count, unless t has no other non-blank line: a file
// that shares only its licence header with another is judged by the rest,
// and a chunk or file that is all duplicate is not covered.
func (c *coverage) covers(t *whatIfTarget) (bool, float64) {
	items := c.spans[t.rel]
	if len(items) == 0 {
		return false, 0
	}
	// first[l-t.start] is 1 + the index of the first item that includes
	// line l (0: none), dup[l-t.start] whether l is in a duplicate: one
	// pass over the items, not one per line (a file's target has
	// thousands of lines, its pack hundreds of items).
	n := max(0, t.end-t.start+1)
	first := make([]int32, n)
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		for l := max(it.StartLine, t.start); l <= min(it.EndLine, t.end); l++ {
			first[l-t.start] = int32(i + 1)
		}
	}
	var dup []bool
	if dups := c.dup[t.rel]; len(dups) > 0 {
		dup = make([]bool, n)
		for _, it := range dups {
			for l := max(it.StartLine, t.start); l <= min(it.EndLine, t.end); l++ {
				dup[l-t.start] = true
			}
		}
	}
	best := 0.0
	checked, dups := 0, 0
	for l := t.start; l <= t.end; l++ {
		if l-1 < len(t.lines) && strings.TrimSpace(t.lines[l-1]) == "" {
			continue
		}
		if dup != nil && dup[l-t.start] {
			dups++
			continue
		}
		checked++
		i := first[l-t.start]
		if i == 0 {
			return false, 0
		}
		best = max(best, items[i-1].Score)
	}
	if checked == 0 && dups > 0 {
		return false, 0
	}
	return true, best
}

// solve sets the state of every target: a pack at the current budget; then,
// for what it left out, packs at larger budgets, bisecting each group of
// targets down to the smallest tested growth that brings them in. tokens
// are the token counts of the open documents (the pack reads them through
// the workspace's overlay).
func (w *whatIf) solve(ctx context.Context, e *env, open []pack.OpenDoc, tokens []int, targets []*whatIfTarget) error {
	total := e.cfg.Context.Budget.TotalTokens
	// The packs of one computation differ only in their budget: their
	// collection, chunks, ranks and dedup are prepared once.
	sv := &solver{w: w, ctx: ctx, ps: e.engine.Previews(ctx, whatIfRequest(total), open), total: total}
	base, err := sv.at(0)
	if err != nil {
		return err
	}
	var out []*whatIfTarget
	for _, t := range targets {
		if in, score := base.covers(t); in {
			t.state = fitState{in: true, score: score}
			continue
		}
		if r := base.reason[t.rel]; r != "" {
			t.state = fitState{reason: r}
			continue
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil
	}
	// A budget where everything that can go in does: the open documents'
	// tokens with room for the formatting, doubled while some are out.
	sum := 0
	for _, n := range tokens {
		sum += n
	}
	hi, err := sv.ceiling(max(1024, sum+sum/4+64*len(open)), out)
	if err != nil {
		return err
	}
	var fits []*whatIfTarget
	for _, t := range out {
		if t.state.reason == "" {
			fits = append(fits, t)
		}
	}
	sort.SliceStable(fits, func(i, j int) bool { return fits[i].start < fits[j].start })
	return sv.bisect(0, hi, fits)
}

// solver runs the packs of one what-if computation.
type solver struct {
	w        *whatIf
	ctx      context.Context
	ps       *pack.Previews
	total    int
	previews int // packs run so far
}

// at is what a pack with the total budget grown by extra covers.
func (sv *solver) at(extra int) (*coverage, error) {
	sv.previews++
	if sv.w.onPreview != nil {
		sv.w.onPreview()
	}
	return sv.w.preview(sv.ctx, sv.ps, sv.total+extra)
}

// ceiling returns a growth from hi on (doubled up to twice) at which every
// target of out that can go in does; those that are still out get the
// reason their pack gives.
func (sv *solver) ceiling(hi int, out []*whatIfTarget) (int, error) {
	var pending []*whatIfTarget
	var cov *coverage
	for tries := 0; ; tries++ {
		var err error
		if cov, err = sv.at(hi); err != nil {
			return 0, err
		}
		pending = pending[:0]
		for _, t := range out {
			if in, _ := cov.covers(t); !in {
				pending = append(pending, t)
			}
		}
		if len(pending) == 0 || tries == 2 {
			break
		}
		hi *= 2
	}
	for _, t := range pending {
		r := cov.leftReason(t)
		if r == "" {
			r = "left out at any budget"
		}
		t.state = fitState{reason: r}
	}
	return hi, nil
}

// bisect narrows the growth that brings each target of ts in, known to be
// in (lo, hi], until the interval is small or the packs run out.
func (sv *solver) bisect(lo, hi int, ts []*whatIfTarget) error {
	if len(ts) == 0 {
		return nil
	}
	if hi-lo <= max(16, hi/16) || sv.previews >= maxWhatIfPreviews {
		for _, t := range ts {
			t.state = fitState{toFit: hi}
		}
		return nil
	}
	mid := lo + (hi-lo)/2
	cov, err := sv.at(mid)
	if err != nil {
		return err
	}
	var in, still []*whatIfTarget
	for _, t := range ts {
		if ok, _ := cov.covers(t); ok {
			in = append(in, t)
		} else {
			still = append(still, t)
		}
	}
	if err := sv.bisect(lo, mid, in); err != nil {
		return err
	}
	return sv.bisect(mid, hi, still)
}

// preview is what a pack of the open documents at a total budget of total
// tokens (the rest of the configuration as it is) includes: the pack
// pipeline's own outcome (pack.Previews.At, the very result of
// pack.Engine.Preview), without its text.
func (w *whatIf) preview(ctx context.Context, ps *pack.Previews, total int) (*coverage, error) {
	release, err := w.s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := ps.At(whatIfRequest(total).Budget)
	cov := &coverage{spans: map[string][]pack.Entry{}, reason: map[string]string{}, left: map[string][]pack.Entry{}, dup: map[string][]pack.Entry{}}
	if err != nil {
		if errors.Is(err, errcode.NoContent) {
			return cov, nil // every open file was excluded: nothing covers
		}
		return nil, err
	}
	for _, it := range res.Included {
		if it.Path != "" {
			cov.spans[it.Path] = append(cov.spans[it.Path], it)
		}
	}
	for _, it := range res.Excluded {
		if it.Path != "" && it.StartLine != 0 && it.Reason != "over_budget" {
			cov.left[it.Path] = append(cov.left[it.Path], it)
			if it.Reason == "duplicate" {
				cov.dup[it.Path] = append(cov.dup[it.Path], it)
			}
		}
		if it.Path == "" || it.StartLine != 0 || it.Reason == "" {
			continue // chunks left out, not whole files
		}
		r := it.Reason
		if it.Detail != "" {
			r += " (" + it.Detail + ")"
		}
		cov.reason[it.Path] = r
	}
	return cov, nil
}

// whatIfRequest is the request of a what-if preview: the open files, no
// query, the configured budget with another total.
func whatIfRequest(total int) pack.Request {
	return pack.Request{Budget: &config.BudgetOverrides{TotalTokens: &total}}
}
