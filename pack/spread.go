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
	// spreadStep scales every chunk of a file after its best one, once,
	// before the decay (breadth: the best chunk of the next file can come
	// before a file's second; "spreadstep=x", 1 = no step).
	spreadStep = 1.0
)

// spread applies the decay to q.raw (by file, in score order; ties by
// position): the k-th best chunk of a file (k ≥ 1) keeps spreadStep ×
// spreadDecay^k of its score. It recomputes q.best.
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
		step := q.feat.spreadStep
		if step <= 0 {
			step = 1 // unset: no step
		}
		f := 1.0
		for k, it := range its {
			q.raw[it.Seq] *= f
			f *= d
			if k == 0 {
				f *= step
			}
		}
	}
	q.best = 0
	for _, it := range items {
		q.best = max(q.best, q.raw[it.Seq])
	}
}

// File quota (issue 23 fifth pass, a two-stage allocation): the files are
// ranked by their best chunk after spread, and every chunk of a file
// ranked below the fileQuotaFiles best is scaled by fileQuotaFactor, so
// that the budget goes deeper into the files chosen first. Measured on
// the evaluation and off by default (docs/quality.md "fifth pass", round 7):
// "+filequota" turns it on, "filequotan=x" and "filequotaf=x" set it.
const (
	featFileQuota   = "filequota"
	fileQuotaFiles  = 8
	fileQuotaFactor = 0.85
)

// fileQuota applies the file quota to q.raw and recomputes q.best.
func (q *query) fileQuota(items []*budget.Item) {
	f := q.feat.fileQuotaF
	if f <= 0 || f >= 1 {
		return
	}
	best := map[string]float64{}
	for _, it := range items {
		if it.Path != "" && q.raw[it.Seq] > best[it.Path] {
			best[it.Path] = q.raw[it.Seq]
		}
	}
	top := bestFiles(best, int(q.feat.fileQuotaN), func(string) bool { return true })
	keep := make(map[string]bool, len(top))
	for _, t := range top {
		keep[t.path] = true
	}
	q.best = 0
	for _, it := range items {
		if it.Path != "" && !keep[it.Path] {
			q.raw[it.Seq] *= f
		}
		q.best = max(q.best, q.raw[it.Seq])
	}
}
