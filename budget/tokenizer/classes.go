package tokenizer

//go:generate sh -c "node ../../tools/tiktoken-ref/gen-unicode.mjs > unicode_tables.go"

import "unicode/utf8"

// Class flags of a code point, as the split patterns see it. The tables in
// unicode_tables.go are generated from the Unicode version of OpenAI's
// tiktoken core; see tools/tiktoken-ref/gen-unicode.mjs.
const (
	fL  = 1 << iota // \p{L}: Lu Ll Lt Lm Lo
	fU              // o200k's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	fW              // o200k's [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	fN              // \p{N}
	fS              // \s: the White_Space property
	fNL             // [\r\n]
	fPS             // [\p{P}\p{S}] (DeepSeek V3's pattern)
	fM              // \p{M}
)

// classOf returns the class flags of r, a valid rune.
func classOf(r rune) uint8 {
	return classStage2[int(classStage1[r/classBlock])*classBlock+int(r%classBlock)]
}

// classAt returns the class flags and the width in bytes of the character
// at s[i]; s is valid UTF-8 and i < len(s).
func classAt(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return classStage2[c], 1 // block 0 holds ASCII
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classOf(r), w
}

// runWhile returns the end of the run of characters from s[i] whose flags
// intersect mask.
func runWhile(s string, i int, mask uint8) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// runOther returns the end of the run of characters from s[i] that are
// none of \s, \p{L} and \p{N} ([^\s\p{L}\p{N}]+).
func runOther(s string, i int) int {
	for i < len(s) {
		c, w := classAt(s, i)
		if c&(fS|fL|fN) != 0 {
			break
		}
		i += w
	}
	return i
}

// runDigits returns the end of at most max \p{N} characters from s[i].
func runDigits(s string, i, max int) int {
	for k := 0; k < max && i < len(s); k++ {
		c, w := classAt(s, i)
		if c&fN == 0 {
			break
		}
		i += w
	}
	return i
}
