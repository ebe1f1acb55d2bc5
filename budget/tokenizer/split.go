package tokenizer

import (
	"strings"
	"unicode/utf8"
)

// The split functions below replace the regular expressions of tiktoken
// (OpenAI's core uses fancy-regex; tiktoken-go uses regexp2). Each returns
// the end of the piece that starts at s[i] (s valid UTF-8, i < len(s)),
// trying the pattern's alternatives in order and reproducing the
// backtracking of greedy quantifiers, so the pieces are exactly the
// regex's matches. Every character belongs to some alternative, so pieces
// tile the text.

// splitFunc returns the end of the piece that starts at s[i].
type splitFunc func(s string, i int) int

// nextO200k splits for o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
func nextO200k(s string, i int) int {
	c, w := classAt(s, i)
	prefix := c&(fL|fN|fNL) == 0 && i+w < len(s) // [^\r\n\p{L}\p{N}] then more text
	// Alternative 1, with the optional prefix, then without it.
	if prefix {
		if j := o200kLower(s, i+w); j >= 0 {
			return j
		}
	}
	if c&(fU|fW) != 0 {
		if j := o200kLower(s, i); j >= 0 {
			return j
		}
	}
	// Alternative 2, with the optional prefix, then without it.
	if prefix {
		if c2, _ := classAt(s, i+w); c2&fU != 0 {
			return o200kUpper(s, i+w)
		}
	}
	if c&fU != 0 {
		return o200kUpper(s, i)
	}
	if c&fN != 0 {
		return runDigits(s, i, 3)
	}
	if j, ok := spaceOther(s, i, c, w); ok {
		for j < len(s) && (s[j] == '\r' || s[j] == '\n' || s[j] == '/') {
			j++
		}
		return j
	}
	return spaces(s, i, true)
}

// o200kLower matches [U]*[W]+(contraction)? at s[i:], returning its end or
// -1. U* is greedy: when the maximal U run is not followed by a W
// character, the match backs off to the last W character inside the run.
func o200kLower(s string, i int) int {
	a := runWhile(s, i, fU)
	if a < len(s) {
		if c, _ := classAt(s, a); c&fW != 0 {
			return contraction(s, runWhile(s, a, fW))
		}
	}
	for k := a; k > i; {
		r, w := utf8.DecodeLastRuneInString(s[i:k])
		if classOf(r)&fW != 0 {
			return contraction(s, k)
		}
		k -= w
	}
	return -1
}

// o200kUpper matches [U]+[W]*(contraction)? at s[i:]; s[i] is in U.
func o200kUpper(s string, i int) int {
	return contraction(s, runWhile(s, runWhile(s, i, fU), fW))
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i:],
// or i if there is none. Case-insensitive matching uses Unicode simple case
// folding, as Rust's regex crate does, so "'ſ" (U+017F folds to s) matches.
func contraction(s string, i int) int {
	if j := contractionASCII(s, i); j > i {
		return j
	}
	if i+1 < len(s) && s[i] == '\'' && strings.HasPrefix(s[i+1:], "ſ") {
		return i + 1 + len("ſ")
	}
	return i
}

// contractionASCII is (?i:'s|'t|'re|'ve|'m|'ll|'d) with ASCII case folding
// only (Hugging Face tokenizers' JavaScript regexes, hf_split.go).
func contractionASCII(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] | 0x20 { // ASCII lower case; only 'X' and 'x' map to 'x'
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// nextCl100k splits for cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func nextCl100k(s string, i int) int { return nextCl100kLike(s, i, 3, true) }

// nextCl100kLike splits by cl100k_base's pattern with at most digits \p{N}
// characters per number; unicodeFold picks the contraction's case folding
// (Unicode simple folding as in tiktoken, or ASCII only as in Hugging Face
// tokenizers for JavaScript). Llama 3 and Qwen 3 split with it too
// (hf_split.go).
func nextCl100kLike(s string, i, digits int, unicodeFold bool) int {
	var j int
	if unicodeFold {
		j = contraction(s, i)
	} else {
		j = contractionASCII(s, i)
	}
	if j > i {
		return j
	}
	c, w := classAt(s, i)
	if c&(fL|fN|fNL) == 0 && i+w < len(s) {
		if c2, w2 := classAt(s, i+w); c2&fL != 0 {
			return runWhile(s, i+w+w2, fL)
		}
	}
	if c&fL != 0 {
		return runWhile(s, i+w, fL)
	}
	if c&fN != 0 {
		return runDigits(s, i, digits)
	}
	if j, ok := spaceOther(s, i, c, w); ok {
		return crlfRun(s, j)
	}
	return spaces(s, i, true)
}

// nextGPT2 splits for p50k_base and r50k_base (GPT-2's pattern):
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
func nextGPT2(s string, i int) int {
	if j := contractionGPT2(s, i); j > i {
		return j
	}
	if s[i] == ' ' && i+1 < len(s) {
		c, w := classAt(s, i+1)
		switch {
		case c&fL != 0:
			return runWhile(s, i+1+w, fL)
		case c&fN != 0:
			return runWhile(s, i+1+w, fN)
		case c&fS == 0:
			return runOther(s, i+1+w)
		}
	}
	c, w := classAt(s, i)
	switch {
	case c&fL != 0:
		return runWhile(s, i+w, fL)
	case c&fN != 0:
		return runWhile(s, i+w, fN)
	case c&fS == 0:
		return runOther(s, i+w)
	}
	return spaces(s, i, false)
}

// contractionGPT2 is the case-sensitive 's|'t|'re|'ve|'m|'ll|'d.
func contractionGPT2(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2] == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2] == 'l' {
			return i + 3
		}
	}
	return i
}

// spaceOther matches " ?[^\s\p{L}\p{N}]+" at s[i:] (c, w: the class and
// width of s[i]), returning the end of the run of other characters.
func spaceOther(s string, i int, c uint8, w int) (int, bool) {
	if s[i] == ' ' && i+1 < len(s) {
		if c2, w2 := classAt(s, i+1); c2&(fS|fL|fN) == 0 {
			return runOther(s, i+1+w2), true
		}
	}
	if c&(fS|fL|fN) == 0 {
		return runOther(s, i+w), true
	}
	return 0, false
}

// spaces matches the whitespace alternatives at s[i:], s[i] being
// whitespace: \s*[\r\n]+ (only if newlines), then \s+(?!\S), then \s+.
//
// \s*[\r\n]+ ends after the last newline of the whitespace run.
// \s+(?!\S) takes the whole run at the end of the text; otherwise it backs
// off one character so that the last space can join the next word
// (" foo"); a single whitespace character before non-space falls to \s+.
func spaces(s string, i int, newlines bool) int {
	q, last, nl, n := i, i, -1, 0
	for q < len(s) {
		c, w := classAt(s, q)
		if c&fS == 0 {
			break
		}
		if c&fNL != 0 {
			nl = q
		}
		last = q
		q += w
		n++
	}
	switch {
	case newlines && nl >= 0:
		return nl + 1
	case q == len(s) || n == 1:
		return q
	default:
		return last
	}
}
