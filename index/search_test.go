package index

import (
	"math/rand"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/pack"
)

// TestSearchTermsExamples: the terms found for typical patterns.
func TestSearchTermsExamples(t *testing.T) {
	tests := []struct {
		pattern string
		want    [][]string
	}{
		{"closeIdleConns", [][]string{{"idle"}}},
		{"(?i)closeidleconns", nil}, // any case: no hump is certain
		{"(?i)idle connection timeout", [][]string{{"connection"}}},
		{`func \(t \*Transport\) closeIdleConns`, [][]string{{"transport"}, {"close"}, {"idle"}}},
		{`idle.*timeout`, nil},
		{`^package http$`, [][]string{{"package"}, {"http"}}},
		{`parseHTTPRequest2 `, [][]string{{"http"}, {"request"}}},
		{` x_yZ `, [][]string{{"xyz"}}},
		{`(?i) carts `, [][]string{{"cart", "cartſ"}}}, // ſ folds to s, and lowers to itself
		{`(?i) for `, nil},                             // a stop word
		{`(fooBar|quxQuux)`, nil},                      // a branch is looked at alone
		{`(foo bar baz|qux quux corge)`, [][]string{{"bar", "quux"}}},
		{`(foo|bar)`, nil},
		{`a+Idle+x`, nil},
		{`\.RoundTrip\(`, [][]string{{"round"}, {"trip"}, {"roundtrip"}}},
	}
	for _, tc := range tests {
		re, err := syntax.Parse(tc.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := SearchTerms(re.Simplify()); !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%q: %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// TestSearchTermsSound: whenever a pattern matches a line of a text, the
// text's terms (as the index stores them) hold a term of every group
// SearchTerms gives: random texts over an alphabet of case, digit,
// underscore, delimiter and fold traps, random patterns cut from them
// (literal, case-folded, with classes, dots and anchors).
func TestSearchTermsSound(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "b", "s", "k", "A", "B", "S", "K", "1", "2", "_", " ", ".", "\n", "ſ", "K", "é", "É", "-"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		return b.String()
	}
	checked := 0
	for i := 0; i < 100000; i++ {
		text := word(4 + rng.Intn(40))
		expr := patternFrom(rng, text)
		re, err := regexp.Compile(expr)
		if err != nil {
			continue
		}
		syn, err := syntax.Parse(re.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		groups := SearchTerms(syn.Simplify())
		matched := false
		for _, line := range strings.Split(text, "\n") {
			matched = matched || re.MatchString(line)
		}
		if !matched || len(groups) == 0 {
			continue
		}
		checked++
		terms := pack.Terms(text)
		for _, g := range groups {
			if !slices.ContainsFunc(g, func(s string) bool { return slices.Contains(terms, s) }) {
				t.Fatalf("pattern %q matches %q, whose terms %q hold none of %q", expr, text, terms, g)
			}
		}
	}
	if checked < 3000 {
		t.Fatalf("only %d matching patterns had terms: the test checks too little", checked)
	}
}

// patternFrom cuts a pattern out of text: a substring (a line's), quoted,
// perhaps case-folded, with a character turned into a class, a dot or an
// optional one, and anchors when it touches the line's ends.
func patternFrom(rng *rand.Rand, text string) string {
	lines := strings.Split(text, "\n")
	line := []rune(lines[rng.Intn(len(lines))])
	if len(line) == 0 {
		return "x"
	}
	i := rng.Intn(len(line))
	j := i + 1 + rng.Intn(len(line)-i)
	var b strings.Builder
	if rng.Intn(3) == 0 {
		b.WriteString("(?i)")
	}
	if i == 0 && rng.Intn(2) == 0 {
		b.WriteString("^")
	}
	for _, r := range line[i:j] {
		q := regexp.QuoteMeta(string(r))
		switch rng.Intn(12) {
		case 0:
			b.WriteString(".")
		case 1:
			b.WriteString("[" + q + "xX]")
		case 2:
			b.WriteString(q + "?")
		case 3:
			b.WriteString("(?:" + q + "|" + q + q + ")")
		default:
			b.WriteString(q)
		}
	}
	if j == len(line) && rng.Intn(2) == 0 {
		b.WriteString("$")
	}
	return b.String()
}
