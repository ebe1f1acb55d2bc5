package tokenizer

import (
	"strings"
	"testing"
)

// palette holds characters of every class the split patterns tell apart;
// fuzz inputs are also read as indices into it so that the fuzzer reaches
// rare mixes (marks after capitals, NEL before words, 'ſ contractions)
// that random bytes seldom spell.
var palette = []rune{
	'a', 'b', 's', 't', 'd', 'm', 'l', 'r', 'e', 'v', // lower, contraction letters
	'A', 'S', 'T', 'D', 'M', 'L', 'R', 'E', 'V', // upper
	'ǅ', 'ʰ', 'ª', '中', 'ا', 'ש', 'é', 'ß', 'Σ', 'σ', // Lt Lm Lo Lo Lo Lo Ll Ll Lu Ll
	'\u0301', '\u0903', '\u20DD', // Mn Mc Me
	'0', '7', '٣', '४', '½', 'Ⅻ', // Nd Nd Nd Nd No Nl
	' ', ' ', ' ', '\t', '\n', '\r', '\v', '\f', '\u0085', '\u00A0', '\u2028', '\u3000', '\uFEFF', '\u200B',
	'\'', '/', '.', ',', '(', '{', '<', '|', '>', '_', '-', '"', '😀', '\u200D', '🏽', '\uFFFD',
	'ſ', 'K', // U+017F, U+212A (Kelvin)
}

func fromPalette(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteRune(palette[int(c)%len(palette)])
	}
	return sb.String()
}

// FuzzMatchesReference checks that the fast counter and tiktoken-go agree
// on every input, for all encodings: on the input as text and on the
// input read as indices into palette.
func FuzzMatchesReference(f *testing.F) {
	for _, s := range referenceSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte{0, 1, 2, 29, 30, 31})
	f.Add([]byte{44, 44, 44, 45, 0, 49, 49, 40, 10})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1024 {
			b = b[:1024] // tiktoken-go is slow on long inputs
		}
		for _, text := range []string{comparable(string(b)), comparable(fromPalette(b))} {
			for _, name := range officialEncodings {
				tk, err := ForEncoding(name)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := tk.Count(text), refCount(t, name, text); got != want {
					t.Errorf("%s: Count(%q) = %d, tiktoken-go says %d", name, text, got, want)
				}
			}
		}
	})
}
