package rpc

import (
	"encoding/json"
)

// maxIDBytes bounds the id an idScanner keeps.
const maxIDBytes = 256

// idScanner finds the raw value of the top-level "id" member in JSON text
// fed to it piece by piece, keeping nothing else. It works on truncated or
// invalid text too, so a message that cannot be decoded (or is too large to
// be) can still be answered with its own id.
type idScanner struct {
	depth     int
	inStr     bool
	esc       bool
	expectKey bool // at depth 1, the next string is a member name
	keyStr    bool // the current string is a member name being kept
	key       []byte
	isIDValue bool // the next value at depth 1 is the id
	scalar    bool // reading an unquoted id (number or literal)
	idStr     bool // the current string is the id
	buf       []byte
	id        json.RawMessage
}

// scanID returns the top-level id of data, or nil when there is none.
func scanID(data []byte) json.RawMessage {
	var sc idScanner
	sc.feed(data)
	return validID(sc.id)
}

// keep appends c to the value being captured, up to maxIDBytes.
func (sc *idScanner) keep(c byte) {
	if len(sc.buf) < maxIDBytes {
		sc.buf = append(sc.buf, c)
	}
}

// feed scans the next piece of the text.
func (sc *idScanner) feed(p []byte) {
	for _, c := range p {
		switch {
		case sc.id != nil:
			return
		case sc.inStr:
			sc.stringByte(c)
		case sc.scalar:
			sc.scalarByte(c)
		default:
			sc.structByte(c)
		}
	}
}

// stringByte reads a byte inside a string, keeping it when the string is
// a member name or the id.
func (sc *idScanner) stringByte(c byte) {
	if sc.keyStr || sc.idStr {
		sc.keep(c)
	}
	switch {
	case sc.esc:
		sc.esc = false
	case c == '\\':
		sc.esc = true
	case c == '"':
		sc.inStr = false
		if sc.idStr {
			sc.id = append(json.RawMessage(nil), sc.buf...)
		} else if sc.keyStr {
			sc.key = append(sc.key[:0], sc.buf...)
		}
		sc.keyStr, sc.idStr = false, false
	}
}

// scalarByte reads a byte of an unquoted id: the first byte that cannot
// be part of a number or literal ends it.
func (sc *idScanner) scalarByte(c byte) {
	if c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
		sc.keep(c)
		return
	}
	sc.id = append(json.RawMessage(nil), sc.buf...)
}

// openString starts a string, capturing it when it is the id or a member
// name at depth 1.
func (sc *idScanner) openString() {
	sc.inStr = true
	if sc.depth != 1 {
		return
	}
	switch {
	case sc.isIDValue:
		sc.idStr, sc.isIDValue = true, false
	case sc.expectKey:
		sc.keyStr = true
	default:
		return
	}
	sc.buf = append(sc.buf[:0], '"')
}

// structByte reads a byte outside strings and scalars: nesting, member
// names and values at depth 1.
func (sc *idScanner) structByte(c byte) {
	switch c {
	case ' ', '\t', '\r', '\n':
	case '"':
		sc.openString()
	case '{', '[':
		sc.isIDValue = sc.isIDValue && sc.depth != 1
		sc.depth++
		sc.expectKey = sc.depth == 1 && c == '{'
	case '}', ']':
		sc.depth--
	case ':':
		if sc.depth == 1 {
			sc.expectKey = false
			sc.isIDValue = string(sc.key) == `"id"`
			sc.key = sc.key[:0]
		}
	case ',':
		if sc.depth == 1 {
			sc.expectKey, sc.isIDValue = true, false
		}
	default:
		if sc.depth == 1 && sc.isIDValue {
			sc.scalar, sc.isIDValue = true, false
			sc.buf = append(sc.buf[:0], c)
		}
	}
}
