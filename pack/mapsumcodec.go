package pack

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"io"
	"math"
	"slices"
)

// A summary's bytes: version 2, the scan limit, the word table (keyed
// hashes, then the ids in order of hash), then the count of files, of
// definitions and of uses, then per file its path hash and stamp, its
// chunks, tokens, redactions and reach, its definitions (count, ids) and
// its uses (count, then id and offset delta each); then each file's
// centrality (8 bytes each, in the files' order). The centralities come
// last so that a map writes the files' records, and lets go of the
// summary it read, before its graph is made (sumState.repoMap).
//
// A summary read is kept as these bytes (a 100K-file tree's are 26 MB;
// decoded into arrays they were 52 MB): each entry knows where its
// definitions and uses are encoded (raw), decoded when a map needs them
// (sumWordsOf); a summary written again copies the encoding of each entry
// it read (its words are the same ids of the same table) and is written
// as it is encoded, never whole in memory.

// sumEnc is a summary to write: the scan limit, the word table, the ids
// of its first len(perm) words in order of hash (the summary read), the
// entries, the centrality of each, and the summary read (the body its
// entries' raw encodings are in; nil: none).
type sumEnc struct {
	limit   int
	words   []uint64
	perm    []uint32
	ents    []*sumEntry
	central []float64
	old     *mapSum
}

// size is the length of the encoding.
func (se *sumEnc) size() int {
	n := 1 + 8*len(se.ents) + uvlen(uint64(se.limit)) + uvlen(uint64(len(se.words))) + 12*len(se.words)
	defs, uses := se.counts()
	n += uvlen(uint64(len(se.ents))) + uvlen(uint64(defs)) + uvlen(uint64(uses))
	for _, e := range se.ents {
		n += 16 + uvlen(uint64(e.chunks)) + uvlen(uint64(e.tokens)) + uvlen(uint64(e.redactions)) + uvlen(uint64(e.reach))
		if e.words == nil {
			n += int(e.rawEnd - e.raw)
			continue
		}
		w := e.words
		n += uvlen(uint64(len(w.defs))) + uvlen(uint64(len(w.uses)))
		for _, id := range w.defs {
			n += uvlen(uint64(id))
		}
		prev := int32(0)
		for j, id := range w.uses {
			n += uvlen(uint64(id)) + uvlen(uint64(w.at[j]-prev))
			prev = w.at[j]
		}
	}
	return n
}

// counts are the definitions and uses of all entries.
func (se *sumEnc) counts() (defs, uses int) {
	for _, e := range se.ents {
		if e.words != nil {
			defs, uses = defs+len(e.words.defs), uses+len(e.words.uses)
		} else {
			defs, uses = defs+int(e.nd), uses+int(e.nu)
		}
	}
	return defs, uses
}

// uvlen is the length of x as a uvarint.
func uvlen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// writeTo writes the encoding to w (through a buffer).
func (se *sumEnc) writeTo(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	se.writeFiles(bw)
	se.writeCentral(bw)
	return bw.Flush()
}

// writeCentral writes the files' centralities to bw.
func (se *sumEnc) writeCentral(bw *bufio.Writer) {
	var b [8]byte
	for _, c := range se.central {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(c))
		bw.Write(b[:])
	}
}

// writeFiles writes the encoding up to the centralities to bw.
func (se *sumEnc) writeFiles(bw *bufio.Writer) {
	var b []byte
	b = append(b, sumCodecVersion)
	b = binary.AppendUvarint(b, uint64(se.limit))
	b = binary.AppendUvarint(b, uint64(len(se.words)))
	bw.Write(b)
	for _, h := range se.words {
		bw.Write(binary.LittleEndian.AppendUint64(b[:0], h))
	}
	for _, id := range sumPerm(se.words, se.perm) {
		bw.Write(binary.LittleEndian.AppendUint32(b[:0], id))
	}
	defs, uses := se.counts()
	b = binary.AppendUvarint(b[:0], uint64(len(se.ents)))
	b = binary.AppendUvarint(b, uint64(defs))
	b = binary.AppendUvarint(b, uint64(uses))
	bw.Write(b)
	for _, e := range se.ents {
		b = appendEntryHead(b[:0], e)
		if e.words == nil {
			bw.Write(b)
			bw.Write(se.old.body[e.raw:e.rawEnd])
			continue
		}
		bw.Write(appendWords(b, e.words))
	}
}

