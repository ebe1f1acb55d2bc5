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
	l := utf8Lead[s[0]]
	if l.need == 0 {
		return 1 // 0x80..0xC1, 0xF5..0xFF: never the start of a sequence
	}
	lo, hi := l.lo, l.hi
	n := 1
	for k := byte(0); k < l.need && n < len(s); k++ {
		if b := s[n]; b < lo || b > hi {
			break
		}
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}

// utf8Lead is, per first byte of a well-formed UTF-8 sequence, how many
// continuation bytes follow it and the range of the second byte (the
// others are 0x80..0xBF): Table 3-7 of the Unicode Standard. need is 0 for
// a byte that starts none.
var utf8Lead = func() (t [256]struct{ need, lo, hi byte }) {
	for _, r := range []struct{ from, to, need, lo, hi byte }{
		{0xC2, 0xDF, 1, 0x80, 0xBF},
		{0xE0, 0xE0, 2, 0xA0, 0xBF},
		{0xE1, 0xEC, 2, 0x80, 0xBF},
		{0xED, 0xED, 2, 0x80, 0x9F},
		{0xEE, 0xEF, 2, 0x80, 0xBF},
		{0xF0, 0xF0, 3, 0x90, 0xBF},
		{0xF1, 0xF3, 3, 0x80, 0xBF},
		{0xF4, 0xF4, 3, 0x80, 0x8F},
	} {
		for c := int(r.from); c <= int(r.to); c++ {
			t[c] = struct{ need, lo, hi byte }{r.need, r.lo, r.hi}
		}
	}
	return t
}()
