package tokenizer

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// spanTexts are the texts TestSpansExact cuts: every file of the token
// corpus, and generated files whose lines end and begin in the ways that
// stress a cut (punctuation runs, slashes, contractions, digits, CR,
// Unicode white space, CJK, combining marks, long lines without a break).
func spanTexts(t *testing.T) map[string]string {
	t.Helper()
	texts := map[string]string{}
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(corpusDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		texts[e.Name()] = string(b)
	}
	ends := []string{"", "}", ")", ";", "'", "'s", "//", "/", "x", "X9", "123", "é", "\u2028", "\u00a0", " ", "\t", "\r", "\\", ",", "—", "中文", "e\u0301", "...", "!!", "=", "`"}
	starts := []string{"func", "s", "t", "ll", "re", "X", "a1", "Zz", "i", "the", "ABC", "don't", "x//y", "n\u0301", "q中", "Ve", "o'clock",
		"//", "/", "/x", "// Doc", "}", "})", "#x", "'s", "'", "123", "1", "<think>", "<|endoftext|>", "*", "-", "\"", "@", "_x", ".", "(", "[", "\\", "~", "`",
		"\tx", "\t\tif", "  }", "\t// c", " /", "\t'", " \t1", "\t", "  \t ", " \u00a0x", "\t\u2028"}
	mids := []string{" ", "  ", "\t", "(", ")", "{", "}", "/", "//", "'", "'d", "123456", "abc", "ABC", "\u3000", "\u0085", "é", "中文字", "🙂", "\r\n", "\n", "\n\n", "  \n", "\\n", "<|endoftext|>", "ǅ", "ＡＢ"}
	r := rand.New(rand.NewSource(14))
	for f := 0; f < 12; f++ {
		var b strings.Builder
		for line := 0; line < 400; line++ {
			if r.Intn(3) > 0 {
				b.WriteString(starts[r.Intn(len(starts))])
			} else {
				b.WriteString(mids[r.Intn(len(mids))])
			}
			for k := r.Intn(6); k > 0; k-- {
				b.WriteString(mids[r.Intn(len(mids))])
				if r.Intn(2) == 0 {
					b.WriteString(starts[r.Intn(len(starts))])
				}
			}
			b.WriteString(ends[r.Intn(len(ends))])
			b.WriteByte('\n')
		}
		texts["generated-"+string(rune('a'+f))] = b.String()
	}
	return texts
}

// TestSpansExact checks, for every additive encoding, that every span
// [Spans.Count] answers equals a direct count: all spans between
// neighbouring safe points, spans from every safe point to the end and
// from the start, and random spans between line starts (most of which it
// must refuse). It also checks that a span it refuses has an end that is
// not a safe point.
func TestSpansExact(t *testing.T) {
	texts := spanTexts(t)
	for enc := range additiveEncodings {
		tok, err := ForEncoding(enc)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(enc, func(t *testing.T) {
			answered := 0
			for name, text := range texts {
				s := countSpans(tok, text)
				if s == nil {
					if utf8.ValidString(text) {
						t.Fatalf("%s: no spans for valid UTF-8", name)
					}
					continue
				}
				if got, want := s.Total(), tok.Count(text); got != want {
					t.Fatalf("%s: total %d, direct %d", name, got, want)
				}
				check := func(a, b int) {
					t.Helper()
					got, ok := s.Count(a, b)
					safe := func(p int) bool { return p == 0 || p == len(text) || spanCut(enc)(text, p) }
					if ok != (safe(a) && safe(b)) {
						t.Fatalf("%s [%d,%d): answered %v, safe ends %v %v", name, a, b, ok, safe(a), safe(b))
					}
					if !ok {
						return
					}
					answered++
					if want := tok.Count(text[a:b]); got != want {
						t.Fatalf("%s [%d,%d) %q: derived %d, direct %d", name, a, b, text[a:b], got, want)
					}
				}
				for i := 0; i+1 < len(s.at); i++ {
					check(s.at[i], s.at[i+1])
				}
				for i := 0; i < len(s.at); i += 7 {
					check(s.at[i], len(text))
					check(0, s.at[i])
				}
				starts := []int{0}
				for i := 0; i < len(text); i++ {
					if text[i] == '\n' && i+1 < len(text) {
						starts = append(starts, i+1)
					}
				}
				starts = append(starts, len(text))
				r := rand.New(rand.NewSource(int64(len(text))))
				for k := 0; k < 300; k++ {
					a := r.Intn(len(starts))
					b := min(a+r.Intn(40), len(starts)-1)
					check(starts[a], starts[b])
				}
			}
			if answered < 1000 {
				t.Fatalf("only %d spans answered: the test checks too little", answered)
			}
		})
	}
}

