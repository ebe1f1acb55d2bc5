package pack

import (
	"math"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
)

// recencyHalfLife is the age at which recency falls to 0.5.
const recencyHalfLife = 24 * time.Hour

// rank scores every item (DESIGN rule 5):
//
//	score = relevance_weight·relevance + recency_weight·recency + source_weight·priority/100
//
// relevance is the source's own when given, else the lexical relevance of
// the chunk to the query (0 without a query); recency decays by half every
// 24 hours of age relative to the newest source of the request (so the same
// input always ranks the same way), 0 when the time is unknown, 1 for tool
// output without a time. Scores are rounded to 4 decimals. The formula is
// documented in docs/ranking.md.
func (p *run) rank(items []*budget.Item, srcs []source) {
	w := p.e.cfg.Context.Ranking
	var newest time.Time
	for _, s := range srcs {
		if s.Timestamp.After(newest) {
			newest = s.Timestamp
		}
	}
	q := newQuery(p.req.Query, items)
	if p.debug() {
		p.factors = make(map[int]factors, len(items))
	}
	for _, it := range items {
		s := srcs[p.srcOf[it.Seq]]
		var rel float64
		switch {
		case s.Relevance != nil:
			rel = *s.Relevance
		case q != nil:
			rel = q.relevance(it)
		}
		rec := 0.0
		switch {
		case !s.Timestamp.IsZero():
			age := newest.Sub(s.Timestamp)
			rec = math.Pow(0.5, float64(age)/float64(recencyHalfLife))
		case s.Type == collector.ToolResult:
			rec = 1
		}
		if p.factors != nil {
			p.factors[it.Seq] = factors{relevance: rel, recency: rec}
		}
		score := w.RelevanceWeight*rel + w.RecencyWeight*rec + w.SourceWeight*float64(it.Priority)/100
		it.Score = math.Round(min(1, max(0, score))*1e4) / 1e4
	}
}

// maxQueryTerms caps the distinct query terms used (one bit each).
const maxQueryTerms = 64

// query is a search query prepared for lexical relevance.
type query struct {
	lens  uint64 // bit n set when a term has n bytes (n < 64): skips most lookups
	terms []string
	index map[string]int // term → bit
	hits  []uint64       // query terms found in each item's content, by Item.Seq
	idf   []float64
	total float64
}

// newQuery splits the query into identifier-aware terms and weighs each by
// its inverse document frequency over the candidate chunks:
// idf(t) = ln(1 + N/(1+df(t))). It returns nil for an empty query.
func newQuery(text string, items []*budget.Item) *query {
	terms := uniq(Terms(text))
	if len(terms) > maxQueryTerms {
		terms = terms[:maxQueryTerms]
	}
	if len(terms) == 0 {
		return nil
	}
	q := &query{terms: terms, index: map[string]int{}, idf: make([]float64, len(terms))}
	for i, t := range terms {
		q.index[t] = i
		if len(t) < 64 {
			q.lens |= 1 << len(t)
		} else {
			q.lens |= 1 << 63 // long terms: look every long word up
		}
	}
	df := make([]int, len(terms))
	q.hits = make([]uint64, len(items))
	for _, it := range items {
		h := q.match(it.Content)
		q.hits[it.Seq] = h
		for i := range terms {
			if h&(1<<i) != 0 {
				df[i]++
			}
		}
	}
	n := float64(len(items))
	for i := range terms {
		q.idf[i] = math.Log(1 + n/(1+float64(df[i])))
		q.total += q.idf[i]
	}
	return q
}

// match returns the set of query terms that occur in text.
func (q *query) match(text string) uint64 {
	var h uint64
	scanTerms(text, false, q.lens, func(t []byte) {
		n := min(len(t), 63)
		if q.lens&(1<<n) == 0 {
			return
		}
		if i, ok := q.index[string(t)]; ok {
			h |= 1 << i
		}
	})
	return h
}

// relevance is 0.75·coverage + 0.25·name match, where coverage is the
// idf-weighted share of query terms that occur in the chunk and name match
// is the share of query terms in the chunk's symbol name and path.
func (q *query) relevance(it *budget.Item) float64 {
	if q.total == 0 {
		return 0
	}
	h := q.hits[it.Seq]
	names := q.match(it.Name + " " + it.Path + " " + it.Label)
	var cov float64
	named := 0
	for i := range q.terms {
		if h&(1<<i) != 0 {
			cov += q.idf[i]
		}
		if names&(1<<i) != 0 {
			named++
		}
	}
	return min(1, 0.75*cov/q.total+0.25*float64(named)/float64(len(q.terms)))
}

