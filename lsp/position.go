package lsp

import (
	"fmt"
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
	off := 0
	for line := uint32(0); line < pos.Line; line++ {
		next := nextLineStart(text, off)
		if next < 0 {
			return len(text)
		}
		off = next
	}
	units := pos.Character
	for off < len(text) && units > 0 {
		c := text[off]
		if c == '\n' || c == '\r' {
			break
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

// applyChange replaces the range r of text with newText.
func applyChange(text string, r protocol.Range, newText string) (string, error) {
	start, end := offsetOf(text, r.Start), offsetOf(text, r.End)
	if end < start {
		return "", fmt.Errorf("range end %d:%d is before its start %d:%d", r.End.Line, r.End.Character, r.Start.Line, r.Start.Character)
	}
	return text[:start] + newText + text[end:], nil
}
