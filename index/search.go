package index

import (
	"io/fs"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// A search (collector.Workspace.SearchIndexed) asks the index which files
// cannot match its pattern. The index holds each file's terms as
// [pack.Terms] splits text: maximal runs of word characters (letters,
// digits, '_'), cut at underscores, camelCase humps and digit borders,
// lowered, a plural s removed, stop words and one-letter terms dropped,
// and each run of several parts also as a whole. SearchTerms finds the
// terms every match of a pattern puts in the file's table, whatever text
// surrounds the match: a run the pattern delimits on both sides (by a
// character that is no word character, or a line's start or end), and a
// part whose both cuts and whose inside the pattern's own characters
// decide. A file the index knows (at its listed stat) to lack one of
// them holds no match.

// SearchFilter returns the filter of a search for re (see
// collector.SearchIndex): a file skips when the index's entry for its
// stat lacks a term every match needs; nil when re needs none.
func (s *Set) SearchFilter(re *syntax.Regexp) func(f collector.FileRef) (skip, known bool) {
	groups := SearchTerms(re)
	if len(groups) == 0 || !s.Usable() {
		return nil
	}
	var terms []string
	for _, g := range groups {
		for _, t := range g {
			if !slices.Contains(terms, t) {
				terms = append(terms, t)
			}
		}
	}
	return func(f collector.FileRef) (bool, bool) {
		ft, ok := s.Terms(f, terms)
		if !ok {
			return false, false
		}
		for _, g := range groups {
			if !slices.ContainsFunc(g, func(t string) bool { return ft.Counts[t] > 0 }) {
				return true, true
			}
		}
		return false, true
	}
}

// Learn implements collector.SearchIndex with [Set.LearnTerms]: the
// index answers the searches of every door (the CLI's --search, MCP's
// search, the language server's through its own wrapper).
func (s *Set) Learn(f collector.FileRef, text string) { s.LearnTerms(f, text) }

// LearnTerms stores the terms of f read with text by a search, as a
// file-first pack's scan stores them: the next search need not read it.
// The search redacted text and found nothing to redact (the contract of
// collector.SearchIndex.Learn), so it is not scanned for secrets again.
func (s *Set) LearnTerms(f collector.FileRef, text string) {
	x := s.of(f.Abs)
	if x == nil || text == "" {
		return
	}
	e := x.cleanTermEntry(f.Abs, f.Info, unsafe.Slice(unsafe.StringData(text), len(text)))
	if e == nil {
		return
	}
	x.putHashed(e, pack.TermHashes(text, x.TermHash))
	s.schedule()
}

// cleanTermEntry is termEntry for a text that redaction leaves unchanged:
// nil when the stat cannot be keyed or the path may not be stored.
func (x *Index) cleanTermEntry(abs string, fi fs.FileInfo, content []byte) *entry {
	st, ok := statOf(fi)
	if !ok || !x.storable(abs) {
		return nil
	}
	return x.newTermEntry(abs, st, content)
}

// Limits of the analysis: the runes a character of the pattern may be
// (a class or a case-folded letter), the texts a run may be, the terms
// asked.
const (
	maxRunes    = 4
	maxVariants = 16
	maxGroups   = 8
	maxItems    = 256
)

// SearchTerms returns the terms every match of re holds, as groups: a
// file's text holds a match only if its terms include, for every group,
// one of the group's terms. re is parsed as regexp.Compile parses (Perl
// flags) and matched line by line.
func SearchTerms(re *syntax.Regexp) [][]string {
	var a analysis
	a.flatten(re)
	for _, seg := range a.segments() {
		a.runs(seg)
		a.parts(seg)
	}
	if len(a.groups) > maxGroups {
		a.groups = a.groups[:maxGroups]
	}
	return a.groups
}

// itemKind is what the analysis knows of one position of a match.
type itemKind uint8

const (
	itWord  itemKind = iota // a word character, one of runes
	itDelim                 // a character that is no word character
	itEdge                  // no character: a line's start or end
	itAny                   // one character, perhaps of a word
	itGap                   // any text, perhaps none
)

type item struct {
	kind  itemKind
	runes []rune // itWord: what it may be
}

// analysis flattens an expression into what its matches are made of.
type analysis struct {
	items  []item
	groups [][]string
}

func (a *analysis) add(it item) {
	if len(a.items) < maxItems {
		a.items = append(a.items, it)
		return
	}
	a.items[len(a.items)-1] = item{kind: itGap}
}

func (a *analysis) flatten(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			a.add(charItem(foldSet(r, re.Flags&syntax.FoldCase != 0)))
		}
	case syntax.OpCharClass:
		a.add(classItem(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		a.add(item{kind: itAny})
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		a.add(item{kind: itEdge})
	case syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		// zero width; says nothing of the characters around
	case syntax.OpCapture:
		a.flatten(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			a.flatten(sub)
		}
	case syntax.OpPlus:
		a.flatten(re.Sub[0])
		a.add(item{kind: itGap})
	case syntax.OpRepeat:
		if re.Min >= 1 {
			a.flatten(re.Sub[0])
		}
		a.add(item{kind: itGap})
	case syntax.OpAlternate:
		a.add(item{kind: itGap})
		if g := alternative(re.Sub); g != nil {
			a.groups = append(a.groups, g)
		}
	default: // star, quest, no match
		a.add(item{kind: itGap})
	}
}

// alternative is one group for an alternation: a term of each branch
// (every branch needs one), nil when a branch needs none.
func alternative(subs []*syntax.Regexp) []string {
	var g []string
	for _, sub := range subs {
		need := SearchTerms(sub)
		if len(need) == 0 {
			return nil
		}
		for _, t := range need[0] {
			if !slices.Contains(g, t) {
				g = append(g, t)
			}
		}
	}
	return g
}

// isWordRune is pack's word character: an ASCII letter, digit or '_', or
// a Unicode letter or digit.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// foldSet is the runes a literal r matches: r, and its case-fold orbit
// when fold.
func foldSet(r rune, fold bool) []rune {
	set := []rune{r}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			set = append(set, f)
		}
	}
	return set
}

