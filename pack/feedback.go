package pack

import (
	"math"
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Pseudo-relevance feedback (docs/ranking.md "File signals", issue 23
// fifth pass): the files the ranking likes best say which words the task's code
// uses beyond the query's — the identifiers a commit message does not
// name. The distinctive terms of the best files (frequent in them, rare in
// the candidate chunks: RM3's relevance model with an idf) become a
// second, bounded query whose BM25 score every chunk gains a share of.
// Measured on the evaluation and off by default (docs/quality.md "fifth
// pass", round 7): "+prf" turns it on.
const (
	featPRF = "prf"
	// featPRFOther: only the chunks of files other than the feedback
	// files gain (breadth: the feedback reaches further files instead of
	// the same files' other chunks).
	featPRFOther = "prfother"

	// prfFiles is the number of best files whose words feed back
	// ("prfk=x"); prfTerms the expansion terms kept ("prfn=x"); prfWeight
	// the share of the best chunk's score the best-matching chunk gains
	// ("prfw=x").
	prfFiles  = 3
	prfTerms  = 10
	prfWeight = 0.3
	// prfCandidates bounds the terms counted over every chunk (the most
	// frequent in the feedback files).
	prfCandidates = 48
	// prfMinLen: shorter terms (err, ctx, req) are too generic to feed
	// back.
	prfMinLen = 4
	// prfMaxDF: a term held by more than this share of the chunks points
	// nowhere.
	prfMaxDF = 0.05
)

// prfTerm is a candidate expansion term: its weight in the feedback
// files' relevance model.
type prfTerm struct {
	term string
	p    float64
}

// addFeedback adds to add (by Item.Seq) each chunk's gain from the
// feedback query of the best files (q.fileBest after the file factors).
func (q *query) addFeedback(items []*budget.Item, add map[int]float64) {
	feat := q.feat
	top := bestFiles(q.fileBest, int(feat.prfK), func(p string) bool { return !isProseF(p, feat) })
	if len(top) == 0 {
		return
	}
	cands := q.feedbackCandidates(items, top)
	if len(cands) == 0 {
		return
	}
	terms := make([]string, len(cands))
	for i, c := range cands {
		terms[i] = c.term
	}
	fq := &query{terms: terms, index: make(map[string]int, len(terms)), lens: newLengths(terms)}
	for i, t := range terms {
		fq.index[t] = i
	}
	nt := len(terms)
	tf := make([]uint16, len(items)*nt)
	df := make([]int, nt)
	totalLen := 0
	for k, it := range items {
		row := tf[k*nt : (k+1)*nt]
		fq.count(it.Content, row)
		totalLen += max(1, it.Tokens)
		for i, f := range row {
			if f > 0 {
				df[i]++
			}
		}
	}
	w := q.feedbackWeights(cands, df, len(items))
	if w == nil {
		return
	}
	q.addFeedbackGains(items, top, tf, w, float64(totalLen)/float64(len(items)), add)
}

// feedbackCandidates returns the prfCandidates terms with the highest
// weight in the relevance model of the feedback files top: Σ over the
// files of the file's share of their scores × the term's frequency in the
// file / the file's terms. Query terms, short terms and numbers are left
// out. Best first; ties by term.
func (q *query) feedbackCandidates(items []*budget.Item, top []fileScore) []prfTerm {
	idx := make(map[string]int, len(top))
	sum := 0.0
	for i, f := range top {
		idx[f.path] = i
		sum += f.score
	}
	counts := make([]map[string]int, len(top))
	lens := make([]int, len(top))
	for i := range counts {
		counts[i] = map[string]int{}
	}
	for _, it := range items {
		i, ok := idx[it.Path]
		if !ok {
			continue
		}
		scanTerms(it.Content, true, nil, func(t []byte) {
			lens[i]++
			if len(t) < prfMinLen || isNumber(t) {
				return
			}
			if _, inQuery := q.index[string(t)]; inQuery {
				return
			}
			counts[i][string(t)]++
		})
	}
	p := map[string]float64{}
	for i, f := range top {
		if lens[i] == 0 {
			continue
		}
		share := f.score / sum / float64(lens[i])
		for t, n := range counts[i] {
			p[t] += share * float64(n)
		}
	}
	out := make([]prfTerm, 0, len(p))
	for t, x := range p {
		out = append(out, prfTerm{t, x})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].p != out[j].p {
			return out[i].p > out[j].p
		}
		return out[i].term < out[j].term
	})
	if len(out) > prfCandidates {
		out = out[:prfCandidates]
	}
	return out
}

// isNumber reports whether a term is all digits.
func isNumber(t []byte) bool {
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// feedbackWeights weighs the candidates (df: chunks holding each, of n):
// the relevance model's weight × idf, for the prfTerms best that are not
// held by more than prfMaxDF of the chunks; the others weigh 0. Nil when
// none is left.
func (q *query) feedbackWeights(cands []prfTerm, df []int, n int) []float64 {
	type scored struct {
		i int
		s float64
	}
	var ss []scored
	maxDF := max(2, int(prfMaxDF*float64(n)))
	for i, c := range cands {
		if df[i] == 0 || df[i] > maxDF {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
		ss = append(ss, scored{i, c.p * idf})
	}
	if len(ss) == 0 {
		return nil
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].s > ss[b].s })
	if k := int(q.feat.prfN); len(ss) > k {
		ss = ss[:max(1, k)]
	}
	w := make([]float64, len(cands))
	best := ss[0].s
	for _, s := range ss {
		w[s.i] = s.s / best
	}
	return w
}

// addFeedbackGains: each chunk (not of the feedback files top, with
// featPRFOther) gains prfWeight × the best own chunk score × its BM25
// score against the expansion terms (weights w, counts tf; avg the mean
// length) over the best such score.
func (q *query) addFeedbackGains(items []*budget.Item, top []fileScore, tf []uint16, w []float64, avg float64, add map[int]float64) {
	nt := len(w)
	seed := map[string]bool{}
	for _, f := range top {
		seed[f.path] = true
	}
	scores := make([]float64, len(items))
	bestExp, bestOwn := 0.0, 0.0
	plain := features{bm25: true}
	for k, it := range items {
		bestOwn = max(bestOwn, q.raw[it.Seq])
		if q.feat.prfOther && seed[it.Path] || it.Path == "" {
			continue
		}
		scores[k] = textScore(w, tf[k*nt:(k+1)*nt], float64(max(1, it.Tokens)), avg, plain, false, false)
		bestExp = max(bestExp, scores[k])
	}
	if bestExp <= 0 {
		return
	}
	for k, it := range items {
		if scores[k] > 0 {
			add[it.Seq] += q.feat.prfW * bestOwn * scores[k] / bestExp
		}
	}
}
