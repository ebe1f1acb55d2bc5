package index

import (
	"crypto/hmac"
	"crypto/sha256"
	"io"
	"path/filepath"
	"slices"
	"sync"

	"github.com/acode-lsp/acode-lsp/pack"
)

// Text counts (docs/index.md "Text counts"): the exact token counts of the
// texts a query pack rendered and counted whole (its fit, pack/textcounts.go),
// kept under a keyed HMAC of the counting program's and tokenizer's names
// and the text, so that a warm pack rendering the same text again takes
// its count instead of counting it (BPE counts are not additive: only the
// whole text's count holds the budget, and it is the same number for the
// same text, program and tokenizer). A record holds no text and no path:
// a key, the time it was put and the count.
//
// The counts of a root live in one file, countsName, beside its segments:
// at most maxCounts records (the ones put longest ago go first), written
// whole and read as map.plan is (sideFile: no link followed, a regular
// file of this user, an HMAC over all of it, the index's version);
// anything else is ignored, and the next pack writes the file again.
const (
	countsName    = "counts.tbl"
	countsMagic   = "ACIDXCNT"
	countsVersion = 1
	countsHeader  = 32 // magic, version, count, version hash, key id
	countRecLen   = 32 + 8 + 8
	maxCounts     = 64
	maxCountsFile = countsHeader + maxCounts*countRecLen + sideMAC
)

// countRec is one stored count.
type countRec struct {
	key   [32]byte
	put   int64 // unix nanoseconds
	count int64
}

// countStore is the text counts of one root's index (pack.TextCountStore):
// the file is read at the first lookup and kept for the store's life (one
// pack).
type countStore struct {
	x    *Index
	mu   *sync.Mutex // the file's, shared by the stores of one directory
	once sync.Once
	recs []countRec
}

var _ pack.TextCounts = (*Set)(nil)

// countLocks orders this process's reads and writes of each counts file
// (by index directory); another process's write is a rename, read whole.
var countLocks dirLocks

// TextCounts implements [pack.TextCounts]: the counts of the root holding
// abs; nil when no index of the set holds it.
func (s *Set) TextCounts(abs string) pack.TextCountStore {
	x := s.of(abs)
	if x == nil {
		return nil
	}
	return &countStore{x: x, mu: countLocks.of(x.dir)}
}

// TextKey implements [pack.TextCountStore]: the keyed HMAC of id (what
// names the program and the tokenizer) and text.
func (cs *countStore) TextKey(id, text string) (out [32]byte) {
	m := hmac.New(sha256.New, cs.x.k.mac)
	io.WriteString(m, "text count\x00")
	writeLen(m, len(id))
	io.WriteString(m, id)
	writeLen(m, len(text))
	io.WriteString(m, text)
	copy(out[:], m.Sum(nil))
	return out
}

// Count implements [pack.TextCountStore].
func (cs *countStore) Count(key [32]byte) (int, bool) {
	cs.once.Do(func() {
		cs.mu.Lock()
		defer cs.mu.Unlock()
		cs.recs = readCounts(filepath.Join(cs.x.dir, countsName), cs.x.k, cs.x.vh)
	})
	for _, r := range cs.recs {
		if r.key == key {
			return int(r.count), true
		}
	}
	return 0, false
}

// PutCounts implements [pack.TextCountStore]: the file is read again, the
// counts added (replacing a key's), the records put longest ago dropped
// past maxCounts, and the file written whole.
func (cs *countStore) PutCounts(counts map[[32]byte]int) {
	if len(counts) == 0 {
		return
	}
	now := cs.x.now().UnixNano()
	cs.mu.Lock()
	defer cs.mu.Unlock()
	p := filepath.Join(cs.x.dir, countsName)
	recs := readCounts(p, cs.x.k, cs.x.vh)
	recs = slices.DeleteFunc(recs, func(r countRec) bool { _, ok := counts[r.key]; return ok })
	for k, n := range counts {
		recs = append(recs, countRec{key: k, put: now, count: int64(n)})
	}
	slices.SortStableFunc(recs, func(a, b countRec) int {
		if a.put != b.put {
			return int(max(-1, min(1, b.put-a.put)))
		}
		return slices.Compare(a.key[:], b.key[:])
	})
	if len(recs) > maxCounts {
		recs = recs[:maxCounts]
	}
	_ = writeCounts(cs.x.dir, p, cs.x.k, cs.x.vh, recs)
}

// countsFile is counts.tbl's envelope.
var countsFile = sideFile{magic: countsMagic, version: countsVersion, hdr: countsHeader,
	label: "text counts\x00", temp: ".tmp-*.cnt", what: "text counts"}

// writeCounts writes recs as the counts file p in dir: a temporary file
// renamed into place.
func writeCounts(dir, p string, k *keys, vh uint64, recs []countRec) error {
	b := countsFile.start(k, vh, len(recs), len(recs)*countRecLen)
	for _, r := range recs {
		b = append(b, r.key[:]...)
		b = le.AppendUint64(b, uint64(r.put))
		b = le.AppendUint64(b, uint64(r.count))
	}
	return countsFile.write(dir, p, k, b)
}

// readCounts reads the counts file p; nil when there is none or it fails
// a check: sideFile.read's, a file of at most maxCountsFile bytes, at
// most maxCounts records filling it exactly, no negative count.
func readCounts(p string, k *keys, vh uint64) []countRec {
	b, n, ok := countsFile.read(p, k, vh, func(size int64) bool { return size <= maxCountsFile })
	if !ok || n > maxCounts || len(b) != n*countRecLen {
		return nil
	}
	recs := make([]countRec, n)
	for i := range recs {
		h := b[i*countRecLen:]
		copy(recs[i].key[:], h)
		recs[i].put = int64(le.Uint64(h[32:]))
		recs[i].count = int64(le.Uint64(h[40:]))
		if recs[i].count < 0 {
			return nil
		}
	}
	return recs
}
