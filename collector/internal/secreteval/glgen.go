package secreteval

import (
	"math"
	"regexp/syntax"
	"strings"
)

// regexGen draws strings that an expression matches, recording the text
// each capture group produced.
type regexGen struct {
	g      gen
	groups map[int]string
	// budget bounds the characters one draw may produce.
	budget int
}

// generate returns a string matched by re and the text of every group.
func (rg *regexGen) generate(re *syntax.Regexp) (string, map[int]string) {
	rg.groups = map[int]string{}
	rg.budget = 4096
	var b strings.Builder
	rg.walk(re, &b)
	return b.String(), rg.groups
}

func (rg *regexGen) walk(re *syntax.Regexp, b *strings.Builder) {
	if b.Len() > rg.budget {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		b.WriteRune(rg.pick(re.Rune))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte(alnum[rg.g.r.IntN(len(alnum))])
	case syntax.OpCapture:
		start := b.Len()
		rg.walk(re.Sub[0], b)
		rg.groups[re.Cap] = b.String()[start:]
	case syntax.OpConcat:
		for _, s := range re.Sub {
			rg.walk(s, b)
		}
	case syntax.OpAlternate:
		rg.walk(re.Sub[rg.g.r.IntN(len(re.Sub))], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		for i, n := 0, rg.repeatCount(re); i < n; i++ {
			rg.walk(re.Sub[0], b)
		}
	}
	// Anchors, word boundaries and empty matches write nothing.
}

// repeatCount draws how many times a repetition repeats: 8 to 20 when
// unbounded (issued tokens are long), else between its bounds, lengths
// near the lower bound favoured, as real keys are.
func (rg *regexGen) repeatCount(re *syntax.Regexp) int {
	lo, hi := 0, 1 // ?
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
		return 8 + rg.g.r.IntN(13)
	case syntax.OpRepeat:
		lo, hi = re.Min, re.Max
		if hi < 0 {
			hi = lo + 12
		}
	}
	if hi <= lo {
		return lo
	}
	span := hi - lo
	return lo + int(math.Floor(float64(span+1)*math.Pow(rg.g.r.Float64(), 3)))
}

// pick draws a rune from a class, preferring letters and digits (keys are
// made of them), then other printable ASCII other than quotes, backslash
// and white space.
func (rg *regexGen) pick(ranges []rune) rune {
	var good, ok []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < 127; r++ {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
				good = append(good, r)
			case r > ' ' && !strings.ContainsRune("\"'`\\", r):
				ok = append(ok, r)
			}
		}
	}
	switch {
	case len(good) > 0 && (len(ok) == 0 || rg.g.r.IntN(8) > 0):
		return good[rg.g.r.IntN(len(good))]
	case len(ok) > 0:
		return ok[rg.g.r.IntN(len(ok))]
	case len(ranges) > 0:
		return ranges[0]
	}
	return 'x'
}

// drawSecret draws a value for a rule: a whole match generated from its
// expression, then its secret group, retried until the rule itself
// accepts the secret in the match (entropy, allow-lists) and the secret
// can be quoted in code (no quote, backslash or newline).
func drawSecret(g gen, ru *GLRule) (match, secret string, ok bool) {
	// Values are drawn with the letter case the expression is written in:
	// (?i) lets gitleaks match any case, but providers issue one.
	re, err := syntax.Parse(strings.ReplaceAll(ru.Source, "(?i)", ""), syntax.Perl)
	if err != nil {
		return "", "", false
	}
	re = re.Simplify()
	rg := &regexGen{g: g}
	for try := 0; try < 40; try++ {
		m, groups := rg.generate(re)
		s := m
		if ru.SecretGroup > 0 {
			s = groups[ru.SecretGroup]
		} else {
			for i := 1; i <= re.MaxCap(); i++ {
				if groups[i] != "" {
					s = groups[i]
					break
				}
			}
		}
		if len(s) < 8 || strings.ContainsAny(s, "\"'`\\\n\r\t ") {
			continue
		}
		if ru.Secret(m) != s {
			continue
		}
		return m, s, true
	}
	return "", "", false
}

// entropyOf is the Shannon entropy of s in bits per character, as
// gitleaks' rules apply it to a drawn value. It is kept apart from the
// scanner's own entropy (collector/redact.go) on purpose: the evaluation
// must not lean on the code it judges.
func entropyOf(s string) float64 {
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}
