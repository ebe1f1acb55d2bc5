package collector

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// scanBigrams is gates.scan as it was before the trigram filter
// (nextCandidate): every position goes through bigramOn. The differential
// test below holds the filtered scan to it.
func (g *gates) scanBigrams(text string, nLines int) {
	g.flags = make([]lineFlag, nLines)
	netrc := -1
	isNetrc := func() bool {
		if netrc < 0 {
			netrc = 0
			if strings.Contains(g.lower, "machine ") && (strings.Contains(g.lower, "login ") || strings.Contains(g.lower, "password ")) {
				netrc = 1
			}
		}
		return netrc == 1
	}
	h := newHitSet(text)
	lower, ln, lineStart := g.lower, 0, 0
	on := bigramOn
	for i := 0; i+1 < len(lower); i++ {
		c := lower[i]
		k := uint16(c)<<8 | uint16(lower[i+1])
		v := on[k]
		if v == 0 {
			if c == '\n' {
				ln++
				lineStart = i + 1
			}
			continue
		}
		ws := i == 0 || !isAlnum(lower[i-1])
		if v == 2 && !ws {
			continue
		}
		bg := bigrams[k]
		for _, m := range bg.markers {
			if g.flags[ln]&m.flag == 0 && (ws || !m.wordStart) && strings.HasPrefix(lower[i:], m.word) && (m.flag != flagNetrc || isNetrc()) &&
				(m.word != "pat" || i+3 == len(lower) || !isLetter(lower[i+3])) {
				g.flags[ln] |= m.flag
			}
		}
		for _, ri := range bg.lits {
			if strings.HasPrefix(text[i:], rules[ri].lit) {
				h.addAt(ri, lineStart, i)
			}
		}
		if len(bg.kw) > 0 && ws {
			for _, k := range bg.kw {
				if strings.HasPrefix(lower[i:], k.word) && kwRunOK(lower, i, k) {
					h.addAt(k.rule, lineStart, i)
				}
			}
		}
	}
	for i := len(g.flags) - 1; i >= 0; i-- {
		if g.flags[i]&flagProvider != 0 {
			for j := i + 1; j < len(g.flags) && j <= i+3; j++ {
				g.flags[j] |= flagNear
			}
		}
	}
	g.hits = h.hits
	g.active = activeRules(g.hits)
}

// scanTexts are the inputs of the differential test: the evaluation
// corpus, some of Go's sources, and texts made of every marker, literal
// and keyword in random case, glued to random bytes, newlines and the
// ends of the text.
func scanTexts(t *testing.T) []string {
	var texts []string
	for _, c := range secreteval.Corpus(42) {
		texts = append(texts, c.Text)
	}
	n := 0
	_ = filepath.WalkDir(filepath.Join(runtime.GOROOT(), "src", "net", "http"), func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || filepath.Ext(p) != ".go" || n >= 60 {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			texts = append(texts, string(data))
			n++
		}
		return nil
	})
	var words []string
	for _, b := range bigrams {
		if b == nil {
			continue
		}
		for _, m := range b.markers {
			words = append(words, m.word)
		}
		for _, ri := range b.lits {
			words = append(words, rules[ri].lit)
		}
		for _, k := range b.kw {
			words = append(words, k.word)
		}
	}
	r := rand.New(rand.NewSource(1))
	const glue = "aZ09 _-=:\"'\n\t/.@\x80"
	for range 3000 {
		var b strings.Builder
		for range 1 + r.Intn(6) {
			for range r.Intn(4) {
				b.WriteByte(glue[r.Intn(len(glue))])
			}
			w := []byte(words[r.Intn(len(words))])
			for i := range w {
				if r.Intn(3) == 0 {
					w[i] = strings.ToUpper(string(w[i]))[0]
				}
			}
			if r.Intn(4) == 0 {
				w = w[:r.Intn(len(w)+1)] // a cut word
			}
			b.Write(w)
			for range r.Intn(30) {
				b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[r.Intn(36)])
			}
		}
		texts = append(texts, b.String())
	}
	if len(texts) < 3100 {
		t.Fatalf("only %d texts", len(texts))
	}
	return texts
}

// TestScanDifferential holds the trigram-filtered scan to the plain
// bigram scan: the same line flags, hits and active rules on every text.
func TestScanDifferential(t *testing.T) {
	for _, text := range scanTexts(t) {
		nLines := strings.Count(text, "\n") + 1
		got := newGates(text, asciiLower(text), nLines)
		want := &gates{lower: asciiLower(text)}
		want.scanBigrams(text, nLines)
		if !reflect.DeepEqual(got.flags, want.flags) || !reflect.DeepEqual(got.hits, want.hits) || !reflect.DeepEqual(got.active, want.active) {
			t.Errorf("scan differs on %q:\nflags %v, want %v\nhits %v, want %v", text, got.flags, want.flags, got.hits, want.hits)
		}
	}
}

// TestSplitWordsASCII holds splitWords' ASCII path to the rune-based
// split on names cut from the corpus and on random names.
func TestSplitWordsASCII(t *testing.T) {
	var names []string
	for _, text := range scanTexts(t) {
		names = append(names, strings.FieldsFunc(text, func(r rune) bool {
			return !(r == '_' || r == '.' || r == '-' || r < utf8.RuneSelf && isAlnum(byte(r)))
		})...)
	}
	r := rand.New(rand.NewSource(2))
	const chars = "aAbBzZ09_.-kKeEyY"
	for range 20000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = chars[r.Intn(len(chars))]
		}
		names = append(names, string(b))
	}
	if len(names) < 100000 {
		t.Fatalf("only %d names", len(names))
	}
	for _, n := range names {
		if got, want := splitWords(n), splitWordsRunes(n); !reflect.DeepEqual(got, want) {
			t.Errorf("splitWords(%q) = %q, want %q", n, got, want)
		}
	}
}

// TestValueKeyPossible holds the one-pass search to the three it replaced.
func TestValueKeyPossible(t *testing.T) {
	texts := append(scanTexts(t), "", "value", "value:", "valuevalue\":", "value'value':", "value'", "xvalue\"", "value\"x:")
	seen := 0
	for _, text := range texts {
		want := strings.Contains(text, "value:") || strings.Contains(text, "value\":") || strings.Contains(text, "value':")
		if want {
			seen++
		}
		if got := valueKeyPossible(text); got != want {
			t.Errorf("valueKeyPossible(%q) = %v, want %v", text, got, want)
		}
	}
	if seen < 4 {
		t.Fatalf("only %d texts with a value key", seen)
	}
}

// TestAuthValuePossible checks that the filter in front of authHeaderRe
// never turns away a line the expression matches, and that it does turn
// lines away.
func TestAuthValuePossible(t *testing.T) {
	lines := []string{"token \u212Aabcdefghijk", "Bearer \u017Fabcdefghijk", "basic\tabcdefghijkl", "token abcdefghijk"}
	for _, text := range scanTexts(t) {
		lines = append(lines, strings.Split(text, "\n")...)
	}
	matched, refused := 0, 0
	for _, l := range lines {
		m := authHeaderRe().MatchString(l)
		p := authValuePossible(l)
		if m {
			matched++
			if !p {
				t.Errorf("authValuePossible(%q) = false, authHeaderRe() matches", l)
			}
		}
		if !p {
			refused++
		}
	}
	if matched < 10 || refused < len(lines)/2 {
		t.Fatalf("%d lines matched, %d of %d refused", matched, refused, len(lines))
	}
	if authValuePossible("token abcdefghijk") {
		t.Error("eleven value bytes pass")
	}
}
