package pack

import (
	"math"
	"strings"
	"time"
	"unicode"

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
		score := w.RelevanceWeight*rel + w.RecencyWeight*rec + w.SourceWeight*float64(it.Priority)/100
		it.Score = math.Round(min(1, max(0, score))*1e4) / 1e4
	}
}

// query is a search query prepared for lexical relevance.
type query struct {
	terms []string
	sets  []map[string]bool // term set of each item, by Item.Seq
	idf   map[string]float64
	total float64
}

// newQuery splits the query into identifier-aware terms and weighs each by
// its inverse document frequency over the candidate chunks:
// idf(t) = ln(1 + N/(1+df(t))). It returns nil for an empty query.
func newQuery(text string, items []*budget.Item) *query {
	terms := uniq(Terms(text))
	if len(terms) == 0 {
		return nil
	}
	q := &query{terms: terms, idf: map[string]float64{}}
	df := map[string]int{}
	q.sets = make([]map[string]bool, len(items))
	for _, it := range items {
		set := termSet(it.Content)
		q.sets[it.Seq] = set
		for _, t := range terms {
			if set[t] {
				df[t]++
			}
		}
	}
	n := float64(len(items))
	for _, t := range terms {
		q.idf[t] = math.Log(1 + n/(1+float64(df[t])))
		q.total += q.idf[t]
	}
	return q
}

// relevance is 0.75·coverage + 0.25·name match, where coverage is the
// idf-weighted share of query terms that occur in the chunk and name match
// is the share of query terms in the chunk's symbol name and path.
func (q *query) relevance(it *budget.Item) float64 {
	if q.total == 0 {
		return 0
	}
	set := q.sets[it.Seq]
	names := termSet(it.Name + " " + it.Path + " " + it.Label)
	var cov float64
	named := 0
	for _, t := range q.terms {
		if set[t] {
			cov += q.idf[t]
		}
		if names[t] {
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
// ("checkoutservice"). Stop words and one-letter terms are dropped, and a
// plural "s" is removed ("carts" → "cart").
func Terms(text string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		parts := splitIdent(word)
		if len(parts) > 1 {
			out = appendTerm(out, strings.ToLower(word))
		}
		for _, part := range parts {
			out = appendTerm(out, strings.ToLower(part))
		}
	}
	return out
}

func appendTerm(out []string, t string) []string {
	if len(t) < 2 || stopwords[t] {
		return out
	}
	if len(t) > 3 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") {
		t = t[:len(t)-1]
	}
	return append(out, t)
}

// splitIdent cuts an identifier at camelCase humps and letter/digit borders.
func splitIdent(w string) []string {
	rs := []rune(w)
	var parts []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		var next rune
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		cut := (unicode.IsLower(prev) && unicode.IsUpper(cur)) ||
			(unicode.IsUpper(prev) && unicode.IsUpper(cur) && next != 0 && unicode.IsLower(next)) ||
			(unicode.IsDigit(prev) != unicode.IsDigit(cur))
		if cut {
			parts = append(parts, string(rs[start:i]))
			start = i
		}
	}
	return append(parts, string(rs[start:]))
}

func termSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, t := range Terms(text) {
		set[t] = true
	}
	return set
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
