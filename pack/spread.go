package pack

import (
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Spread (docs/ranking.md): the k-th best chunk of a file (k = 0 for its
// best) keeps spreadDecay^k of its score, so that the best chunk of the
// next file can come before the fifth chunk of the first. A task's
// needed lines sit in one to four files; a pack that spends its budget on
// one file's every mention misses the others.
const (
	featSpread  = "spread"
	spreadDecay = 0.97
)

// spread applies the decay to q.raw (by file, in score order; ties by
// position) and recomputes q.best.
func (q *query) spread(items []*budget.Item) {
	d := q.feat.spreadDecay
	if d <= 0 || d >= 1 {
		return
	}
	byFile := map[string][]*budget.Item{}
	for _, it := range items {
		if it.Path != "" {
			byFile[it.Path] = append(byFile[it.Path], it)
		}
	}
	for _, its := range byFile {
		sort.SliceStable(its, func(i, j int) bool { return q.raw[its[i].Seq] > q.raw[its[j].Seq] })
		f := 1.0
		for _, it := range its {
			q.raw[it.Seq] *= f
			f *= d
		}
	}
	q.best = 0
	for _, it := range items {
		q.best = max(q.best, q.raw[it.Seq])
	}
}
