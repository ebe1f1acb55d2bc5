package lsp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// This file is the only place where LSP positions (0-based lines, UTF-16
// code units) meet byte offsets; everything else works on bytes and
// 1-based lines.

// offsetOf returns the byte offset of pos in text. Lines end at "\n",
// "\r\n" or "\r", as the LSP specification says. A character past the end
// of its line means the end of the line, and a line past the end of the
// text means the end of the text (the specification's defaulting rules).
func offsetOf(text string, pos protocol.Position) int {
	return offsetFrom(text, 0, pos.Line, pos.Character)
}

// offsetFrom is offsetOf for a position lines below the line that starts
// at byte off, units UTF-16 code units into its line.
func offsetFrom(text string, off int, lines, units uint32) int {
	off = skipLines(text, off, lines)
	if off < 0 {
		return len(text)
	}
	for off < len(text) && units > 0 {
		c := text[off]
		if c == '\n' || c == '\r' {
			break
		}
		if c < utf8.RuneSelf {
			units--
			off++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[off:])
		n := uint32(1)
		if r >= 0x10000 {
			n = 2 // a surrogate pair in UTF-16
		}
		if n > units {
			break // inside a surrogate pair: stay before the character
		}
		units -= n
		off += size
	}
	return off
}

// skipLines returns the offset of the line n lines below the line that
// starts at off, or -1 when the text has fewer lines. Text without "\r"
// after off (the usual case) is skipped with the vectorised
// strings.IndexByte: a keystroke at the end of a 1 MB file no longer pays
// a byte-by-byte scan of the text before it.
func skipLines(text string, off int, n uint32) int {
	if n == 0 {
		return off
	}
	if strings.IndexByte(text[off:], '\r') >= 0 {
		for ; n > 0; n-- {
			if off = nextLineStart(text, off); off < 0 {
				return -1
			}
		}
		return off
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// nextLineStart returns the offset just after the line break that ends the
// line starting at off, or -1 when that line is the last one.
func nextLineStart(text string, off int) int {
	for i := off; i < len(text); i++ {
		switch text[i] {
		case '\n':
			return i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		}
	}
	return -1
}

// startOfLine returns the offset of the start of the line holding off.
func startOfLine(text string, off int) int {
	return strings.LastIndexAny(text[:off], "\r\n") + 1
}

// applyChange replaces the range r of text with newText.
func applyChange(text string, r protocol.Range, newText string) (string, error) {
	start := offsetOf(text, r.Start)
	var end int
	if r.End.Line >= r.Start.Line && start < len(text) {
		// The end is found from the start's line, not from the top again.
		end = offsetFrom(text, startOfLine(text, start), r.End.Line-r.Start.Line, r.End.Character)
	} else {
		end = offsetOf(text, r.End)
	}
	if end < start {
		return "", fmt.Errorf("range end %d:%d is before its start %d:%d", r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return text[:start] + newText + text[end:], nil
}
