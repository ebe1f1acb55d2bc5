package pack

import (
	"math"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
)

// cancelEvery is how many items a long loop over chunks handles between
// two checks of the request's context (issue 24: a cancelled pack returns
// within 100 ms).
const cancelEvery = 256

// recencyHalfLife is the age at which recency falls to 0.5.
const recencyHalfLife = 24 * time.Hour

// rank scores every item (docs/design.md#rule-5):
//
//	score = relevance_weight·relevance + recency_weight·recency + source_weight·priority/100
//
// relevance is the source's own when given, else the lexical relevance of
// the chunk to the query (see [newQuery]; 0 without a query). recency comes
// only from the user's activity: a source's time counts when the user's
// editor or agent gave it (an open document's last change, a source's
// timestamp); the modification time of a file read from disk never does,
// since a checkout or branch switch sets those. It decays by half every 24
// hours of age relative to the newest such time of the request (so the same
// input always ranks the same way); 0 without a time, 1 for tool output
// without a time. Scores are rounded to 4 decimals. The formula is
// documented in docs/ranking.md. When the request's context ends, rank
// stops early, leaving scores unset; its caller returns the context's error.
func (p *pipeline) rank(items []*budget.Item, srcs []source) {
	w := p.e.cfg.Context.Ranking
	var newest time.Time
	for _, s := range srcs {
		if s.userTime && s.Timestamp.After(newest) {
			newest = s.Timestamp
		}
	}
	feat := newFeatures(p.e.Ablate)
	feat.vendoredDirs = p.vendoredOf(items, feat)
	graph := graphAhead(items, p.queryText(), feat) // beside the chunks' scores
	q := scoreQuery(p.ctx, p.queryText(), items, feat, p.corpusExtra(items))
	if p.ctx.Err() != nil {
		return // the caller returns the context's error
	}
	if q != nil {
		ff := p.fileFactors(q.fileBest, srcs, items, feat, q.terms, graph)
		q.recentHunks = p.recentHunks(q.fileBest, ff, srcs, items, feat)
		if p.ctx.Err() != nil {
			return
		}
		q.finish(items, ff)
		p.place = p.newPlace(q, srcs, items) // nil unless switched on (recentplace.go)
	}
	if q == nil && p.wantsMap(srcs) {
		p.repoMap = p.mapOf(items)
	}
	if p.debug() {
		p.factors = make(map[int]factors, len(items))
	}
	for _, it := range items {
		s := srcs[p.srcOf[it.Seq]]
		rel := p.relevance(it, s, q)
		rec := recency(s, newest)
		if p.factors != nil {
			p.factors[it.Seq] = factors{relevance: rel, recency: rec}
		}
		score := w.RelevanceWeight*rel + w.RecencyWeight*rec + w.SourceWeight*float64(it.Priority)/100
		it.Score = math.Round(min(1, max(0, score))*1e4) / 1e4
	}
}

// relevance returns the relevance of item it of source s: the source's
// own, else the query's q (nil without one), else the repository map's.
func (p *pipeline) relevance(it *budget.Item, s source, q *query) float64 {
	switch {
	case s.Relevance != nil:
		return *s.Relevance
	case q != nil:
		return q.relevance(it)
	case p.repoMap != nil:
		return p.repoMap.relevance(it.Path)
	}
	return 0
}

// recency returns the recency of source s: halving every recencyHalfLife
// before newest for a time the user gave, 1 for tool output, else 0.
func recency(s source, newest time.Time) float64 {
	switch {
	case s.userTime && !s.Timestamp.IsZero():
		age := newest.Sub(s.Timestamp)
		return math.Pow(0.5, float64(age)/float64(recencyHalfLife))
	case s.Type == collector.ToolResult:
		return 1
	}
	return 0
}

// fileFactors is the factor of each file's chunk scores from the signals of
// whole files (history.go), given the files' best lexical chunk scores by
// path; nil when there is none.
// graph, when not nil, returns the items' reference graph (graphAhead).
func (p *pipeline) fileFactors(fileBest map[string]float64, srcs []source, items []*budget.Item, feat features, terms []string, graph func() *refGraph) map[string]float64 {
	out := p.historyFactors(fileBest, srcs, items, feat, terms)
	if feat.graph {
		if graph == nil {
			graph = func() *refGraph { return memoGraph(items) }
		}
		out = mulFactors(out, graphFactorsOf(graph(), fileBest, feat.graphW))
	}
	if feat.testPairs {
		out = mulFactors(out, testPairFactors(fileBest, feat.testPairW))
	}
	return out
}

// mulFactors multiplies the file factors of b into a (a missing factor
// is 1) and returns a (b when a is empty).
func mulFactors(a, b map[string]float64) map[string]float64 {
	if len(a) == 0 {
		return b
	}
	for path, f := range b {
		if h, ok := a[path]; ok {
			a[path] = h * f
		} else {
			a[path] = f
		}
	}
	return a
}

// historyFactors is the history part of fileFactors (history.go, and
// histwords.go for the query's terms).
func (p *pipeline) historyFactors(fileBest map[string]float64, srcs []source, items []*budget.Item, feat features, terms []string) map[string]float64 {
	if !feat.recent && !feat.cochange && !feat.histWords {
		return nil
	}
	abs, first := p.absPaths(srcs, items)
	if first == "" {
		return nil
	}
	h := p.history(first)
	if h == nil {
		return nil
	}
	scores := make(map[string]float64, len(abs))
	for path, a := range abs {
		scores[a] = fileBest[path]
	}
	rw, cw := feat.recentW, feat.cochangeW
	if !feat.recent {
		rw = 0
	}
	if !feat.cochange {
		cw = 0
	}
	byAbs := h.factors(scores, rw, cw)
	if feat.histWords {
		byAbs = mulFactors(byAbs, h.wordFactors(terms, scores, feat.histWordsW))
	}
	if len(byAbs) == 0 {
		return nil
	}
	out := make(map[string]float64, len(byAbs))
	for path, a := range abs {
		if f, ok := byAbs[a]; ok {
			out[path] = f
		}
	}
	return out
}

// absPaths returns the absolute path of each item's path (items with a
// path whose source has one) and the first of them in item order, "" if
// none.
func (p *pipeline) absPaths(srcs []source, items []*budget.Item) (map[string]string, string) {
	abs := map[string]string{} // path → absolute path
	var first string
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		if _, ok := abs[it.Path]; ok {
			continue
		}
		a := srcs[p.srcOf[it.Seq]].AbsPath
		if a == "" {
			continue
		}
		abs[it.Path] = a
		if first == "" {
			first = a
		}
	}
	return abs, first
}

// graphAhead starts building the reference graph of items (memoGraph) in
// its own goroutine when the query ranks with it, so that it is built
// while the chunks are scored (the graph depends on the chunks alone, not
// on their scores), and returns what waits for it; nil when no graph is
// wanted (no graph feature, or a query without terms).
func graphAhead(items []*budget.Item, text string, feat features) func() *refGraph {
	if !feat.graph || len(items) == 0 {
		return nil
	}
	if terms, _ := rankTerms(text, feat); len(terms) == 0 {
		return nil
	}
	done := make(chan *refGraph, 1)
	go func() { done <- memoGraph(items) }()
	return sync.OnceValue(func() *refGraph { return <-done })
}
