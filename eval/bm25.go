package eval

import (
	"math"
	"sort"
	"strings"
)

// WindowLines is the height of the baseline's windows.
const WindowLines = 40

// BM25 parameters of the baseline (the usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Doc is one retrievable unit of the baseline: a window of a file.
type Doc struct {
	Path       string
	Start, End int // 1-based, inclusive
	Text       string
	Tokens     int // exact token count of Text
}

// Windows cuts a file's text into consecutive windows of n lines.
func Windows(path, text string, n int) []Doc {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []Doc
	for s := 0; s < len(lines); s += n {
		e := min(len(lines), s+n)
		out = append(out, Doc{Path: path, Start: s + 1, End: e, Text: strings.Join(lines[s:e], "")})
	}
	return out
}

// PlainTerms is the baseline's tokenizer: maximal runs of letters, digits
// and underscores, lower-cased; no stemming, no stop words, no identifier
// splitting.
func PlainTerms(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

// BM25Rank scores docs against the query (Okapi BM25, k1 = 1.2, b = 0.75,
// idf = ln(1 + (N − df + 0.5)/(df + 0.5)), each distinct query term once)
// and returns the indexes of the docs with a positive score, best first
// (ties by path, then start line).
func BM25Rank(query string, docs []Doc) ([]int, []float64) {
	q := map[string]int{}
	var terms []string
	for _, t := range PlainTerms(query) {
		if _, ok := q[t]; !ok {
			q[t] = len(terms)
			terms = append(terms, t)
		}
	}
	tf := make([][]int, len(docs))
	dl := make([]int, len(docs))
	df := make([]int, len(terms))
	total := 0
	for i, d := range docs {
		words := PlainTerms(d.Text)
		dl[i] = len(words)
		total += len(words)
		f := make([]int, len(terms))
		for _, w := range words {
			if k, ok := q[w]; ok {
				f[k]++
			}
		}
		for k, v := range f {
			if v > 0 {
				df[k]++
			}
		}
		tf[i] = f
	}
	n := float64(len(docs))
	avg := float64(total) / max(1, n)
	idf := make([]float64, len(terms))
	for k := range terms {
		idf[k] = math.Log(1 + (n-float64(df[k])+0.5)/(float64(df[k])+0.5))
	}
	scores := make([]float64, len(docs))
	var order []int
	for i := range docs {
		s := 0.0
		for k, f := range tf[i] {
			if f == 0 {
				continue
			}
			ff := float64(f)
			s += idf[k] * ff * (bm25K1 + 1) / (ff + bm25K1*(1-bm25B+bm25B*float64(dl[i])/max(avg, 1)))
		}
		scores[i] = s
		if s > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := order[a], order[b]
		if scores[x] != scores[y] {
			return scores[x] > scores[y]
		}
		if docs[x].Path != docs[y].Path {
			return docs[x].Path < docs[y].Path
		}
		return docs[x].Start < docs[y].Start
	})
	return order, scores
}

// Greedy packs docs in the given order under budget: a doc that does not
// fit is skipped and the next one tried. It returns the chosen indexes.
func Greedy(order []int, docs []Doc, budget int) []int {
	var out []int
	used := 0
	for _, i := range order {
		if used+docs[i].Tokens <= budget {
			used += docs[i].Tokens
			out = append(out, i)
		}
	}
	return out
}