// sumCodecVersion is the first byte of a summary's encoding.
const sumCodecVersion = 2

// encodeSum is se's encoding in one buffer (tests; a map writes it
// through writeTo).
func encodeSum(se *sumEnc) []byte {
	b := make([]byte, 0, se.size())
	w := bytesWriter{&b}
	se.writeTo(w)
	return b
}

// bytesWriter appends what is written to a slice.
type bytesWriter struct{ b *[]byte }

func (w bytesWriter) Write(p []byte) (int, error) {
	*w.b = append(*w.b, p...)
	return len(p), nil
}

// appendEntryHead appends the fixed part of one file's record to b.
func appendEntryHead(b []byte, e *sumEntry) []byte {
	b = binary.LittleEndian.AppendUint64(b, e.path)
	b = binary.LittleEndian.AppendUint64(b, e.stamp)
	for _, v := range []int{e.chunks, e.tokens, e.redactions, e.reach} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	return b
}

// appendWords appends the definitions and uses of w as a record holds
// them.
func appendWords(b []byte, w *sumWords) []byte {
	b = binary.AppendUvarint(b, uint64(len(w.defs)))
	for _, id := range w.defs {
		b = binary.AppendUvarint(b, uint64(id))
	}
	b = binary.AppendUvarint(b, uint64(len(w.uses)))
	prev := int32(0)
	for j, id := range w.uses {
		b = binary.AppendUvarint(b, uint64(id))
		b = binary.AppendUvarint(b, uint64(w.at[j]-prev))
		prev = w.at[j]
	}
	return b
}

// sumPerm is the ids of words in order of hash: perm (which orders the
// first len(perm) of them) merged with the others sorted.
func sumPerm(words []uint64, perm []uint32) []uint32 {
	byHash := func(a, b uint32) int { return cmp.Compare(words[a], words[b]) }
	add := make([]uint32, 0, len(words)-len(perm))
	for id := len(perm); id < len(words); id++ {
		add = append(add, uint32(id))
	}
	slices.SortFunc(add, byHash)
	out := make([]uint32, 0, len(words))
	i, j := 0, 0
	for i < len(perm) && j < len(add) {
		if byHash(perm[i], add[j]) <= 0 {
			out = append(out, perm[i])
			i++
		} else {
			out = append(out, add[j])
			j++
		}
	}
	out = append(out, perm[i:]...)
	return append(out, add[j:]...)
}

// sumWordRoom is the room left after a summary's word table for words
// a map adds.
const sumWordRoom = 4096

// sumReader reads a summary's bytes (recReader, and its entries).
type sumReader struct{ recReader }

// decodeSum decodes a summary's bytes, keeping them (b is the
// summary's from then on); nil when they do not hold a summary (a count
// or id out of bounds, a table not in order of distinct hashes, a file
// without chunks, bytes left over).
func decodeSum(b []byte) *mapSum {
	if len(b) == 0 || b[0] != sumCodecVersion {
		return nil
	}
	r := &sumReader{recReader{b: b[1:], ok: true}}
	const bound = math.MaxInt32
	s := &mapSum{limit: r.uvarint(bound), body: b}
	if !s.decodeWords(r) {
		return nil
	}
	nf := r.uvarint(uint64(len(r.b) / 30))
	if !r.ok || len(r.b) < 8*nf {
		return nil
	}
	central := r.b[len(r.b)-8*nf:] // the centralities, after the records
	r.b = r.b[:len(r.b)-8*nf]
	nd := r.uvarint(uint64(len(r.b)))
	nu := r.uvarint(uint64(len(r.b) / 2))
	if !r.ok || !s.decodeFiles(r, nf, nd, nu) || len(r.b) != 0 {
		return nil
	}
	for i := range s.files {
		s.files[i].central = math.Float64frombits(binary.LittleEndian.Uint64(central[8*i:]))
	}
	return s
}

