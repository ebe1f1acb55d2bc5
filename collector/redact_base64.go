package collector

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// maxBase64Run bounds the base64 text decoded at once (64 KiB).
const maxBase64Run = 64 << 10

// base64RunLongRe is a run of base64 (standard or URL alphabet) long
// enough to wrap a credential.
var base64RunLongRe = lazyRegexp(`[A-Za-z0-9+/_\-]{24,}={0,2}`)

// base64Spans finds base64 runs on a line that decode to text holding a
// secret (a .dockerconfigjson, an .env file or a service-account key
// stored as base64): the decoded text is redacted like any text, one
// envelope deeper, and the whole run goes when it held something.
func base64Spans(line string, depth int) []span {
	var spans []span
	for _, loc := range base64RunLongRe().FindAllStringIndex(line, -1) {
		if loc[0] > 0 && (isAlnum(line[loc[0]-1]) || line[loc[0]-1] == '\\') {
			continue // inside a word, or after an escape
		}
		run := line[loc[0]:loc[1]]
		if len(run) > maxBase64Run || strings.Contains(run, "REDACTED") {
			continue
		}
		text, ok := decodeBase64Text(run)
		if !ok {
			continue
		}
		if _, n := redactDepth(text, depth+1); n > 0 {
			spans = append(spans, span{loc[0], loc[1]})
		}
	}
	return spans
}

// decodeBase64Text decodes a run that is base64 of text: JSON, KEY=value
// lines or other printable text (tabs and newlines allowed, at most 2 %
// other control bytes, valid UTF-8).
func decodeBase64Text(run string) (string, bool) {
	if len(run)%4 == 1 {
		return "", false
	}
	var b []byte
	var err error
	trim := strings.TrimRight(run, "=")
	if strings.ContainsAny(trim, "-_") {
		b, err = base64.RawURLEncoding.DecodeString(trim)
	} else {
		b, err = base64.RawStdEncoding.DecodeString(trim)
	}
	if err != nil || len(b) < 12 || !utf8.Valid(b) {
		return "", false
	}
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			bad++
		}
	}
	if bad*50 > len(b) {
		return "", false
	}
	return string(b), true
}

// minWrappedRun is the shortest first line of base64 wrapped over lines
// (encoders wrap at 60, 64 or 76 characters).
const minWrappedRun = 60

// wrappedBase64 reads base64 wrapped over lines, from the line that
// starts at off (a line with a base64 marker, or the first line of a
// block such a line opens): its run ends the line, and the lines below hold nothing but a run (indentation, quotes, a trailing '\'
// aside). When the runs joined decode to text that holds a secret, it
// returns the replaced lines (the first run becomes [REDACTED], the
// others are emptied) and the offset of the line after the block.
func wrappedBase64(text string, off, depth int) ([]lineReplacement, int) {
	rs, re := tailRun(text, off)
	if re-rs < minWrappedRun {
		return nil, -1
	}
	runs := []span{{rs, re}}
	var b strings.Builder
	b.WriteString(text[rs:re])
	size := re - rs
	for l := nextLine(text, off); l >= 0 && b.Len() < maxBase64Run && (re-rs) == size && (re-rs)%4 == 0 && text[re-1] != '='; l = nextLine(text, l) {
		rs, re = wholeRun(text, l)
		if re-rs < 4 || re-rs > size {
			break
		}
		runs = append(runs, span{rs, re})
		b.WriteString(text[rs:re])
	}
	if len(runs) < 2 {
		return nil, -1
	}
	decoded, ok := decodeBase64Text(b.String())
	if !ok {
		return nil, -1
	}
	if _, n := redactDepth(decoded, depth+1); n == 0 {
		return nil, -1
	}
	repl := make([]lineReplacement, 0, len(runs))
	for i, r := range runs {
		ls, le := lineBounds(text, r.start)
		with := ""
		if i == 0 {
			with = redacted
		}
		repl = append(repl, lineReplacement{ls, le, text[ls:r.start] + with + text[r.end:le]})
	}
	last := runs[len(runs)-1]
	_, le := lineBounds(text, last.start)
	return repl, le + 1
}

// nextLine is the offset of the line after the one that holds off, or -1.
func nextLine(text string, off int) int {
	i := strings.IndexByte(text[off:], '\n')
	if i < 0 {
		return -1
	}
	return off + i + 1
}

// lineBounds are the start and end (before the newline) of the line that
// holds off.
func lineBounds(text string, off int) (int, int) {
	s := strings.LastIndexByte(text[:off], '\n') + 1
	e := strings.IndexByte(text[off:], '\n')
	if e < 0 {
		return s, len(text)
	}
	return s, off + e
}

// runEnd trims what may close a wrapped line (white space, a '\', a
// quote, a comma) off the end of text[ls:le].
func runEnd(text string, ls, le int) int {
	for le > ls && strings.IndexByte(" \t\r\\\"',", text[le-1]) >= 0 {
		le--
	}
	return le
}

// tailRun is the base64 run that ends the line at off (after runEnd),
// when it starts the line's value (after white space, a quote, '=' or ':').
func tailRun(text string, off int) (int, int) {
	ls, le := lineBounds(text, off)
	le = runEnd(text, ls, le)
	s := le
	for k := 0; k < 2 && s > ls && text[s-1] == '='; k++ {
		s-- // padding
	}
	for s > ls && text[s-1] != '=' && isBase64Byte(text[s-1]) {
		s--
	}
	if s > ls && strings.IndexByte(" \t\"'=:", text[s-1]) < 0 {
		return 0, 0
	}
	return s, le
}

// wholeRun is the run of the line at off when the line holds nothing else
// (white space, quotes, a trailing '\' aside), else an empty span.
func wholeRun(text string, off int) (int, int) {
	ls, le := lineBounds(text, off)
	le = runEnd(text, ls, le)
	s := ls
	for s < le && strings.IndexByte(" \t\"'", text[s]) >= 0 {
		s++
	}
	for i := s; i < le; i++ {
		if !isBase64Byte(text[i]) {
			return 0, 0
		}
	}
	return s, le
}

// isBase64Byte reports a byte of base64 (standard or URL alphabet, '='
// padding).
func isBase64Byte(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '=' || c == '_' || c == '-'
}
