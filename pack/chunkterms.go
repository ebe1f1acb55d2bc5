package pack

import (
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// chunkTermsMin: a shorter chunk is scanned, not remembered.
const chunkTermsMin = 256

// chunkTermsMaxBytes bounds the term tables the memo keeps (12 bytes a
// distinct term of a chunk); past it the memo starts again empty.
const chunkTermsMaxBytes = 32 << 20

// chunkTermsMemo remembers, by a 128-bit hash of a chunk's text, every
// term scanTerms finds in it with its count (terms as 64-bit hashes): a
// running server's warm packs counted the query's terms in the same
// candidate chunks again on every pack (issue 24: a quarter of a warm MCP
// pack of net/http). A table is built the second time a text is counted,
// so a one-off pack (the CLI) pays only the hashing of its chunks.
var chunkTermsMemo = struct {
	sync.Mutex
	seed  maphash.Seed // of terms
	m     map[textid.Key]*chunkTerms
	bytes int
}{seed: maphash.MakeSeed(), m: map[textid.Key]*chunkTerms{}}

// chunkTerms is a chunk's term table, hashes sorted; none yet when the
// text was counted once.
type chunkTerms struct {
	hashes []uint64
	counts []uint32
}

// countRemembered adds to row (indexed as q.index) the counts of the
// query's terms in text from the memo; false when text has no table
// (yet), and the caller scans it.
func (q *query) countRemembered(text string, row []uint16) bool {
	if len(text) < chunkTermsMin || oneOff.Load() {
		return false
	}
	t := rememberedTerms(text)
	if t == nil {
		return false
	}
	if len(t.hashes) == 0 {
		return true
	}
	for i, h := range q.termHashes() {
		if k, ok := slices.BinarySearch(t.hashes, h); ok {
			row[i] = uint16(min(uint32(row[i])+t.counts[k], math.MaxUint16))
		}
	}
	return true
}

// termHashes returns the hashes of q's terms, indexed as q.index numbers
// them (0 to len-1), as the memo's tables hold them: hashed once per query
// rather than once per chunk.
func (q *query) termHashes() []uint64 {
	if q.hashes == nil {
		q.hashes = make([]uint64, len(q.index))
		for term, i := range q.index {
			q.hashes[i] = maphash.String(chunkTermsMemo.seed, term)
		}
	}
	return q.hashes
}

// rememberedTerms returns text's table: nil the first time text is seen,
// built the second time, kept after.
func rememberedTerms(text string) *chunkTerms {
	m := &chunkTermsMemo
	k := textid.Of(text)
	m.Lock()
	t, ok := m.m[k]
	if !ok {
		m.m[k] = &chunkTerms{}
		m.bytes += 48
	}
	m.Unlock()
	if !ok {
		return nil
	}
	if t.hashes != nil {
		return t
	}
	byHash := map[uint64]uint32{}
	scanTerms(text, false, nil, func(term []byte) {
		byHash[maphash.Bytes(m.seed, term)]++
	})
	built := &chunkTerms{hashes: make([]uint64, 0, len(byHash)), counts: make([]uint32, len(byHash))}
	for h := range byHash {
		built.hashes = append(built.hashes, h)
	}
	slices.Sort(built.hashes)
	for i, h := range built.hashes {
		built.counts[i] = byHash[h]
	}
	m.Lock()
	defer m.Unlock()
	if m.bytes+12*len(built.hashes) > chunkTermsMaxBytes {
		clear(m.m)
		m.bytes = 0
	}
	m.m[k] = built
	m.bytes += 12*len(built.hashes) + 48
	return built
}
