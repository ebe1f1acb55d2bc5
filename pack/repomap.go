package pack

import (
	"math"
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// A pack with no query is a map of the repository (docs/ranking.md
// "No query: a repository map"): with no task to rank by, the walked
// files are ranked by their centrality in the reference graph (plain
// PageRank, graph.go), the outlines of the most central files come first
// and whole chunks of the most central files fill what is left.
const (
	// featMap is the ablation (Engine.Ablate) that switches the map off
	// (files then rank by path, as before the map).
	featMap = "map"
	// mapChunkShare is the relevance of a whole chunk of the most central
	// file; an outline of a file ranks at mapChunkShare + that file's
	// share, so every map outline ranks above every whole chunk.
	mapChunkShare = 0.5
	// The map's outlines may take 1/mapOutlineShare of the available
	// budget (the first one more); whole chunks fill the rest.
	mapOutlineShare = 2
	// mapScanBytes bounds the text a map's graph scans for uses, shared
	// out between the files, each scanned from its start (imports and
	// top-level declarations first) for at least mapScanMin bytes: on
	// Go's src (≈ 10,000 files) a whole scan added half to a warm pack.
	mapScanBytes = 8 << 20
	mapScanMin   = 1 << 10
	// mapMaxParses bounds the files a map parses for outlines.
	mapMaxParses = 4
	// mapMinRoom is the least share (tokens) worth parsing one more
	// file's outline for.
	mapMinRoom = 64
	// mapWarning tells the caller the pack is a map, not an answer.
	mapWarning = "no query: packed a map of the repository (central files first); give --query for a pack about a task"
)

// repoMap is the centrality of each file of a no-query pack (1 for the
// most central), and the files in map order.
type repoMap struct {
	central map[string]float64
	order   []string
}

// wantsMap reports whether the request is a map: files are walked, there
// is no query term, no search and no source with a relevance of its own,
// and the map is not ablated.
func (p *pipeline) wantsMap(srcs []source) bool {
	if len(queryTerms(p.req.Query)) > 0 || p.req.Search != nil || (len(p.req.Paths) == 0 && len(p.req.Include) == 0) {
		return false
	}
	for _, a := range p.e.Ablate {
		if a == featMap {
			return false
		}
	}
	for _, s := range srcs {
		if s.Relevance != nil {
			return false
		}
	}
	return true
}

// newRepoMap ranks the files of items by plain PageRank (a uniform
// restart) over their reference graph, scaled so that the most central
// file has 1 and the least 0 (a graph where every file ranks alike, or no
// graph at all, gives every file 0: path order, and no map outline); ties
// fall back to path order. nil when there are no files.
func newRepoMap(items []*budget.Item) *repoMap {
	m := &repoMap{central: map[string]float64{}}
	files := map[string]bool{}
	for _, it := range items {
		files[it.Path] = true
	}
	g := buildGraph(items, max(mapScanMin, mapScanBytes/max(1, len(files))))
	if g != nil {
		n := len(g.files)
		pers := make([]float64, n)
		for i := range pers {
			pers[i] = 1 / float64(n)
		}
		rank := g.pagerank(pers)
		lo, hi := math.Inf(1), 0.0
		for _, r := range rank {
			lo, hi = min(lo, r), max(hi, r)
		}
		for i, r := range rank {
			c := 0.0
			if hi > lo {
				// Rounded so that near-equal ranks tie and fall back to path order.
				c = math.Round((r-lo)/(hi-lo)*1e3) / 1e3
			}
			m.central[g.files[i]] = c
		}
	}
	for _, it := range items {
		if _, ok := m.central[it.Path]; !ok && it.Path != "" {
			m.central[it.Path] = 0
		}
	}
	for path := range m.central {
		m.order = append(m.order, path)
	}
	sort.Slice(m.order, func(a, b int) bool {
		x, y := m.order[a], m.order[b]
		if m.central[x] != m.central[y] {
			return m.central[x] > m.central[y]
		}
		return x < y
	})
	if len(m.order) == 0 {
		return nil
	}
	return m
}

// relevance is the map's relevance of a whole chunk of path.
func (m *repoMap) relevance(path string) float64 {
	return mapChunkShare * m.central[path]
}

// mapOutlines returns the outline items of the most central files (those
// above the least central), in map
// order, ranked above every whole chunk, within 1/mapOutlineShare of the
// available budget (estimated; the first outline may take up to all of
// it) and at most mapMaxParses parses (each is a tree-sitter parse on the
// pack's serial path; a map asks selection for no other outline). cands
// are the ranked candidates (one of each file gives the outline its
// category, type and source).
func (p *pipeline) mapOutlines(cands []*budget.Item, f *formatter) []*budget.Item {
	for _, a := range p.e.Ablate {
		if a == featOutline {
			return nil
		}
	}
	first := map[string]*budget.Item{}
	for _, it := range cands {
		if it.Path != "" && first[it.Path] == nil {
			first[it.Path] = it
		}
	}
	w := p.e.cfg.Context.Ranking
	room := p.alloc.Available / mapOutlineShare
	var out []*budget.Item
	for _, path := range p.repoMap.order {
		if p.repoMap.central[path] <= 0 || room < mapMinRoom || p.ctx.Err() != nil {
			break // the rest are the least central (or there is no graph), or the share is spent
		}
		best := first[path]
		if best == nil {
			continue
		}
		if len(p.parsed) >= mapMaxParses {
			break
		}
		rs := p.outlineOf(best)
		if len(rs) == 0 {
			continue
		}
		rel := mapChunkShare + (1-mapChunkShare)*p.repoMap.central[path]
		score := w.RelevanceWeight*rel + w.SourceWeight*float64(best.Priority)/100
		score = math.Round(min(1, max(0, score))*1e4) / 1e4
		var items []*budget.Item
		cost := int64(0)
		for k, r := range rs {
			it := *best
			it.StartLine, it.EndLine = r.Start, r.End
			it.Content = best.Source.Slice(r.Start, r.End)
			it.Tokens = p.tok.Count(it.Content)
			it.Kind, it.Name, it.Outline, it.Score = "outline", "", true, score
			cost += int64(it.Tokens + f.overhead(&it, k == 0))
			items = append(items, &it)
		}
		switch {
		case len(out) == 0 && cost <= p.alloc.Available:
			// The most central outline may take more than the share:
			// a map opens with it.
			room = max(0, room-cost)
		case cost > room:
			continue // a smaller outline further down may still fit
		default:
			room -= cost
		}
		out = append(out, items...)
	}
	return out
}
