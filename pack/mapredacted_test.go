package pack

import (
	"crypto/sha256"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// keyedRed is a RedactedFacts whose hashes are keyed by a test key (the
// index keys them with the per-user secret); it stores nothing.
type keyedRed struct{ key string }

func (keyedRed) PutMapRedacted(collector.FileRef, string, []byte)     {}
func (keyedRed) MapRedacted(collector.FileRef, string) ([]byte, bool) { return nil, false }
func (k keyedRed) MapWordHash(w string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(k.key + "\x00" + w))
	return h.Sum64()
}
func (k keyedRed) MapMark(m string) string {
	s := sha256.Sum256([]byte(k.key + "\x00" + m))
	return string(s[:markLen])
}

// TestMapFromRedactedFactsEqualsFromText: a map whose files' facts come
// partly from the index's facts of redacted files (names and identifiers
// as keyed hashes, decoded from their encoding) ranks the files exactly
// as the map of their texts; the encoding holds no word of the text, and
// the keyed marks compare as the marks do.
func TestMapFromRedactedFactsEqualsFromText(t *testing.T) {
	texts := map[string]string{
		"server.go": "package http\n\nfunc Serve(l Listener) error { return NewConn(l).Loop() }\n",
		"conn.go":   "package http\n\ntype Conn struct{}\n\nfunc NewConn(l Listener) *Conn { return &Conn{} }\n\nfunc (c *Conn) Loop() error { return nil }\n",
		"listen.go": "package http\n\ntype Listener interface{ Accept() (*Conn, error) }\n",
		"main.go":   "package main\n\nfunc main() { http.Serve(listen()) }\n",
	}
	red := keyedRed{key: "test key"}
	for _, hashed := range [][]string{{"conn.go"}, {"conn.go", "main.go"}, {"conn.go", "listen.go", "main.go", "server.go"}} {
		fromText, fromFacts := []mapFile{}, []mapFile{}
		tab := newWordTab()
		for _, path := range []string{"conn.go", "listen.go", "main.go", "server.go"} {
			chunks, err := chunker.Split(t.Context(), path, []byte(texts[path]), func(s string) int { return len(s) / 4 }, chunker.Options{MaxTokens: 400, PreferStructural: true})
			if err != nil || len(chunks) == 0 {
				t.Fatalf("split %s: %v", path, err)
			}
			var names, parts []string
			for _, c := range chunks {
				if c.Name != "" {
					names = append(names, c.Name)
				}
				parts = append(parts, c.Content)
			}
			fromText = append(fromText, mapFile{path: path, names: names, parts: parts})
			facts := factsOf(chunks)
			if !strings.Contains(strings.Join(hashed, " "), path) {
				var ff fileFacts
				if !decodeFacts(encodeFacts(facts), &ff, int64(len(texts[path]))) {
					t.Fatalf("%s: facts refused", path)
				}
				trimIdents(&ff, mapIdentCap, tab)
				fromFacts = append(fromFacts, mapFile{path: path, names: names, facts: &ff})
				continue
			}
			body, ok := encodeRedacted(facts, 2, len(texts[path]), red)
			if !ok {
				t.Fatalf("%s: not encoded", path)
			}
			for _, w := range []string{"Conn", "Listener", "Serve", "listen", "main", "http", "Loop"} {
				if strings.Contains(string(body), w) {
					t.Errorf("%s: the encoding holds %q", path, w)
				}
			}
			tab.enableHash(red.MapWordHash)
			ff, n, ok := decodeRedacted(body, int64(len(texts[path])), red, tab)
			if !ok || n != 2 {
				t.Fatalf("%s: facts of a redacted file refused (%v, %d redactions)", path, ok, n)
			}
			for i, c := range chunks {
				if got := ff.chunks[i]; got.StartByte != c.StartByte || got.EndLine != c.EndLine || got.Tokens != c.Tokens || got.Kind != c.Kind ||
					got.Name != hashedName(c.Name, red.MapWordHash) || ff.marks[i] != red.MapMark(facts.mark(i)) {
					t.Fatalf("%s: chunk %d decoded as %+v, want %+v", path, i, got, c)
				}
			}
			if !ff.matches(chunks) {
				t.Fatalf("%s: the decoded facts do not match the chunks they were taken of", path)
			}
			var hnames []string
			for _, c := range ff.chunks {
				if c.Name != "" {
					hnames = append(hnames, c.Name)
				}
			}
			fromFacts = append(fromFacts, mapFile{path: path, names: hnames, facts: ff})
		}
		a, b := newRepoMapOf(fromText, nil), newRepoMapOf(fromFacts, tab)
		if fmt.Sprint(a.order, a.central) != fmt.Sprint(b.order, b.central) {
			t.Fatalf("%v hashed: map from facts %v %v, from texts %v %v", hashed, b.order, b.central, a.order, a.central)
		}
	}
}

// TestDecodeRedactedRefusesMalformed: a body cut short, or one whose
// chunks do not tile the text it gives, is refused.
func TestDecodeRedactedRefusesMalformed(t *testing.T) {
	text := "package p\n\nfunc Alpha() int { return Beta() }\n\nfunc Beta() int { return 1 }\n"
	chunks, err := chunker.Split(t.Context(), "p.go", []byte(text), func(s string) int { return len(s) / 4 }, chunker.Options{MaxTokens: 8, PreferStructural: true})
	if err != nil {
		t.Fatal(err)
	}
	red := keyedRed{key: "k"}
	body, ok := encodeRedacted(factsOf(chunks), 1, len(text), red)
	if !ok {
		t.Fatal("not encoded")
	}
	if _, _, ok := decodeRedacted(body, int64(len(text)), red, newWordTab()); !ok {
		t.Fatal("a well-formed body refused")
	}
	for i := 0; i < len(body); i++ {
		if _, _, ok := decodeRedacted(body[:i], int64(len(text)), red, nil); ok {
			t.Fatalf("a body cut at %d of %d bytes decoded", i, len(body))
		}
	}
	long, _ := encodeRedacted(factsOf(chunks), 1, len(text)+5, red)
	if _, _, ok := decodeRedacted(long, int64(len(text)), red, nil); ok {
		t.Fatal("chunks that do not tile the text's size decoded")
	}
	chunks[0].Kind = "Alpha Beta"
	bad := factsOf(chunks)
	if _, ok := encodeRedacted(bad, 1, len(text), red); ok {
		t.Fatal("a kind that is not a chunker's name was encoded")
	}
}
