package tokenizer

import (
	"sort"
	"unicode/utf8"
)

// additiveEncodings are the encodings whose counts add up over text cut at
// [SafeCut] points: their pre-tokenizers never join a newline with the
// letter that follows it, and nothing is added per text (no BOS). Proven
// against whole counts for each of them (TestSpansExact here, and
// TestIncrementalCountExact in lsp on random edits of real files); gemma3
// (no pre-tokenizer: merges are not bounded by lines), file: tokenizers and
// estimates are not listed.
var additiveEncodings = map[string]bool{
	O200kBase: true, Cl100kBase: true, P50kBase: true, R50kBase: true,
	Llama3: true, Qwen3: true, DeepseekV3: true,
}

// Additive reports whether tok's counts add up over text cut at [SafeCut]
// points: it is exact and its encoding is one whose pre-tokens never cross
// such a point.
func Additive(tok Tokenizer) bool {
	return tok != nil && tok.Exact() && AdditiveEncoding(tok.Encoding())
}

// AdditiveEncoding reports whether counts under the named encoding add up
// over text cut at [SafeCut] points.
func AdditiveEncoding(encoding string) bool { return additiveEncodings[encoding] }

// SafeCut reports whether text may be cut before index p with the counts
// of both sides adding up to the count of the whole, for an [Additive]
// tokenizer: p starts a line beginning with an ASCII letter, and the line
// before ends in a character that is not white space. No pre-token pattern
// of the additive encodings crosses such a point (a letter run takes at
// most one leading character, never a newline; punctuation runs take
// trailing newlines and, for o200k_base, slashes, but no letter; white
// space ends at the newline), and the text before it splits the same
// without what follows (its last pre-token is the lone newline either way).
// A looser rule (any line start) is not exact for four of the encodings.
func SafeCut(text string, p int) bool {
	if p < 2 || p >= len(text) || text[p-1] != '\n' {
		return false
	}
	switch text[p-2] {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return false
	}
	if text[p-2] >= 0x80 {
		return false // possibly Unicode white space (U+0085, U+2028 …)
	}
	c := text[p]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// spanCut returns the rule for the points a text may be cut at with the
// counts of both sides adding up, for an additive encoding: looser than
// [SafeCut], which holds for all of them, and derived from each encoding's
// pre-tokenizer (docs/benchmarks.md "Cold path"). In every case p starts a
// line (text[p-1] is '\n') and the line holds a printable ASCII character
// other than a space after at most some spaces and tabs, so no run of white
// space that holds a newline continues past p, and no pattern takes a
// newline as the first character of a word.
//
//   - cl100k_base, llama3, qwen3, deepseek_v3: nothing more. The white space
//     that ends with the newline is one pre-token (\s*[\r\n]+, tried
//     before \s+(?!\S), the only look-ahead, backs up to the last newline)
//     whether or not text follows; the indentation after p splits the same
//     alone; a punctuation run takes trailing newlines but nothing after.
//   - o200k_base: its punctuation runs also take slashes after the
//     newlines ([\r\n/]*): before a '/' right at p, the character before
//     the run of newlines must be an ASCII letter, digit, space or tab (or
//     the text's start), never punctuation.
//   - p50k_base, r50k_base (GPT-2's pattern, no \s*[\r\n]+): \s+(?!\S)
//     would join the newline with the indentation, or split white space
//     before it off only when text follows; so no indentation, and the
//     character before the newline is not white space.
func spanCut(encoding string) func(text string, p int) bool {
	switch encoding {
	case P50kBase, R50kBase:
		return gpt2Cut
	case O200kBase:
		return o200kCut
	}
	return lineCut
}

// lineCut is spanCut's rule for cl100k_base, llama3, qwen3 and
// deepseek_v3.
func lineCut(text string, p int) bool { return lineStart(text, p) >= 0 }

// gpt2Cut is spanCut's rule for p50k_base and r50k_base.
func gpt2Cut(text string, p int) bool {
	if lineStart(text, p) != p {
		return false
	}
	if p >= 2 {
		switch c := text[p-2]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			return false
		case c >= 0x80:
			return false // possibly Unicode white space (U+0085, U+2028 …)
		}
	}
	return true
}