// charItem is the item of a character that is one of set.
func charItem(set []rune) item {
	word, other := 0, 0
	for _, r := range set {
		if isWordRune(r) {
			word++
		} else {
			other++
		}
	}
	switch {
	case other == 0 && len(set) <= maxRunes:
		return item{kind: itWord, runes: set}
	case word == 0:
		return item{kind: itDelim}
	}
	return item{kind: itAny}
}

// classItem is the item of a character class (pairs of rune ranges).
func classItem(ranges []rune) item {
	const most = 4096 // runes looked at
	var set []rune
	n := 0
	for i := 0; i+1 < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > most {
			return item{kind: itAny}
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set = append(set, r)
		}
	}
	return charItem(set)
}

// segments are the runs of items between gaps.
func (a *analysis) segments() [][]item {
	var out [][]item
	start := 0
	for i, it := range a.items {
		if it.kind == itGap {
			out = append(out, a.items[start:i])
			start = i + 1
		}
	}
	return append(out, a.items[start:])
}

// delimited reports whether position i of seg is certainly no word
// character (a delimiter or a line's edge); outside seg nothing is known.
func delimited(seg []item, i int) bool {
	return i >= 0 && i < len(seg) && (seg[i].kind == itDelim || seg[i].kind == itEdge)
}

// runs adds the terms of the runs of word characters seg delimits on both
// sides: such a run is a whole run of the file's text.
func (a *analysis) runs(seg []item) {
	for i := 0; i < len(seg); {
		if seg[i].kind != itWord {
			i++
			continue
		}
		j := i
		for j < len(seg) && seg[j].kind == itWord {
			j++
		}
		if delimited(seg, i-1) && delimited(seg, j) {
			a.run(seg[i:j])
		}
		i = j
	}
}

// run adds the terms of a whole run: every term of its text when it is
// known exactly; else (a class, a case-folded letter) its whole term,
// which depends on the letters' case only through lowering: one group of
// the whole terms of its lowered variants.
func (a *analysis) run(run []item) {
	if exact := variants(run, false); len(exact) == 1 {
		for _, t := range pack.Terms(exact[0]) {
			a.need([]string{t})
		}
		return
	}
	lowered := variants(run, true)
	if lowered == nil {
		return
	}
	var g []string
	for _, v := range lowered {
		t := wholeTerm(v)
		if t == "" || !slices.Contains(pack.Terms(v), t) {
			return // this variant yields no term: nothing is certain
		}
		if !slices.Contains(g, t) {
			g = append(g, t)
		}
	}
	a.need(g)
}

// need adds a group, unless it is there already.
func (a *analysis) need(g []string) {
	for _, h := range a.groups {
		if slices.Equal(h, g) {
			return
		}
	}
	a.groups = append(a.groups, g)
}

// variants are the texts run may be (its runes lowered when lower), nil
// past maxVariants.
func variants(run []item, lower bool) []string {
	out := []string{""}
	for _, it := range run {
		var set []rune
		for _, r := range it.runes {
			if lower {
				r = unicode.ToLower(r)
			}
			if !slices.Contains(set, r) {
				set = append(set, r)
			}
		}
		if len(out)*len(set) > maxVariants {
			return nil
		}
		next := make([]string, 0, len(out)*len(set))
		for _, v := range out {
			for _, r := range set {
				next = append(next, v+string(r))
			}
		}
		out = next
	}
	return out
}