var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true, "can": true,
	"do": true, "does": true, "for": true, "from": true, "how": true, "i": true, "if": true, "in": true, "is": true,
	"it": true, "of": true, "on": true, "or": true, "the": true, "this": true, "that": true, "to": true, "what": true,
	"when": true, "where": true, "which": true, "who": true, "why": true, "with": true, "we": true, "my": true,
}

// Terms splits text into lower-case terms, identifier-aware: words are cut at
// non-alphanumerics, camelCase humps and digit boundaries ("parseHTTPRequest2"
// → parse, http, request, 2), and a compound identifier also yields itself
// ("parsehttprequest2"). Stop words and one-letter terms are dropped, and a
// plural "s" is removed ("carts" → "cart").
func Terms(text string) []string {
	var out []string
	scanTerms(text, true, 0, func(t []byte) { out = append(out, string(t)) })
	return out
}

// scanTerms calls fn with each term of text (see [Terms]); the slice is
// only valid during the call. ASCII words take a fast path. Stop words are
// dropped only when stop is set (matching against query terms, which hold
// none, can skip that lookup). A non-zero lens (bit n: some wanted term has
// n bytes, bit 63: a longer one) skips ASCII words that cannot become a
// wanted term before they are lowered.
func scanTerms(text string, stop bool, lens uint64, fn func([]byte)) {
	buf := make([]byte, 0, 64)
	emit := func(word string, ascii bool) {
		if lens != 0 && ascii {
			n := min(len(word), 63)
			if lens&(1<<n) == 0 && (n < 2 || lens&(1<<(n-1)) == 0) {
				return // neither the word nor its singular has a wanted length
			}
		}
		buf = buf[:0]
		if ascii {
			for i := 0; i < len(word); i++ {
				c := word[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf = append(buf, c)
			}
		} else {
			for _, r := range word {
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
		}
		if len(buf) < 2 || stop && stopwords[string(buf)] {
			return
		}
		if len(buf) > 3 && buf[len(buf)-1] == 's' && buf[len(buf)-2] != 's' {
			buf = buf[:len(buf)-1]
		}
		fn(buf)
	}
	i := 0
	for i < len(text) {
		// Skip to the start of a word.
		if c := text[i]; c < utf8.RuneSelf {
			if !asciiWord(c) {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRuneInString(text[i:]); !isWordRune(r) {
			i += size
			continue
		}
		start, ascii := i, true
		for i < len(text) {
			if c := text[i]; c < utf8.RuneSelf {
				if !asciiWord(c) {
					break
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[i:])
			if !isWordRune(r) {
				break
			}
			ascii = false
			i += size
		}
		word := text[start:i]
		parts := 0
		part := func(p string) {
			parts++
			emit(p, ascii)
		}
		if ascii {
			forEachPartASCII(word, part)
		} else {
			forEachPart(word, part)
		}
		if parts > 1 {
			emit(word, ascii)
		}
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func asciiWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// forEachPartASCII is forEachPart for ASCII words.
func forEachPartASCII(w string, fn func(string)) {
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	start := 0
	for i := 1; i < len(w); i++ {
		prev, cur := w[i-1], w[i]
		cut := (lower(prev) && upper(cur)) ||
			(upper(prev) && upper(cur) && i+1 < len(w) && lower(w[i+1])) ||
			(digit(prev) != digit(cur))
		if cut {
			fn(w[start:i])
			start = i
		}
	}
	fn(w[start:])
}

// forEachPart cuts an identifier at camelCase humps and letter/digit borders.
func forEachPart(w string, fn func(string)) {
	start := 0
	var prev rune = -1
	for i, cur := range w {
		if prev >= 0 {
			next, _ := utf8.DecodeRuneInString(w[i+utf8.RuneLen(cur):])
			if i+utf8.RuneLen(cur) >= len(w) {
				next = 0
			}
			cut := (unicode.IsLower(prev) && unicode.IsUpper(cur)) ||
				(unicode.IsUpper(prev) && unicode.IsUpper(cur) && next != 0 && unicode.IsLower(next)) ||
				(unicode.IsDigit(prev) != unicode.IsDigit(cur))
			if cut {
				fn(w[start:i])
				start = i
			}
		}
		prev = cur
	}
	fn(w[start:])
}

func uniq(list []string) []string {
	seen := map[string]bool{}
	out := list[:0:0]
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