// o200kCut is spanCut's rule for o200k_base.
func o200kCut(text string, p int) bool {
	k := lineStart(text, p)
	if k < 0 {
		return false
	}
	if k > p || text[p] != '/' {
		return true
	}
	q := p - 1
	for q > 0 && (text[q-1] == '\n' || text[q-1] == '\r') {
		q--
	}
	if q == 0 {
		return true
	}
	c := text[q-1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t'
}

// lineStart returns, when p starts a line (after a '\n') whose first
// character after spaces and tabs is a printable ASCII character other than
// a space, the index of that character; else -1.
func lineStart(text string, p int) int {
	if p < 1 || p >= len(text) || text[p-1] != '\n' {
		return -1
	}
	k := p
	for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
		k++
	}
	if k < len(text) && text[k] > ' ' && text[k] < 0x7f {
		return k
	}
	return -1
}

// Spans holds the counts of one text at every point it may be cut at (by
// the encoding's rule, at least every [SafeCut] point), from one counting
// pass, so that the count of any run of the text between two such points
// (or the text's ends) is a subtraction. Make it with [CountSpans].
type Spans struct {
	text string
	at   []int // the safe points, ascending, with 0 first and len(text) last
	sum  []int // sum[i]: tokens of text[:at[i]]
}

// CountSpans counts text once, in pieces cut at every point the encoding's
// rule allows, for
// [Spans.Count]. It returns nil when tok is not [Additive] or text is not
// valid UTF-8 (the tokenizers replace invalid bytes, which can shift what a
// piece holds): then every span must be counted directly.
//
// p50k_base and r50k_base get nil too: their rule admits so few points in
// code (no indented line, no line after a blank one) that the pass costs
// more than it saves (measured on net/http: 6.3 MB counted instead of 4.5).
func CountSpans(tok Tokenizer, text string) *Spans {
	if enc := tok.Encoding(); enc == P50kBase || enc == R50kBase {
		return nil
	}
	return countSpans(tok, text)
}

// countSpans is CountSpans for every additive encoding.
func countSpans(tok Tokenizer, text string) *Spans {
	if !Additive(tok) || !utf8.ValidString(text) {
		return nil
	}
	if c, ok := tok.(*Cached); ok {
		tok = c.t // pieces are not worth a cache entry each
	}
	cut := spanCut(tok.Encoding())
	s := &Spans{text: text, at: []int{0}, sum: []int{0}}
	from, total := 0, 0
	for p := 1; p < len(text); p++ {
		if text[p-1] != '\n' || !cut(text, p) {
			continue
		}
		total += tok.Count(text[from:p])
		s.at, s.sum = append(s.at, p), append(s.sum, total)
		from = p
	}
	if len(text) > 0 {
		total += tok.Count(text[from:])
		s.at, s.sum = append(s.at, len(text)), append(s.sum, total)
	}
	return s
}

// Count returns the tokens of text[start:end] and true when both ends are
// safe points (or the ends of the text); false when the span must be
// counted directly.
func (s *Spans) Count(start, end int) (int, bool) {
	if s == nil || start > end {
		return 0, false
	}
	i, ok := s.index(start)
	if !ok {
		return 0, false
	}
	j, ok := s.index(end)
	if !ok {
		return 0, false
	}
	return s.sum[j] - s.sum[i], true
}

// Total returns the tokens of the whole text.
func (s *Spans) Total() int { return s.sum[len(s.sum)-1] }

// index finds p among the safe points.
func (s *Spans) index(p int) (int, bool) {
	i := sort.SearchInts(s.at, p)
	return i, i < len(s.at) && s.at[i] == p
}