// wholeTerm is the term a whole run of lowered text yields for itself (as
// its only part, or as the compound of its parts): without its
// underscores, a plural s removed; "" when too short.
func wholeTerm(v string) string {
	w := strings.ReplaceAll(v, "_", "")
	if len(w) < 2 {
		return ""
	}
	if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' {
		w = w[:len(w)-1]
	}
	return w
}

// Character classes of the parts analysis, as bits.
const (
	clsLower uint8 = 1 << iota
	clsUpper
	clsDigit
	clsUnder
	clsOther   // no word character (or no character: a line's edge)
	clsUnicode // a word character outside ASCII
	clsAll     = clsLower | clsUpper | clsDigit | clsUnder | clsOther | clsUnicode
)

// classes is what position i of seg may be; outside seg, anything.
func classes(seg []item, i int) uint8 {
	if i < 0 || i >= len(seg) {
		return clsAll
	}
	switch seg[i].kind {
	case itDelim, itEdge:
		return clsOther
	case itWord:
		var c uint8
		for _, r := range seg[i].runes {
			c |= runeClass(r)
		}
		return c
	}
	return clsAll
}

func runeClass(r rune) uint8 {
	switch {
	case 'a' <= r && r <= 'z':
		return clsLower
	case 'A' <= r && r <= 'Z':
		return clsUpper
	case '0' <= r && r <= '9':
		return clsDigit
	case r == '_':
		return clsUnder
	case r < utf8.RuneSelf:
		return clsOther
	}
	return clsUnicode
}

// each calls fn with every class bit of set until fn returns false; it
// reports whether fn never did.
func each(set uint8, fn func(c uint8) bool) bool {
	for c := uint8(1); c != 0 && c <= clsUnicode; c <<= 1 {
		if set&c != 0 && !fn(c) {
			return false
		}
	}
	return true
}

// boundary is pack's cut inside an ASCII word between letters or digits
// p and c (n: the class after c, clsOther past the word's end): a capital
// after a small letter, the last capital of a run before a small letter,
// a change between digits and letters. A character outside ASCII as n may
// be a small letter: certain reports the cut sure, possible that it may
// be.
func boundary(p, c, n uint8) (certain, possible bool) {
	sure := p == clsLower && c == clsUpper || (p == clsDigit) != (c == clsDigit)
	if p == clsUpper && c == clsUpper {
		return sure || n == clsLower, sure || n == clsLower || n == clsUnicode
	}
	return sure, sure
}

// cutBefore reports whether the file's text certainly starts a new part
// (or a new run) at position i of seg, whose class is the single class c.
func cutBefore(seg []item, i int, c uint8) bool {
	return each(classes(seg, i-1), func(p uint8) bool {
		switch p {
		case clsOther, clsUnder:
			return true
		case clsUnicode:
			return false
		}
		return each(classes(seg, i+1), func(n uint8) bool {
			sure, _ := boundary(p, c, n)
			return sure
		})
	})
}

// cutAfter reports whether the file's text certainly ends a part at
// position i of seg (the part's last character, of the single class p).
func cutAfter(seg []item, i int, p uint8) bool {
	return each(classes(seg, i+1), func(c uint8) bool {
		switch c {
		case clsOther, clsUnder:
			return true
		case clsUnicode:
			return false
		}
		return each(classes(seg, i+2), func(n uint8) bool {
			sure, _ := boundary(p, c, n)
			return sure
		})
	})
}

// joined reports whether the text certainly does not cut between
// positions i-1 and i of seg (both single-class letters or digits).
func joined(seg []item, i int) bool {
	p, c := classes(seg, i-1), classes(seg, i)
	return each(classes(seg, i+1), func(n uint8) bool {
		_, maybe := boundary(p, c, n)
		return !maybe
	})
}

// partChar reports whether position i of seg is one known ASCII letter or
// digit.
func partChar(seg []item, i int) bool {
	if seg[i].kind != itWord || len(seg[i].runes) != 1 {
		return false
	}
	c := runeClass(seg[i].runes[0])
	return c == clsLower || c == clsUpper || c == clsDigit
}

// parts adds the terms of the parts of words whose both cuts, and the
// absence of a cut inside, the characters of seg decide whatever surrounds
// it (the hump "Idle" of closeIdleConns).
func (a *analysis) parts(seg []item) {
	const most = 64 // characters of a segment looked at
	n := min(len(seg), most)
	for i := 0; i < n; i++ {
		if !partChar(seg, i) || !cutBefore(seg, i, classes(seg, i)) {
			continue
		}
		for j := i; j < n && partChar(seg, j); j++ {
			if j > i && !joined(seg, j) {
				break
			}
			if !cutAfter(seg, j, classes(seg, j)) {
				continue
			}
			var b strings.Builder
			for _, it := range seg[i : j+1] {
				b.WriteRune(it.runes[0])
			}
			if terms := pack.Terms(b.String()); len(terms) == 1 {
				a.need(terms)
			}
		}
	}
}
