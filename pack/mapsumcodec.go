package pack

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// encodeSum is a summary's bytes: version 1, the scan limit, the word
// table (keyed hashes, then the ids in order of hash), then per file its
// count of files, of definitions and of uses, then per file its
// path hash, stamp and centrality, its chunks, tokens, redactions and
// reach, its definitions (ids) and its uses (id, offset delta). perm, the
// ids of words[:len(perm)] in order of hash (the summary read), is merged
// with the ids added since; central[i] is ents[i]'s centrality.
func encodeSum(limit int, words []uint64, perm []uint32, ents []*sumEntry, central []float64) []byte {
	size := 16 + 12*len(words)
	for i := range ents {
		size += 40 + 3*len(ents[i].defs) + 5*len(ents[i].uses)
	}
	b := make([]byte, 0, size)
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(limit))
	b = binary.AppendUvarint(b, uint64(len(words)))
	for _, h := range words {
		b = binary.LittleEndian.AppendUint64(b, h)
	}
	for _, id := range sumPerm(words, perm) {
		b = binary.LittleEndian.AppendUint32(b, id)
	}
	b = binary.AppendUvarint(b, uint64(len(ents)))
	defs, uses := 0, 0
	for i := range ents {
		defs, uses = defs+len(ents[i].defs), uses+len(ents[i].uses)
	}
	b = binary.AppendUvarint(b, uint64(defs))
	b = binary.AppendUvarint(b, uint64(uses))
	for i := range ents {
		b = appendEntry(b, ents[i], central[i])
	}
	return b
}

// appendEntry appends one file's record to b.
func appendEntry(b []byte, e *sumEntry, central float64) []byte {
	b = binary.LittleEndian.AppendUint64(b, e.path)
	b = binary.LittleEndian.AppendUint64(b, e.stamp)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(central))
	for _, v := range []int{e.chunks, e.tokens, e.redactions, e.reach, len(e.defs)} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	for _, id := range e.defs {
		b = binary.AppendUvarint(b, uint64(id))
	}
	b = binary.AppendUvarint(b, uint64(len(e.uses)))
	prev := int32(0)
	for j, id := range e.uses {
		b = binary.AppendUvarint(b, uint64(id))
		b = binary.AppendUvarint(b, uint64(e.at[j]-prev))
		prev = e.at[j]
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

// sumReader reads a summary's bytes (recReader, and its entries).
type sumReader struct{ recReader }

// decodeSum decodes encodeSum's bytes; nil when they do not hold a
// summary (a count or id out of bounds, a table not in order of distinct
// hashes, a file without chunks, bytes left over).
func decodeSum(b []byte) *mapSum {
	if len(b) == 0 || b[0] != 1 {
		return nil
	}
	r := &sumReader{recReader{b: b[1:], ok: true}}
	const bound = math.MaxInt32
	s := &mapSum{limit: r.uvarint(bound)}
	nw := r.uvarint(uint64(len(r.b) / 12))
	if !r.ok || len(r.b) < 12*nw {
		return nil
	}
	s.words = make([]uint64, nw)
	for i := range s.words {
		s.words[i] = r.u64()
	}
	s.perm = make([]uint32, nw)
	for i := range s.perm {
		s.perm[i] = binary.LittleEndian.Uint32(r.b[4*i:])
		if int(s.perm[i]) >= nw || i > 0 && s.words[s.perm[i-1]] >= s.words[s.perm[i]] {
			return nil
		}
	}
	r.b = r.b[4*nw:]
	nf := r.uvarint(uint64(len(r.b) / 30))
	nd := r.uvarint(uint64(len(r.b)))
	nu := r.uvarint(uint64(len(r.b) / 2))
	if !r.ok || !s.decodeFiles(r, nf, nd, nu) || len(r.b) != 0 {
		return nil
	}
	return s
}

// entry decodes one file record into e, appending its ids and offsets
// (below nw words) to ids and ats, where spans marks them; false when
// malformed.
func (r *sumReader) entry(e *sumEntry, ids []uint32, ats []int32, nw uint64, span *[3]int) ([]uint32, []int32, bool) {
	const bound = math.MaxInt32
	e.path, e.stamp, e.central = r.u64(), r.u64(), math.Float64frombits(r.u64())
	e.chunks, e.tokens, e.redactions, e.reach = r.uvarint(bound), r.uvarint(bound), r.uvarint(bound), r.uvarint(bound)
	fd := r.uvarint(uint64(len(r.b)))
	span[0] = len(ids)
	for k := 0; k < fd && r.ok; k++ {
		ids = append(ids, uint32(r.uvarint(nw-1)))
	}
	fu := r.uvarint(uint64(len(r.b) / 2))
	span[1] = len(ids)
	at := 0
	for k := 0; k < fu && r.ok; k++ {
		ids = append(ids, uint32(r.uvarint(nw-1)))
		at += r.uvarint(bound)
		ats = append(ats, int32(min(at, bound)))
	}
	span[2] = len(ids)
	return ids, ats, r.ok && e.chunks > 0 && at <= bound && (nw > 0 || fd+fu == 0)
}

// decodeFiles decodes the nf file records of r into s, their nd
// definitions and nu uses in one buffer (the counts the header gives),
// and indexes them by stamp.
func (s *mapSum) decodeFiles(r *sumReader, nf, nd, nu int) bool {
	const bound = math.MaxInt32
	nw := uint64(len(s.words))
	s.files = make([]sumEntry, nf)
	s.byStamp = make(map[uint64]int32, nf)
	ids := make([]uint32, 0, nd+nu) // every file's defs, then uses
	ats := make([]int32, 0, nu)
	spans := make([][3]int, nf) // start of defs, of uses, end, in ids
	for i := range s.files {
		e := &s.files[i]
		var ok bool
		if ids, ats, ok = r.entry(e, ids, ats, nw, &spans[i]); !ok || len(ids) > nd+nu || len(ats) > nu {
			return false // malformed, or more than the header said
		}
		if _, dup := s.byStamp[e.stamp]; e.stamp != 0 && !dup {
			s.byStamp[e.stamp] = int32(i)
		}
	}
	if len(ids) != nd+nu || len(ats) != nu {
		return false
	}
	uses := 0
	for i := range s.files {
		sp, e := spans[i], &s.files[i]
		e.defs = ids[sp[0]:sp[1]:sp[1]]
		e.uses = ids[sp[1]:sp[2]:sp[2]]
		n := sp[2] - sp[1]
		e.at = ats[uses : uses+n : uses+n]
		uses += n
	}
	return true
}
