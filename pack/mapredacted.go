package pack

import (
	"encoding/binary"
	"strings"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// RedactedFacts is what a [FileIndex] may also keep for a map (package
// index implements it, docs/index.md "Map facts of redacted files"): the
// facts of a file whose text redaction touches — which the index keeps
// nothing else of — as numbers and keyed hashes only, under the keyed
// hash of its path and its stat, so that a warm map need not read, redact
// and cut it again.
type RedactedFacts interface {
	// PutMapRedacted stores body for f (its stat) under key.
	PutMapRedacted(f collector.FileRef, key string, body []byte)
	// MapRedacted returns the body stored for f at its very stat under
	// key; false otherwise.
	MapRedacted(f collector.FileRef, key string) ([]byte, bool)
	// MapWordHash is the keyed 64-bit hash of an identifier.
	MapWordHash(w string) uint64
	// MapMark is the keyed form of a hash mark (markLen bytes): equal
	// marks give equal keyed marks.
	MapMark(m string) string
}

// hashedNamePrefix starts the symbol name of a chunk of a redacted file
// answered from the index: then 8 bytes per word of the name (each at
// least graphMinName long, in order), the keyed hash of each. The name is
// used only by the map's graph (as the name's words); any output of the
// chunk reads the file first (leanRender).
const hashedNamePrefix = "\x00#"

// hashKey is the word of a map's graph that stands for the keyed hash h.
func hashKey(h uint64) string {
	return hashedNamePrefix + string(binary.LittleEndian.AppendUint64(nil, h))
}

// hashedName is the hashed form of a chunk's symbol name: "" for none.
func hashedName(name string, hash func(string) uint64) string {
	if name == "" {
		return ""
	}
	b := []byte(hashedNamePrefix)
	identifiers(name, func(w string) {
		if len(w) >= graphMinName {
			b = binary.LittleEndian.AppendUint64(b, hash(w))
		}
	})
	return string(b)
}

// nameWords calls fn with each word of a chunk's symbol name a map's
// graph follows (at least graphMinName long), as canon makes it; a hashed
// name (hashedName) gives its hashes as hashKey words.
func nameWords(name string, canon func(string) string, fn func(string)) {
	if rest, ok := strings.CutPrefix(name, hashedNamePrefix); ok {
		for ; len(rest) >= 8; rest = rest[8:] {
			fn(hashedNamePrefix + rest[:8])
		}
		return
	}
	identifiers(name, func(w string) {
		if len(w) >= graphMinName {
			fn(canon(w))
		}
	})
}

// redactedMark starts what redaction puts in place of a secret (as the
// index tests a text it refuses to store).
const redactedMark = "[REDACTED"

// maxRedactedGrowth bounds how many times its raw size a redacted text
// may be (a secret of one byte becomes "[REDACTED]").
const maxRedactedGrowth = 16

// maxKindLen bounds a chunk kind stored for a redacted file.
const maxKindLen = 32

// plainKind reports whether a chunk kind is one of the chunker's names
// (lower-case letters and underscores): never a word of the text.
func plainKind(k string) bool {
	if len(k) > maxKindLen {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// encodeRedacted packs the facts f of a redacted text (factsOf) of size
// bytes with its redaction count as numbers and keyed hashes only:
// uvarint redactions, uvarint size, uvarint n; per chunk uvarint bytes, uvarint lines-1, uvarint tokens,
// uvarint len(kind), kind, a split byte, uvarint 1+name words (0: no
// name) and 8 bytes per word, the keyed mark; uvarint m, then per
// identifier uvarint offset delta and 8 bytes. false when a kind is not
// plain.
func encodeRedacted(f *fileFacts, redactions, size int, red RedactedFacts) ([]byte, bool) {
	b := binary.AppendUvarint(nil, uint64(redactions))
	b = binary.AppendUvarint(b, uint64(size))
	b = binary.AppendUvarint(b, uint64(f.count()))
	for i, c := range f.all() {
		if !plainKind(c.Kind) {
			return nil, false
		}
		b = binary.AppendUvarint(b, uint64(c.EndByte-c.StartByte))
		b = binary.AppendUvarint(b, uint64(c.EndLine-c.StartLine))
		b = binary.AppendUvarint(b, uint64(c.Tokens))
		b = binary.AppendUvarint(b, uint64(len(c.Kind)))
		b = append(b, c.Kind...)
		b = append(b, boolByte(f.splits(i)))
		if c.Name == "" {
			b = append(b, 0)
		} else {
			hn := hashedName(c.Name, red.MapWordHash)[len(hashedNamePrefix):]
			b = binary.AppendUvarint(b, uint64(1+len(hn)/8))
			b = append(b, hn...)
		}
		b = append(b, red.MapMark(f.mark(i))...)
	}
	b = binary.AppendUvarint(b, uint64(len(f.ids)))
	prev := 0
	for _, id := range f.ids {
		b = binary.AppendUvarint(b, uint64(id.at-prev))
		b = binary.LittleEndian.AppendUint64(b, red.MapWordHash(id.w))
		prev = id.at
	}
	return b, true
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// redReader reads what encodeRedacted wrote; ok turns false at the first
// malformed field and stays so.
type redReader struct {
	s   string
	pos int
	ok  bool
}

func (r *redReader) uvarint(bound uint64) int {
	if !r.ok {
		return 0
	}
	v, pos, ok := uvarintAt(r.s, r.pos, bound)
	r.pos, r.ok = pos, ok
	return v
}

func (r *redReader) bytes(n int) string {
	if !r.ok || n < 0 || len(r.s)-r.pos < n {
		r.ok = false
		return ""
	}
	r.pos += n
	return r.s[r.pos-n : r.pos]
}

// decodeRedacted unpacks body (encodeRedacted) of a file of raw bytes
// (its stat's size; the redacted text's size is the body's, within
// maxRedactedGrowth of it) into facts whose chunks carry hashed names and whose marks are keyed
// (f.red), the identifiers interned in tab by their hashes (nil: not
// kept); the redaction count; false when malformed or failing
// factsValid's checks or offsets rising within the file.
func decodeRedacted(body []byte, raw int64, red RedactedFacts, tab *wordTab) (*fileFacts, int, bool) {
	r := &redReader{s: string(body), ok: true}
	redactions := r.uvarint(uint64(raw))
	size := int64(r.uvarint(uint64(raw)*maxRedactedGrowth + 64))
	n := r.uvarint(uint64(len(body)))
	if !r.ok || n > len(body) {
		return nil, 0, false
	}
	if tab != nil {
		tab.enableHash(red.MapWordHash)
	}
	f := &fileFacts{chunks: make([]chunker.Chunk, n), marks: make([]string, n), split: make([]bool, n), red: red}
	end, line := 0, 1
	for i := 0; i < n && r.ok; i++ {
		c := chunker.Chunk{StartByte: end, StartLine: line}
		c.EndByte = end + r.uvarint(uint64(size))
		c.EndLine = line + r.uvarint(uint64(size))
		c.Tokens = r.uvarint(uint64(size) + 1)
		c.Kind = r.bytes(r.uvarint(maxKindLen))
		f.split[i] = r.bytes(1) == "\x01"
		if k := r.uvarint(uint64(len(body))); k > 0 {
			c.Name = hashedNamePrefix + r.bytes(8*(k-1))
			for h := c.Name[len(hashedNamePrefix):]; tab != nil && len(h) >= 8; h = h[8:] {
				tab.hid(binary.LittleEndian.Uint64([]byte(h[:8]))) // a name's words are the graph's too
			}
		}
		f.marks[i] = r.bytes(markLen)
		f.chunks[i] = c
		end, line = c.EndByte, c.EndLine+1
	}
	if !r.ok || !decodeRedactedIdents(r, f, size, tab) || !factsValid(f, size) {
		return nil, 0, false
	}
	return f, redactions, true
}

// decodeRedactedIdents reads the identifiers of a redacted file's facts
// into f.words and f.wordsAt (interned in tab by their hashes; left empty
// without a tab).
func decodeRedactedIdents(r *redReader, f *fileFacts, size int64, tab *wordTab) bool {
	m := r.uvarint(uint64(len(r.s)))
	f.words, f.wordsAt = []uint32{}, []int32{}
	at, prev := 0, -1
	for k := 0; k < m && r.ok; k++ {
		at += r.uvarint(uint64(max(size, 0)))
		h := r.bytes(8)
		if !r.ok || at <= prev || int64(at) >= size {
			return false
		}
		prev = at
		if tab != nil {
			f.words = append(f.words, tab.hid(binary.LittleEndian.Uint64([]byte(h))))
			f.wordsAt = append(f.wordsAt, int32(at))
		}
	}
	return r.ok && r.pos == len(r.s)
}

// putRedacted stores the facts f of the redacted text of s (its stat)
// as numbers and keyed hashes (encodeRedacted); nothing when a kind is
// not plain.
func putRedacted(red RedactedFacts, s source, f *fileFacts, ikey string) {
	if body, ok := encodeRedacted(f, s.Redactions, len(s.Content), red); ok {
		red.PutMapRedacted(*s.ref, ikey, body)
	}
}

// redactedPhantom returns the facts the index keeps of f, a file whose
// text redaction touches, as its stat vouches for them, with its
// redaction count; false on a miss. The words' hashes are interned in
// lean.words (which then interns every word by its hash too), and the
// map's marks become keyed (lean.keyed).
func (lean *leanMap) redactedPhantom(f *collector.FileRef, ikey string) (*fileFacts, int, bool) {
	if lean.red == nil {
		return nil, 0, false
	}
	body, ok := lean.red.MapRedacted(*f, ikey)
	if !ok {
		return nil, 0, false
	}
	facts, n, ok := decodeRedacted(body, f.Info.Size(), lean.red, lean.words)
	if !ok {
		return nil, 0, false
	}
	lean.keyed = true
	return facts, n, true
}

// markOf is the hash mark of chunk j of facts as this map compares marks:
// keyed once the map has facts of a redacted file (whose marks are
// stored keyed only).
func (p *pipeline) markOf(f *fileFacts, j int) string {
	if p.lean == nil || !p.lean.keyed || f.red != nil {
		return f.mark(j)
	}
	return p.lean.red.MapMark(f.mark(j))
}

// textMark is the hash mark of a text at hand as markOf compares it.
func (p *pipeline) textMark(h [32]byte) string {
	m := string(h[:markLen])
	if p.lean != nil && p.lean.keyed {
		return p.lean.red.MapMark(m)
	}
	return m
}
