package pack

import (
	"encoding/binary"
	"iter"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// The facts a map's walk holds of each file it read and let go of
// (factsOf) are packed in one string per file (issue 24: a first map of a
// 100K-file tree held them as a chunker.Chunk, a mark string and a split
// flag per chunk, ≈ 160 MB of its peak; packed they are ≈ 35 bytes and
// the name a chunk). Facts decoded from the index keep the index's chunks
// as they come (a warm map decodes them without a copy): fileFacts'
// accessors (count, mark, splits, all, chunkList) read either form.
//
// packChunks' layout: uvarint n; n hash marks of markLen bytes; n flag
// bytes (bit 0: XML splits the chunk's CDATA section, bit 1 TopLevel, bit
// 2 Oversize, bits 3-7 the chunk's kind as 1 + its index in factKinds, 0:
// written out); then per chunk, the kind written out when it is not in
// factKinds (uvarint length, bytes), varints of its start line less the
// line after the chunk before, its lines less one, its start byte less the
// end of the chunk before, its bytes, its tokens, then uvarint length and
// bytes of its name.

// factKinds are the chunk kinds packChunks writes in a chunk's flag byte
// (at most 31).
var factKinds = [...]string{
	"lines", "function", "method", "type", "class", "imports", "package", "section", "module", "field",
	"enum", "struct", "interface", "variable", "const", "var", "constructor", "macro", "preamble", "trait",
	"impl", "property", "static", "test", "export", "call",
}

// factKindCode is the code of kind in a flag byte: 1 + its index in
// factKinds, 0 when it is written out.
func factKindCode(kind string) byte {
	for i, k := range factKinds {
		if k == kind {
			return byte(i + 1)
		}
	}
	return 0
}

const (
	packSplit    = 1 << 0
	packTop      = 1 << 1
	packOversize = 1 << 2
	packKindAt   = 3
)

// packChunks packs chunks (their Content at hand) for fileFacts.packed:
// each chunk's hash mark and split flag taken of its Content, the rest
// of the chunk but its Content.
func packChunks(chunks []chunker.Chunk) string {
	n := len(chunks)
	b := binary.AppendUvarint(make([]byte, 0, 2+n*(markLen+1+8)), uint64(n))
	for _, c := range chunks {
		h := budget.NormalizedHash(c.Content)
		b = append(b, h[:markLen]...)
	}
	for _, c := range chunks {
		flags := factKindCode(c.Kind) << packKindAt
		if needsCDATASplit(c.Content) {
			flags |= packSplit
		}
		if c.TopLevel {
			flags |= packTop
		}
		if c.Oversize {
			flags |= packOversize
		}
		b = append(b, flags)
	}
	endLine, endByte := 0, 0
	for _, c := range chunks {
		if factKindCode(c.Kind) == 0 {
			b = binary.AppendUvarint(b, uint64(len(c.Kind)))
			b = append(b, c.Kind...)
		}
		b = binary.AppendVarint(b, int64(c.StartLine-endLine-1))
		b = binary.AppendVarint(b, int64(c.EndLine-c.StartLine))
		b = binary.AppendVarint(b, int64(c.StartByte-endByte))
		b = binary.AppendVarint(b, int64(c.EndByte-c.StartByte))
		b = binary.AppendVarint(b, int64(c.Tokens))
		b = binary.AppendUvarint(b, uint64(len(c.Name)))
		b = append(b, c.Name...)
		endLine, endByte = c.EndLine, c.EndByte
	}
	return string(b)
}

// packedHead returns the number of chunks of a packChunks string and
// where their marks start.
func packedHead(s string) (n, at int) {
	v, at := packUvarint(s, 0)
	return int(v), at
}

// packUvarint reads the uvarint of s at pos: its value and the position
// after it.
func packUvarint(s string, pos int) (uint64, int) {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		c := s[pos]
		pos++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, pos
		}
	}
}

// count is the number of chunks of f's facts (0 for nil facts and for
// stub facts, mapsum.go).
func (f *fileFacts) count() int {
	if f == nil {
		return 0
	}
	if f.packed != "" {
		n, _ := packedHead(f.packed)
		return n
	}
	return len(f.chunks)
}

// packedCount is the number of chunks f holds packed: those a pack's cut
// does not hold (chunksOf makes them).
func (f *fileFacts) packedCount() int {
	if f == nil || f.packed == "" {
		return 0
	}
	return f.count()
}

// mark is the hash mark of chunk j.
func (f *fileFacts) mark(j int) string {
	if f.packed == "" {
		return f.marks[j]
	}
	_, at := packedHead(f.packed)
	at += j * markLen
	return f.packed[at : at+markLen]
}

// splits reports whether XML splits chunk j's CDATA section.
func (f *fileFacts) splits(j int) bool {
	if f.packed == "" {
		return f.split[j]
	}
	n, at := packedHead(f.packed)
	return f.packed[at+n*markLen+j]&packSplit != 0
}

// all yields f's chunks (without their text) with their index.
func (f *fileFacts) all() iter.Seq2[int, chunker.Chunk] {
	return func(yield func(int, chunker.Chunk) bool) {
		if f.packed == "" {
			for i, c := range f.chunks {
				if !yield(i, c) {
					return
				}
			}
			return
		}
		r := packReader{s: f.packed}
		n, at := packedHead(f.packed)
		flags := at + n*markLen
		r.pos = flags + n
		for i := range n {
			if !yield(i, r.chunk(f.packed[flags+i])) {
				return
			}
		}
	}
}

// chunkList returns f's chunks (without their text): the index's own, or
// made of the packed facts (a new slice each call).
func (f *fileFacts) chunkList() []chunker.Chunk {
	if f.packed == "" {
		return f.chunks
	}
	out := make([]chunker.Chunk, 0, f.count())
	for _, c := range f.all() {
		out = append(out, c)
	}
	return out
}

// chunksOf is the cut of source s: cut (cutAll's), or for a file whose
// facts are packed, its chunks made of them.
func chunksOf(s source, cut []chunker.Chunk) []chunker.Chunk {
	if cut == nil && s.facts.packedCount() > 0 {
		return s.facts.chunkList()
	}
	return cut
}

// packReader reads the chunks of a string packChunks made, which no one
// but packChunks writes (no check).
type packReader struct {
	s                string
	pos              int
	endLine, endByte int
}

// chunk reads the next chunk, whose flag byte is flags.
func (r *packReader) chunk(flags byte) chunker.Chunk {
	var c chunker.Chunk
	if k := flags >> packKindAt; k > 0 {
		c.Kind = factKinds[k-1]
	} else {
		c.Kind = r.str()
	}
	c.StartLine = r.endLine + 1 + r.varint()
	c.EndLine = c.StartLine + r.varint()
	c.StartByte = r.endByte + r.varint()
	c.EndByte = c.StartByte + r.varint()
	c.Tokens = r.varint()
	c.Name = r.str()
	c.TopLevel, c.Oversize = flags&packTop != 0, flags&packOversize != 0
	r.endLine, r.endByte = c.EndLine, c.EndByte
	return c
}

// varint reads a varint (binary.AppendVarint's zig-zag).
func (r *packReader) varint() int {
	u, pos := packUvarint(r.s, r.pos)
	r.pos = pos
	return int(int64(u>>1) ^ -int64(u&1))
}

// str reads a uvarint length and that many bytes (a part of r.s).
func (r *packReader) str() string {
	n, pos := packUvarint(r.s, r.pos)
	r.pos = pos + int(n)
	return r.s[pos:r.pos]
}
