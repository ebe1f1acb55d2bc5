package eval

import (
	"math"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WindowLines is the height of the baselines' windows.
const WindowLines = 40

// BM25 parameters of the baselines (the usual defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Doc is one retrievable unit of a baseline: a window of a file.
type Doc struct {
	Path       string
	Start, End int // 1-based, inclusive
	Text       string
	// TextTokens is the exact token count of Text alone (what the old
	// baseline was charged); Tokens the exact count of the window as a
	// pack shows it, header and fence included (see [Framed]).
	TextTokens, Tokens int
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

// Framed is a window as a pack shows it: the header of acode's markdown
// format ("## File: p (lines a-b)"), a fence one backtick longer than any
// backtick run of the text (at least three) with the file's extension as
// its info string, the text, the closing fence and a blank line. The
// honest baseline is charged the exact tokens of this text.
func Framed(d Doc) string {
	run, longest := 0, 0
	for i := 0; i < len(d.Text); i++ {
		if d.Text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	var b strings.Builder
	b.Grow(len(d.Text) + len(d.Path) + 64)
	b.WriteString("## File: ")
	b.WriteString(d.Path)
	b.WriteString(" (lines ")
	b.WriteString(itoa(d.Start))
	b.WriteString("-")
	b.WriteString(itoa(d.End))
	b.WriteString(")\n")
	b.WriteString(fence)
	b.WriteString(strings.TrimPrefix(path.Ext(d.Path), "."))
	b.WriteString("\n")
	b.WriteString(d.Text)
	if !strings.HasSuffix(d.Text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence)
	b.WriteString("\n\n")
	return b.String()
}

func itoa(n int) string {
	var buf [20]byte
	i := len(buf)
	for {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(buf[i:])
}

// PlainTerms is the old baseline's tokenizer: maximal runs of letters,
// digits and underscores, lower-cased; no stemming, no stop words, no
// identifier splitting.
func PlainTerms(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127)
	})
}

// englishStop are the English stop words the honest baseline drops (the
// usual search-engine list: articles, pronouns, auxiliaries, prepositions,
// conjunctions).
var englishStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from further had
		has have having he her here hers herself him himself his how i if in into is it its itself just me more most my
		myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such
		than that the their theirs them themselves then there these they this those through to too under until up very
		was we were what when where which while who whom why will with would you your yours yourself yourselves`) {
		m[w] = true
	}
	return m
}()

// CodeTerms is the honest baseline's tokenizer (docs/quality.md): words
// are maximal runs of letters, digits, '_' and inner '.'; each is split at
// camelCase humps, '_', '.' and letter/digit borders into lower-cased
// parts, and a word of several parts also yields itself lower-cased (the
// compound: "clearCookie" → clear, cookie, clearcookie; "errors.Is" →
// errors, is, errors.is; "to_native_str" → to, native, str,
// to_native_str). English stop words and one-letter terms are dropped
// (compounds are kept whatever their parts).
func CodeTerms(s string) []string {
	var out []string
	emit := func(t string, compound bool) {
		t = strings.ToLower(t)
		if utf8.RuneCountInString(t) < 2 || !compound && englishStop[t] {
			return
		}
		out = append(out, t)
	}
	isWord := func(r rune) bool { return r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !isWord(r) }) {
		w = strings.Trim(w, "._")
		if w == "" {
			continue
		}
		parts := splitIdent(w)
		for _, p := range parts {
			emit(p, false)
		}
		if len(parts) > 1 {
			emit(w, true)
		}
	}
	return out
}

// splitIdent cuts a word at '_', '.', camelCase humps (lower→Upper, and
// the last capital of a run before a lower-case letter: HTTPServer → HTTP,
// Server) and letter/digit borders.
func splitIdent(w string) []string {
	rs := []rune(w)
	var out []string
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, string(rs[start:end]))
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' || r == '.' {
			flush(i)
			start = i + 1
			continue
		}
		if i == start {
			continue
		}
		p := rs[i-1]
		cut := unicode.IsLower(p) && unicode.IsUpper(r) ||
			unicode.IsUpper(p) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) ||
			unicode.IsDigit(p) != unicode.IsDigit(r)
		if cut {
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// Baseline is one BM25 baseline: how text becomes terms and whether a
// query term said twice counts twice.
type Baseline struct {
	Terms   func(string) []string
	Repeats bool
}

var (
	// Honest is the baseline of DESIGN "Context quality": identifier
	// splitting with compounds, stop words dropped, query-term repeats
	// counted (charged its header and fence by the runner).
	Honest = Baseline{Terms: CodeTerms, Repeats: true}
	// Plain is the baseline before issue 23: plain words, each distinct
	// query term once (charged its text only).
	Plain = Baseline{Terms: PlainTerms}
)

// BM25Rank scores docs against the query with the old, plain baseline
// (see [Baseline.Rank]).
func BM25Rank(query string, docs []Doc) ([]int, []float64) { return Plain.Rank(query, docs) }

// Rank scores docs against the query (Okapi BM25, k1 = 1.2, b = 0.75,
// idf = ln(1 + (N − df + 0.5)/(df + 0.5)), document length in terms; a
// query term counts as often as the query says it when Repeats is set,
// once otherwise) and returns the indexes of the docs with a positive
// score, best first (ties by path, then start line), and every doc's
// score.
func (bl Baseline) Rank(query string, docs []Doc) ([]int, []float64) {
	q, qtf := bl.queryTerms(query)
	tf, dl, df, total := bl.countDocs(docs, q, len(qtf))
	n := float64(len(docs))
	avg := float64(total) / max(1, n)
	idf := make([]float64, len(qtf))
	for k := range qtf {
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
			s += qtf[k] * idf[k] * ff * (bm25K1 + 1) / (ff + bm25K1*(1-bm25B+bm25B*float64(dl[i])/max(avg, 1)))
		}
		scores[i] = s
		if s > 0 {
			order = append(order, i)
		}
	}
	sortByScore(order, scores, docs)
	return order, scores
}

// queryTerms returns the index of each distinct term of query (in order
// of first use) and each one's query frequency: how often the query says
// it when Repeats is set, else 1.
func (bl Baseline) queryTerms(query string) (map[string]int, []float64) {
	q := map[string]int{}
	var qtf []float64
	for _, t := range bl.Terms(query) {
		k, ok := q[t]
		if !ok {
			k = len(qtf)
			q[t] = k
			qtf = append(qtf, 0)
		}
		if bl.Repeats || qtf[k] == 0 {
			qtf[k]++
		}
	}
	return q, qtf
}

// countDocs counts the nterms query terms (indexed by q) in each of docs:
// each doc's term frequencies and length in terms, each term's document
// frequency, and the docs' total length.
func (bl Baseline) countDocs(docs []Doc, q map[string]int, nterms int) (tf [][]int, dl, df []int, total int) {
	tf = make([][]int, len(docs))
	dl = make([]int, len(docs))
	df = make([]int, nterms)
	for i, d := range docs {
		words := bl.Terms(d.Text)
		dl[i] = len(words)
		total += len(words)
		f := make([]int, nterms)
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
	return tf, dl, df, total
}

// sortByScore sorts the doc indexes of order best score first, ties by
// path, then start line.
func sortByScore(order []int, scores []float64, docs []Doc) {
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
}

// Greedy packs docs in the given order under budget, each costing cost(d):
// a doc that does not fit is skipped and the next one tried. It returns
// the chosen indexes.
func Greedy(order []int, docs []Doc, budget int, cost func(Doc) int) []int {
	var out []int
	used := 0
	for _, i := range order {
		if c := cost(docs[i]); used+c <= budget {
			used += c
			out = append(out, i)
		}
	}
	return out
}

// Charged is the honest cost of a window: its text with header and fence.
func Charged(d Doc) int { return d.Tokens }

// TextOnly is the old baseline's cost of a window: its text alone.
func TextOnly(d Doc) int { return d.TextTokens }
