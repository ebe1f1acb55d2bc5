package pack

import (
	"math"
	"strings"
)

// The words of a file's history (issue 23, sixth pass): the messages of
// the commits that touched a file say what the file is about in the
// words tasks are asked in ("Add mutex for protect Context.Keys map",
// "Order JSON keys by default"), words its code may never use. Each file
// is a document of the terms of those messages (sweeps left out, as for
// co-change); the query scores the files by BM25 over these documents
// and a file's factor is 1 + histWordsWeight × its score over the best
// candidate's. A switch ("+histwords"; "+histbody" reads the bodies too,
// "histwordsw=x" the weight, "histwordsn=x" how many commits), off
// unless it gained on the evaluation (docs/quality.md "sixth pass").
const (
	featHistWords   = "histwords"
	featHistBody    = "histbody"
	histWordsWeight = 0.3
	// histMsgTerms bounds the terms kept of one commit message.
	histMsgTerms = 64
)

// saidCommit is one commit whose message was read: its files (absolute)
// and its message's terms.
type saidCommit struct {
	files []string
	terms []string
}

// historyRead is what the features ask loadHistory to read.
func (f features) historyRead() historyRead {
	if !f.histWords || f.histWordsW <= 0 {
		return historyRead{}
	}
	r := historyRead{msgs: 1, commits: int(f.histWordsN)}
	if f.histBody {
		r.msgs = 2
	}
	return r
}

// messageTerms is the terms of a commit message (split as a query is,
// stop words out), at most histMsgTerms.
func messageTerms(msg string) []string {
	t := termsOf(msg)
	if len(t) > histMsgTerms {
		t = t[:histMsgTerms]
	}
	return t
}

// isTrailer reports whether a message line is a trailer
// ("Signed-off-by: …", "Co-authored-by: …"), which names people, not
// the change.
func isTrailer(line string) bool {
	k, _, ok := strings.Cut(line, ": ")
	return ok && strings.HasSuffix(strings.ToLower(k), "-by") && !strings.Contains(k, " ")
}

// wordFactors is each candidate file's factor from the words of its
// history: 1 + w × its BM25 score for terms over the best candidate's;
// candidates is keyed by absolute path. Nil when no candidate scores.
func (h *history) wordFactors(terms []string, candidates map[string]float64, w float64) map[string]float64 {
	if h == nil || len(h.said) == 0 || len(terms) == 0 || w <= 0 {
		return nil
	}
	score := h.wordScores(terms, candidates)
	best := 0.0
	for _, s := range score {
		best = max(best, s)
	}
	return relativeFactors(score, best, w)
}

// wordScores scores the candidates by BM25 of terms over the message
// documents (every file the read commits touched is a document: N, df
// and the mean length are over them all).
func (h *history) wordScores(terms []string, candidates map[string]float64) map[string]float64 {
	index := make(map[string]int, len(terms))
	for i, t := range terms {
		index[t] = i
	}
	docLen := map[string]int{}
	tf := map[string][]float64{}
	hits := make([]float64, len(terms))
	for _, c := range h.said {
		clear(hits)
		any := false
		for _, t := range c.terms {
			if i, ok := index[t]; ok {
				hits[i]++
				any = true
			}
		}
		for _, f := range c.files {
			docLen[f] += len(c.terms)
			if !any {
				continue
			}
			row := tf[f]
			if row == nil {
				row = make([]float64, len(terms))
				tf[f] = row
			}
			for i, x := range hits {
				row[i] += x
			}
		}
	}
	return bm25Docs(tf, docLen, candidates, len(terms))
}

// bm25Docs is the BM25 score of each candidate with counts in tf (k1 =
// bm25K1, b = bm25B), the documents being every file of docLen.
func bm25Docs(tf map[string][]float64, docLen map[string]int, candidates map[string]float64, nTerms int) map[string]float64 {
	if len(tf) == 0 {
		return nil
	}
	total := 0
	for _, l := range docLen {
		total += l
	}
	n := float64(len(docLen))
	avg := max(1, float64(total)/n)
	idf := make([]float64, nTerms)
	for i := range idf {
		df := 0.0
		for _, row := range tf {
			if row[i] > 0 {
				df++
			}
		}
		idf[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	out := map[string]float64{}
	for f, row := range tf {
		if _, ok := candidates[f]; !ok {
			continue
		}
		norm := bm25K1 * (1 - bm25B + bm25B*float64(docLen[f])/avg)
		s := 0.0
		for i, x := range row {
			if x > 0 {
				s += idf[i] * x * (bm25K1 + 1) / (x + norm)
			}
		}
		out[f] = s
	}
	return out
}
