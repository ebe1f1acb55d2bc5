package tokenizer

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// nfc returns s in Unicode Normalization Form C (Qwen's normalizer).
//
// golang.org/x/text's composition looks pairs up by a 32-bit key built from
// both code points, so a starter outside the BMP aliases a BMP one:
// U+1003C + U+0338 became "≮" and U+E0077 + U+0301 "ẃ". Its decomposition
// and its compositions of BMP starters are right. So text with a starter
// outside the BMP followed by a non-starter is composed here, by the
// canonical composition algorithm over x/text's NFD and combining classes,
// asking x/text only about single pairs and refusing a BMP result for a
// non-BMP starter (every real non-BMP composite is itself outside the BMP).
func nfc(s string) string {
	if isASCII(s) {
		return s
	}
	if !needsOwnComposition(s) {
		return norm.NFC.String(s) // returns s itself when it is already NFC
	}
	return composeNFD(norm.NFD.String(s))
}

// needsOwnComposition reports whether s has a character outside the BMP
// followed by one that may combine with it (a non-starter, or a starter
// that composes backwards).
func needsOwnComposition(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0xF0 {
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		if i+w < len(s) && !norm.NFC.PropertiesString(s[i+w:]).BoundaryBefore() {
			return true // the next character may combine with this one
		}
		i += w - 1
	}
	return false
}

// composeNFD applies canonical composition (Unicode §3.11) to d, which is in
// NFD.
func composeNFD(d string) string {
	rs := []rune(d)
	out := make([]rune, 0, len(rs))
	starter := -1       // index in out of the last starter
	lastCCC := uint8(0) // class of the last character appended after it
	for _, r := range rs {
		ccc := norm.NFC.PropertiesString(string(r)).CCC()
		if starter >= 0 {
			blocked := len(out)-1 != starter && (lastCCC == 0 || lastCCC >= ccc)
			if !blocked {
				if c, ok := composePair(out[starter], r); ok {
					out[starter] = c
					continue
				}
			}
		}
		if ccc == 0 {
			starter = len(out)
		}
		lastCCC = ccc
		out = append(out, r)
	}
	return string(out)
}

// composePair returns the primary composite of a and b, if there is one.
func composePair(a, b rune) (rune, bool) {
	var sb strings.Builder
	sb.WriteRune(a)
	sb.WriteRune(b)
	c := norm.NFC.String(sb.String())
	r, w := utf8.DecodeRuneInString(c)
	if w != len(c) || r == a {
		return 0, false
	}
	if a >= 0x10000 && r < 0x10000 {
		return 0, false // x/text's aliasing, see nfc
	}
	return r, true
}
