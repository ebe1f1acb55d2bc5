package pack

// Query coverage of a file (issue 23, fourth pass): a file that holds
// many of the query's words, spread over its chunks, is likelier the file
// a task is about than one whose single chunk matches one rare word
// strongly; BM25 over chunks sees each chunk alone. The coverage of a file
// is the summed weight of the distinct query terms its chunks hold; the
// file's factor is 1 + coverWeight × its coverage over the best file's.
// A switch ("+cover", weight "coverw=x"), off unless it gained on the
// evaluation (docs/quality.md).
const (
	featCover   = "cover"
	coverWeight = 0.3
)

// addCover records the terms of a chunk's term-count row in its file's
// coverage mask (q.coverMask, by path).
func (q *query) addCover(path string, row []uint16) {
	if !q.feat.cover || path == "" {
		return
	}
	if q.coverMask == nil {
		q.coverMask = map[string]uint64{}
	}
	m := q.coverMask[path]
	for i, f := range row {
		if f > 0 && i < 64 {
			m |= 1 << i
		}
	}
	q.coverMask[path] = m
}

// coverFactors is each covered file's factor (1 + coverW × coverage over
// the best coverage); nil when the switch is off or nothing is covered.
func (q *query) coverFactors() map[string]float64 {
	if !q.feat.cover || len(q.coverMask) == 0 || q.feat.coverW <= 0 {
		return nil
	}
	cov := make(map[string]float64, len(q.coverMask))
	best := 0.0
	for p, m := range q.coverMask {
		s := 0.0
		for i := range q.terms {
			if i < 64 && m&(1<<i) != 0 {
				s += q.w[i]
			}
		}
		cov[p] = s
		best = max(best, s)
	}
	return relativeFactors(cov, best, q.feat.coverW)
}

// relativeFactors turns each file's score into the factor 1 + w·s/best
// (best is the highest score); nil when no score is positive, and no
// entry for a file that scores nothing.
func relativeFactors(score map[string]float64, best, w float64) map[string]float64 {
	if best <= 0 {
		return nil
	}
	out := make(map[string]float64, len(score))
	for p, s := range score {
		if s > 0 {
			out[p] = 1 + w*s/best
		}
	}
	return out
}
