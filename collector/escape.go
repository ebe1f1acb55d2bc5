package collector

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapePath makes a string that came from outside (a path, a label, a
// .gitignore pattern) safe for a log field: control characters (C0, DEL, C1),
// line and paragraph separators, bidirectional overrides and other invisible
// format characters are written as Go-style escapes (\n, \x1b, \u202e), and
// bytes that are not UTF-8 as \xNN. Backslashes are kept as they are, so
// Windows paths stay readable.
func EscapePath(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case isInvisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r < 0x20 || r == 0x7f || isInvisible(r) {
			return true
		}
		i += size
	}
	return false
}

// isInvisible reports C1 controls and the format characters that can hide or
// reorder text in a terminal or log viewer.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls
		return true
	case r >= 0x200b && r <= 0x200f: // zero-width, LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line/paragraph separators, bidi embeddings and overrides
		return true
	case r >= 0x2066 && r <= 0x2069: // bidi isolates
		return true
	case r == 0xfeff: // zero-width no-break space
		return true
	}
	return false
}
