package tokenizer

import (
	"unicode/utf8"
)

// toValidUTF8 returns s with every maximal ill-formed subsequence replaced
// by U+FFFD ("substitution of maximal subparts", Unicode §3.9 U+FFFD
// substitution, the WHATWG Encoding Standard's UTF-8 decoder). This is what
// TextDecoder in browsers, Node and VS Code, Python's
// bytes.decode(errors="replace") and Rust's String::from_utf8_lossy
// produce, so it is what a JSON/HTTP client would send for the same bytes.
// It differs from strings.ToValidUTF8 (one U+FFFD per run of bad bytes) and
// from Go's []rune conversion (one U+FFFD per bad byte): "\xE2\x82" (a
// truncated euro sign) becomes one U+FFFD, "\xC0\x80" becomes two.
func toValidUTF8(s string) string {
	i := firstInvalid(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || size != 1 {
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		b = append(b, "\uFFFD"...)
		i += maximalSubpart(s[i:])
	}
	return string(b)
}

// firstInvalid returns the index of the first byte of s that starts an
// ill-formed sequence, or -1 if s is valid UTF-8.
func firstInvalid(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// maximalSubpart returns the length (≥ 1) of the maximal subpart of an
// ill-formed sequence at the start of s: the longest prefix that is the
// start of some well-formed sequence, or one byte if there is none.
func maximalSubpart(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF) // allowed range of the second byte
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default: // 0x80..0xC1, 0xF5..0xFF: never the start of a sequence
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(s); k++ {
		b := s[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if b < lo || b > hi {
			break
		}
		n++
	}
	return n
}