// decodeWords decodes the word table of r into s: the hashes, then
// their ids in order of hash (distinct, rising); false when malformed.
func (s *mapSum) decodeWords(r *sumReader) bool {
	nw := r.uvarint(uint64(len(r.b) / 12))
	if !r.ok || len(r.b) < 12*nw {
		return false
	}
	// Room for the words a map adds (sumState.wordID): appended past
	// the table's end, where the summary does not look, with no copy of
	// the table (4 MB for a 100K-file tree) until it is full.
	s.words = make([]uint64, nw, nw+sumWordRoom)
	for i := range s.words {
		s.words[i] = r.u64()
	}
	s.perm = make([]uint32, nw)
	for i := range s.perm {
		s.perm[i] = binary.LittleEndian.Uint32(r.b[4*i:])
		if int(s.perm[i]) >= nw || i > 0 && s.words[s.perm[i-1]] >= s.words[s.perm[i]] {
			return false
		}
	}
	r.b = r.b[4*nw:]
	return true
}

// entry decodes the record of one file into e, checking its definitions
// and uses (ids below nw words, offsets within bounds) and noting where
// they are in the body (whose records, ending at end, r reads); false
// when malformed.
func (r *sumReader) entry(e *sumEntry, end int, nw uint64) bool {
	const bound = math.MaxInt32
	e.path, e.stamp = r.u64(), r.u64()
	e.chunks, e.tokens, e.redactions, e.reach = r.uvarint(bound), r.uvarint(bound), r.uvarint(bound), r.uvarint(bound)
	e.raw = uint32(end - len(r.b))
	fd := r.uvarint(uint64(len(r.b)))
	for k := 0; k < fd && r.ok; k++ {
		r.uvarint(nw - 1)
	}
	fu := r.uvarint(uint64(len(r.b) / 2))
	at := 0
	for k := 0; k < fu && r.ok; k++ {
		r.uvarint(nw - 1)
		at += r.uvarint(bound)
	}
	e.rawEnd = uint32(end - len(r.b))
	e.nd, e.nu = uint32(fd), uint32(fu)
	return r.ok && e.chunks > 0 && at <= bound && (nw > 0 || fd+fu == 0)
}

// decodeFiles decodes the nf file records of r into s, checking their nd
// definitions and nu uses in all (the counts the header gives), and
// indexes them by stamp.
func (s *mapSum) decodeFiles(r *sumReader, nf, nd, nu int) bool {
	if len(s.body) > math.MaxUint32 {
		return false // beyond maxSumBody
	}
	nw := uint64(len(s.words))
	s.files = make([]sumEntry, nf)
	s.byStamp = make(map[uint64]int32, nf)
	defs, uses := 0, 0
	for i := range s.files {
		e := &s.files[i]
		if !r.entry(e, len(s.body)-8*nf, nw) {
			return false
		}
		if defs, uses = defs+int(e.nd), uses+int(e.nu); defs > nd || uses > nu {
			return false // more than the header said
		}
		if _, dup := s.byStamp[e.stamp]; e.stamp != 0 && !dup {
			s.byStamp[e.stamp] = int32(i)
		}
	}
	return defs == nd && uses == nu
}

// sumWordsOf returns e's definitions and uses (with their offsets): its
// own when derived, else decoded from o's body into buf (its arrays
// reused); the result is valid until buf is used again.
func (o *mapSum) sumWordsOf(e *sumEntry, buf *sumWords) *sumWords {
	if e.words != nil {
		return e.words
	}
	b := o.body[e.raw:e.rawEnd]
	buf.defs, buf.uses, buf.at = buf.defs[:0], buf.uses[:0], buf.at[:0]
	next := func() int {
		v, n := binary.Uvarint(b)
		b = b[n:]
		return int(v)
	}
	for k := next(); k > 0; k-- {
		buf.defs = append(buf.defs, uint32(next()))
	}
	at := 0
	for k := next(); k > 0; k-- {
		buf.uses = append(buf.uses, uint32(next()))
		at += next()
		buf.at = append(buf.at, int32(at))
	}
	return buf
}
