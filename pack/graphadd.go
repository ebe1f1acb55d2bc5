package pack

import (
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Additive structure (docs/ranking.md "Reference graph", issue 23 fifth
// pass): the graph's factor (graph.go) multiplies a file's lexical score,
// so a file the query names nothing of — score 0 — gains nothing from it
// however strongly the best files lean on it. With "+graphadd" the
// graphAddFiles files beyond the seeds that the personalised PageRank
// ranks highest also gain an amount: graphAddWeight × their rank over the
// best non-seed rank × the best chunk's own score, each chunk at least
// half of it (its file's best chunk all of it). Measured on the
// evaluation and off by default (docs/quality.md "fifth pass", round 7).
const (
	featGraphAdd = "graphadd"
	// graphAddFiles: the non-seed files that gain ("graphaddn=x");
	// graphAddWeight their gain ("graphaddw=x").
	graphAddFiles  = 3
	graphAddWeight = 0.3
)

// addGraphGains adds to add (by Item.Seq) each chunk's additive gain
// from the reference graph seeded by q.fileBest (after the file
// factors).
func (q *query) addGraphGains(items []*budget.Item, add map[int]float64) {
	gr := graphRanks(items, q.fileBest)
	if gr == nil {
		return
	}
	type fr struct {
		path string
		r    float64
	}
	var cand []fr
	for i, r := range gr.rank {
		if !gr.isSeed[i] && r > 0 {
			cand = append(cand, fr{gr.files[i], r / gr.best})
		}
	}
	sort.Slice(cand, func(a, b int) bool {
		if cand[a].r != cand[b].r {
			return cand[a].r > cand[b].r
		}
		return cand[a].path < cand[b].path
	})
	if n := int(q.feat.graphAddN); len(cand) > n {
		cand = cand[:n]
	}
	if len(cand) == 0 {
		return
	}
	strength := make(map[string]float64, len(cand))
	for _, c := range cand {
		strength[c.path] = min(1, c.r)
	}
	bestOwn := 0.0
	for _, it := range items {
		bestOwn = max(bestOwn, q.raw[it.Seq])
	}
	for _, it := range items {
		s, ok := strength[it.Path]
		if !ok {
			continue
		}
		share := 0.5
		if fb := q.fileBest[it.Path]; fb > 0 {
			share += 0.5 * q.raw[it.Seq] / fb
		}
		add[it.Seq] += q.feat.graphAddW * s * bestOwn * share
	}
}