// TestCountSpansRefuses checks that what cannot be counted by spans is not:
// tokenizers that are not additive, and invalid UTF-8.
func TestCountSpansRefuses(t *testing.T) {
	o200k, err := ForEncoding(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	gemma, err := ForEncoding(Gemma3)
	if err != nil {
		t.Fatal(err)
	}
	est, err := ForModel("claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tok  Tokenizer
		text string
	}{
		{"gemma3", gemma, "a\nb\n"},
		{"heuristic", Heuristic(), "a\nb\n"},
		{"estimate", est, "a\nb\n"},
		{"cached estimate", NewCached(est, 10), "a\nb\n"},
		{"invalid utf-8", o200k, "a\n\xffb\n"},
	}
	p50k, err := ForEncoding(P50kBase)
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct {
		name string
		tok  Tokenizer
		text string
	}{"p50k_base (not worth a pass)", p50k, "a\nb\n"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s := CountSpans(tc.tok, tc.text); s != nil {
				t.Errorf("CountSpans = %+v, want nil", s)
			}
		})
	}
	if s := CountSpans(NewCached(o200k, 10), "x\ny\n"); s == nil || s.Total() != o200k.Count("x\ny\n") {
		t.Errorf("a cached exact tokenizer: %+v", s)
	}
	var nilSpans *Spans
	if _, ok := nilSpans.Count(0, 0); ok {
		t.Error("a nil Spans answered")
	}
}

// preBounds returns the pre-token boundaries of s under enc's
// pre-tokenizer (the normalizers are left out: the texts checked are
// their own NFC form).
func preBounds(enc, s string) []int {
	var out []int
	switch enc {
	case DeepseekV3:
		for i := 0; i < len(s); {
			e, whole := deepseekSegment(s, i)
			if !whole {
				for k := i; k < e; {
					k += nextDeepseekRest(s[i:e], k-i) - (k - i)
					out = append(out, k)
				}
			} else {
				out = append(out, e)
			}
			i = e
		}
		return out
	}
	next := map[string]splitFunc{Llama3: nextLlama3, Qwen3: nextQwen3}[enc]
	if next == nil {
		next = encoders[enc].split
	}
	for i := 0; i < len(s); {
		i = next(s, i)
		out = append(out, i)
	}
	return out
}

// TestSpanCutsArePreTokenBounds checks the cut rules on the pre-tokens
// themselves, which is stronger than comparing counts (two splits can
// happen to count the same): for neighbouring cut points a < p < b, text
// [a:b] splits into exactly the pre-tokens of the whole text between a and
// b, and into those of text[a:p] followed by those of text[p:b].
func TestSpanCutsArePreTokenBounds(t *testing.T) {
	texts := spanTexts(t)
	for enc := range additiveEncodings {
		cut := spanCut(enc)
		t.Run(enc, func(t *testing.T) {
			checked := 0
			for name, text := range texts {
				if !utf8.ValidString(text) {
					continue
				}
				text = nfc(text)
				whole := preBounds(enc, text)
				pts := []int{0}
				for p := 1; p < len(text); p++ {
					if cut(text, p) {
						pts = append(pts, p)
					}
				}
				pts = append(pts, len(text))
				inWhole := func(a, b int) []int {
					var out []int
					for _, x := range whole {
						if x > a && x <= b {
							out = append(out, x-a)
						}
					}
					return out
				}
				for i := 1; i+1 < len(pts); i++ {
					a, p, b := pts[i-1], pts[i], pts[i+1]
					ab := preBounds(enc, text[a:b])
					if want := inWhole(a, b); !slices.Equal(ab, want) {
						t.Fatalf("%s: [%d,%d) %q splits as %v, within the whole as %v", name, a, b, text[a:b], ab, want)
					}
					ap, pb := preBounds(enc, text[a:p]), preBounds(enc, text[p:b])
					for k := range pb {
						pb[k] += p - a
					}
					if joined := append(ap, pb...); !slices.Equal(ab, joined) {
						t.Fatalf("%s: cut at %d in %q: %v + %v, whole %v", name, p, text[a:b], ap, pb, ab)
					}
					checked++
				}
			}
			if checked < 1000 {
				t.Fatalf("only %d cuts checked", checked)
			}
		})
	}
}

// TestSafeCut: the rule shared by every additive encoding — a line
// starting with an ASCII letter after a line ending in a character that is
// not white space — is a cut point of each encoding's own rule, on the
// span texts; and small cases at its edges.
func TestSafeCut(t *testing.T) {
	for _, tc := range []struct {
		text string
		p    int
		want bool
	}{
		{"a;\nb", 3, true},
		{"a;\nB", 3, true},
		{"a;\n b", 3, false},     // indented
		{"a;\n1", 3, false},      // a digit
		{"a;\n/", 3, false},      // punctuation
		{"a \nb", 3, false},      // white space before the newline
		{"a\r\nb", 3, false},     // CRLF: the newline ends a run of white space
		{"é\nb", 3, false},       // not ASCII before the newline
		{"\nb", 1, false},        // nothing before the newline
		{"a;\nb", 4, false},      // the end
		{"a;b\nc", 2, false},     // not a line start
		{"x\u2028\nb", 5, false}, // U+2028 before the newline
	} {
		if got := SafeCut(tc.text, tc.p); got != tc.want {
			t.Errorf("SafeCut(%q, %d) = %v, want %v", tc.text, tc.p, got, tc.want)
		}
	}
	safe := 0
	for name, text := range spanTexts(t) {
		for p := range len(text) {
			if !SafeCut(text, p) {
				continue
			}
			safe++
			for enc := range additiveEncodings {
				if !spanCut(enc)(text, p) {
					t.Fatalf("%s: SafeCut at %d (%q) is not a cut point of %s", name, p, text[max(0, p-10):min(len(text), p+10)], enc)
				}
			}
		}
	}
	if safe < 500 {
		t.Fatalf("only %d safe points in the span texts: the test checks too little", safe)
	}
}
