package collector

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxBase64Run bounds the base64 text decoded at once (64 KiB).
const maxBase64Run = 64 << 10

// base64RunLongRe is a run of base64 (standard or URL alphabet) long
// enough to wrap a credential.
var base64RunLongRe = regexp.MustCompile(`[A-Za-z0-9+/_\-]{24,}={0,2}`)

// base64Spans finds base64 runs on a line that decode to text holding a
// secret (a .dockerconfigjson, an .env file or a service-account key
// stored as base64): the decoded text is redacted like any text, one
// envelope deeper, and the whole run goes when it held something.
func base64Spans(line string, depth int) []span {
	var spans []span
	for _, loc := range base64RunLongRe.FindAllStringIndex(line, -1) {
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
