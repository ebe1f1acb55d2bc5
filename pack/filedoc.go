package pack

// Whole-file relevance (issue 23 fifth pass): a file scored as one
// document — BM25 over the summed term counts of its chunks, its length
// their tokens, against the mean file — plus its path's name match; the
// file's factor is 1 + fileDocWeight × that score over the best file's.
// Unlike coverage (cover.go) it counts how often the file says each term,
// saturated. A switch ("+filedoc", weight "filedocw=x"), off by default
// (docs/quality.md "fifth pass", round 7).
const (
	featFileDoc   = "filedoc"
	fileDocWeight = 0.3
)

// fileDoc is one file's summed term counts and tokens.
type fileDoc struct {
	tf     []uint16
	tokens int
}

// addFileDoc adds a chunk's term-count row and tokens to its file's
// document (q.fileDocs, by path).
func (q *query) addFileDoc(path string, row []uint16, tokens int) {
	if !q.feat.fileDoc || path == "" {
		return
	}
	if q.fileDocs == nil {
		q.fileDocs = map[string]*fileDoc{}
	}
	d := q.fileDocs[path]
	if d == nil {
		d = &fileDoc{tf: make([]uint16, len(row))}
		q.fileDocs[path] = d
	}
	for i, f := range row {
		d.tf[i] = uint16(min(int(d.tf[i])+int(f), 1<<16-1))
	}
	d.tokens += max(1, tokens)
}

// fileDocFactors is each file's factor from its whole-file score; nil
// when the switch is off or no file scores.
func (q *query) fileDocFactors() map[string]float64 {
	if !q.feat.fileDoc || len(q.fileDocs) == 0 || q.feat.fileDocW <= 0 {
		return nil
	}
	total := 0
	for _, d := range q.fileDocs {
		total += d.tokens
	}
	avg := float64(total) / float64(len(q.fileDocs))
	plain := features{bm25: true}
	score := make(map[string]float64, len(q.fileDocs))
	best := 0.0
	for p, d := range q.fileDocs {
		s := textScore(q.w, d.tf, float64(d.tokens), avg, plain, false, false)
		if q.feat.names {
			s += q.pathScore(p)
		}
		score[p] = s
		best = max(best, s)
	}
	return relativeFactors(score, best, q.feat.fileDocW)
}
