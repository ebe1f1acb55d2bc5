package conversation

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
)

// cursorVersion changes when the cursor's meaning changes; old cursors are
// then rejected instead of misread.
const cursorVersion = 1

// cursor is the decoded form of a continuation: where the next page starts
// (item index and byte offset, inside the item when a page ended in an
// oversized item) and a fingerprint of the content and tool kind it belongs
// to. It is sent as base64url of its JSON, so it is opaque to clients and
// the same position of the same content always gives the same string.
type cursor struct {
	V    int    `json:"v"`
	Item int    `json:"i"`
	Off  int    `json:"o"`
	Hash string `json:"h"`
}

// fingerprint identifies a content split by a tool kind.
func fingerprint(kind, content string) string {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(content))
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c) // a struct of ints and a string always encodes
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor parses and checks a continuation against the items of the
// content it is used with.
func decodeCursor(s, hash string, items []span) (cursor, error) {
	const fix = "pass back the continuation of the previous page unchanged, or leave cursor out to start from the first page"
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, paramErrorf("cursor", "malformed (not a continuation from acode/fitToolResult): %s", fix)
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil || c.V != cursorVersion {
		return cursor{}, paramErrorf("cursor", "malformed (not a continuation from acode/fitToolResult): %s", fix)
	}
	if c.Hash != hash {
		return cursor{}, paramErrorf("cursor", "belongs to other content or another tool kind: page this output from the start without a cursor")
	}
	if c.Item < 0 || c.Item >= len(items) || c.Off < items[c.Item].start || c.Off >= items[c.Item].end {
		return cursor{}, paramErrorf("cursor", "points outside the content: %s", fix)
	}
	return c, nil
}
