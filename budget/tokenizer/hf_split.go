package tokenizer

import "unicode/utf8"

// Pre-tokenizers of the Hugging Face tokenizer.json files (their Split
// regexes written by hand, as in split.go). Hugging Face tokenizers for
// JavaScript translates the Oniguruma patterns for JavaScript's RegExp:
// (?i:…) folds ASCII letters only (so "'ſ" is not a contraction here, unlike
// tiktoken's Rust regex), \s is \p{White_Space}.

// llama3Pattern is Llama 3's split (cl100k_base's pattern).
const llama3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// qwen3Pattern is Qwen 2/2.5/3's split: llama3Pattern with single digits.
const qwen3Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// DeepSeek V3's three splits, applied in sequence.
const (
	deepseekDigits = `\p{N}{1,3}`
	deepseekCJK    = "[一-龥぀-ゟ゠-ヿ]+"
	deepseekRest   = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
)

// nextLlama3 splits by llama3Pattern.
func nextLlama3(s string, i int) int { return nextCl100kLike(s, i, 3, false) }

// nextQwen3 splits by qwen3Pattern.
func nextQwen3(s string, i int) int { return nextCl100kLike(s, i, 1, false) }

// isDeepseekCJK reports whether r is in [一-龥぀-ゟ゠-ヿ].
func isDeepseekCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FA5 || r >= 0x3040 && r <= 0x30FF
}

// deepseekSegment returns the end of the piece of DeepSeek's first two
// splits that starts at s[i]: up to three \p{N} characters, a run of CJK
// characters, or a run of anything else up to the next \p{N} or CJK
// character. Each split keeps the text between its matches as pieces
// ("Isolated"), so the third split sees these segments one by one. whole
// is true for digits and CJK runs, which are pieces as they are.
func deepseekSegment(s string, i int) (end int, whole bool) {
	c, w := classAt(s, i)
	if c&fN != 0 {
		return runDigits(s, i, 3), true
	}
	r := rune(s[i])
	if w > 1 {
		r = decodeRune(s, i)
	}
	if isDeepseekCJK(r) {
		j := i + w
		for j < len(s) && s[j] >= 0xE3 && s[j] <= 0xE9 {
			r := decodeRune(s, j)
			if !isDeepseekCJK(r) {
				break
			}
			j += 3
		}
		return j, true
	}
	j := i + w
	for j < len(s) {
		b := s[j]
		if b < 0x80 {
			if b >= '0' && b <= '9' {
				break
			}
			j++
			continue
		}
		c, w := classAt(s, j)
		if c&fN != 0 || w == 3 && isDeepseekCJK(decodeRune(s, j)) {
			break
		}
		j += w
	}
	return j, false
}

// nextDeepseekRest splits a segment by deepseekRest. Characters no
// alternative matches (controls, format characters such as U+200D, unassigned
// code points) are gathered into one piece up to the next match, as the
// Split pre-tokenizer keeps unmatched text.
func nextDeepseekRest(s string, i int) int {
	if j, ok := deepseekMatch(s, i); ok {
		return j
	}
	j := i
	for j < len(s) {
		_, w := classAt(s, j)
		j += w
		if j < len(s) {
			if _, ok := deepseekMatch(s, j); ok {
				break
			}
		}
	}
	return j
}

// deepseekMatch tries the alternatives of deepseekRest at s[i].
func deepseekMatch(s string, i int) (int, bool) {
	c, w := classAt(s, i)
	if j := punctLetters(s, i); j > 0 {
		return j, true
	}
	// [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
	if c&(fNL|fL|fPS) == 0 && i+w < len(s) {
		if c2, w2 := classAt(s, i+w); c2&(fL|fM) != 0 {
			return runWhile(s, i+w+w2, fL|fM), true
		}
	}
	if c&(fL|fM) != 0 {
		return runWhile(s, i+w, fL|fM), true
	}
	// ' ?[\p{P}\p{S}]+[\r\n]*'
	if s[i] == ' ' && i+1 < len(s) {
		if c2, w2 := classAt(s, i+1); c2&fPS != 0 {
			return crlfRun(s, runWhile(s, i+1+w2, fPS)), true
		}
	}
	if c&fPS != 0 {
		return crlfRun(s, runWhile(s, i+w, fPS)), true
	}
	if c&fS != 0 {
		return spaces(s, i, true), true
	}
	return 0, false
}

// punctLetters matches deepseekRest's first alternative,
// [ASCII punctuation][A-Za-z]+, at s[i]: its end, or 0.
func punctLetters(s string, i int) int {
	if b := s[i]; b >= 0x80 || !isASCIIPunct(b) || i+1 >= len(s) || !isASCIILetter(s[i+1]) {
		return 0
	}
	j := i + 2
	for j < len(s) && isASCIILetter(s[j]) {
		j++
	}
	return j
}

func crlfRun(s string, j int) int {
	for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
		j++
	}
	return j
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

func isASCIIPunct(b byte) bool {
	return b >= '!' && b <= '/' || b >= ':' && b <= '@' || b >= '[' && b <= '`' || b >= '{' && b <= '~'
}

// decodeRune returns the rune at s[i] (s valid UTF-8).
func decodeRune(s string, i int) rune {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}
