package lsp

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// lensItem is one code lens before encoding: its chunk's lines, tokens and
// title prefix, and its what-if state when known.
type lensItem struct {
	line, end, tokens int
	title             string
	st                fitState
	whole             bool
}

// lensCommon is what every lens of one answer shares: the document and the
// budget its what-if arguments carry, and whether states are known.
type lensCommon struct {
	uri       protocol.DocumentURI
	path      string
	total     int
	available int
	known     bool
}

// appendLenses appends the JSON array of the lenses of items to b, as
// encoding/json would encode the []protocol.CodeLens of lensValue
// (TestAppendLensesMatchesEncoding): a 1 MB file has thousands of lenses,
// and the reflective encoder took about a third of a keystroke's CPU.
func appendLenses(b []byte, items []lensItem, c lensCommon) []byte {
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendLens(b, it, c)
	}
	return append(b, ']')
}

// appendLens appends one lens: a range empty at the start of its line and
// a command with its title and, when clickable, its arguments.
func appendLens(b []byte, it lensItem, c lensCommon) []byte {
	var lineBuf [20]byte
	line := strconv.AppendInt(lineBuf[:0], int64(it.line), 10)
	b = append(b, `{"range":{"start":{"line":`...)
	b = append(b, line...)
	b = append(b, `,"character":0},"end":{"line":`...)
	b = append(b, line...)
	b = append(b, `,"character":0}},"command":{"title":`...)
	title, cmd, args := lensCommand(it, c)
	b = appendString(b, title)
	b = append(b, `,"command":`...)
	b = appendString(b, cmd)
	if args != nil {
		b = append(b, `,"arguments":[`...)
		b = appendChunkArgs(b, args)
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

// lensCommand is a lens's title, command id and arguments (nil when the
// lens is a label): with a known what-if state the title goes on with its
// suffix, and a state with a suffix makes the lens clickable.
func lensCommand(it lensItem, c lensCommon) (title, cmd string, args *chunkArgs) {
	if !c.known {
		return it.title, "", nil
	}
	suffix := it.st.suffix()
	if suffix == "" {
		return it.title, "", nil
	}
	cmd = cmdShowChunkReport
	if !it.st.in && it.st.toFit > 0 {
		cmd = cmdPinChunk
	}
	return it.title + suffix, cmd, &chunkArgs{
		URI: c.uri, Path: c.path, StartLine: it.line + 1, EndLine: it.end + 1, Tokens: it.tokens,
		InContext: it.st.in, ToFit: it.st.toFit, Reason: it.st.reason, Score: it.st.score,
		Total: c.total, Available: c.available, WholeFile: it.whole,
	}
}

// lensValue is the lens of it as a protocol value (the form appendLens
// encodes).
func lensValue(it lensItem, c lensCommon) protocol.CodeLens {
	title, cmd, args := lensCommand(it, c)
	l := lensAt(uint32(it.line), title)
	l.Command.Command = cmd
	if args != nil {
		l.Command.Arguments = []any{*args}
	}
	return l
}

// appendChunkArgs appends a's JSON with the field names and omissions of
// its struct tags.
func appendChunkArgs(b []byte, a *chunkArgs) []byte {
	b = append(b, `{"uri":`...)
	b = appendString(b, string(a.URI))
	b = append(b, `,"path":`...)
	b = appendString(b, a.Path)
	b = append(b, `,"startLine":`...)
	b = strconv.AppendInt(b, int64(a.StartLine), 10)
	b = append(b, `,"endLine":`...)
	b = strconv.AppendInt(b, int64(a.EndLine), 10)
	b = append(b, `,"tokens":`...)
	b = strconv.AppendInt(b, int64(a.Tokens), 10)
	b = append(b, `,"inContext":`...)
	b = strconv.AppendBool(b, a.InContext)
	if a.ToFit != 0 {
		b = append(b, `,"toFit":`...)
		b = strconv.AppendInt(b, int64(a.ToFit), 10)
	}
	if a.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendString(b, a.Reason)
	}
	if a.Score != 0 {
		// A score JSON cannot hold (NaN, ±Inf; none is computed) is left out.
		if score, err := json.Marshal(a.Score); err == nil {
			b = append(b, `,"score":`...)
			b = append(b, score...)
		}
	}
	b = append(b, `,"budgetTotal":`...)
	b = strconv.AppendInt(b, int64(a.Total), 10)
	b = append(b, `,"budgetAvailable":`...)
	b = strconv.AppendInt(b, int64(a.Available), 10)
	if a.WholeFile {
		b = append(b, `,"wholeFile":true`...)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string. A string of printable ASCII
// without quotes or backslashes, or of valid UTF-8 above it (titles carry
// "≈", "·", "✓"), is copied; any other goes through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c == 0x7f {
			return appendMarshaled(b, s)
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				return appendMarshaled(b, s)
			}
			i += size - 1
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendMarshaled appends encoding/json's encoding of s.
func appendMarshaled(b []byte, s string) []byte {
	data, _ := json.Marshal(s) // a string always encodes
	return append(b, data...)
}
