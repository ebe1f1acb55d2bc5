package index

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Map facts of redacted files (docs/index.md "Map facts of redacted
// files"): a file whose text redaction touches keeps nothing in the
// segments, not even its encrypted path, so a warm map read, redacted and
// cut every such file again (issue 24: 45 % of a 100K-file map after an
// edit). What the map needs of it without its text is kept here, under
// the keyed hash of its path (never the path) and its stat, as numbers
// and keyed hashes only: the chunks' boundaries, kinds and token counts
// (of the redacted text), each chunk's hash mark keyed (MapMark), the
// words of its symbol names and the identifiers it uses as keyed 64-bit
// hashes (MapWordHash), each with its offset, and its redaction count.
// No path, no text, no word: pack/mapredacted.go encodes the body, this
// file only stores it (opaque bytes, as map.plan's plans).
//
// The records of a root live in one file, redName, beside its segments,
// written whole at a flush when records were put (a temporary file
// renamed into place) and read as refused.tbl is (no link followed, no
// FIFO waited on, a regular file of this user, an HMAC over all of it,
// the index's version and rules): anything else is ignored.
const (
	redName    = "mapred.tbl"
	redMagic   = "ACIDXRED"
	redVersion = 1
	redHeader  = 32
	redRecHead = 8 + 8 + 8 + 8 + 8 + 4 + 4 + 8 + 8
	// maxRedBody caps one record's body, maxRedFile the whole file (the
	// records put longest ago go first).
	maxRedBody = 1 << 20
	maxRedFile = 64 << 20
)

// redRec is one stored record.
type redRec struct {
	ph   uint64 // keyed path hash
	st   stat
	key  uint64 // keyed hash of the map's chunking key
	put  int64  // unix seconds
	body []byte
}

// redTable is a root's records: read from disk at the first use, then
// what was put since (dirty: to write at the next flush).
type redTable struct {
	once  sync.Once
	mu    sync.Mutex
	recs  map[uint64]redRec
	dirty bool
}

// redFile is mapred.tbl's envelope.
var redFile = sideFile{magic: redMagic, version: redVersion, hdr: redHeader,
	label: "map facts of redacted files\x00", temp: ".tmp-*.red", what: "map facts of redacted files"}

// redTab returns the root's table, read from disk at the first call.
func (x *Index) redTab() *redTable {
	t := &x.mapred
	t.once.Do(func() {
		recs := readRed(filepath.Join(x.dir, redName), x.k, x.refusedVH())
		t.mu.Lock()
		t.recs = map[uint64]redRec{}
		for _, r := range recs {
			t.recs[r.ph] = r
		}
		t.mu.Unlock()
	})
	return t
}

var _ pack.RedactedFacts = (*Set)(nil)

// PutMapRedacted implements [pack.RedactedFacts]: body (numbers and keyed
// hashes only) for the file f, whose text redaction touches, under key;
// not kept for a racy stat, a path redaction touches, or a body over
// maxRedBody.
func (s *Set) PutMapRedacted(f collector.FileRef, key string, body []byte) {
	x := s.of(f.Abs)
	st, ok := statOf(f.Info)
	if x == nil || !ok || len(body) > maxRedBody || strings.Contains(collector.DisplayPath(f.Abs), string(redactedMark)) {
		return
	}
	now := x.now()
	if now.UnixNano()-max(st.mtime, st.ctime) < int64(racyWindow) {
		return
	}
	t := x.redTab()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recs[x.k.pathHash(f.Abs)] = redRec{ph: x.k.pathHash(f.Abs), st: st, key: x.k.keyHash("map redacted\x00" + key), put: now.Unix(), body: slices.Clone(body)}
	t.dirty = true
}

// MapRedacted implements [pack.RedactedFacts]: the body put for f at its
// very stat under key; false otherwise.
func (s *Set) MapRedacted(f collector.FileRef, key string) ([]byte, bool) {
	x := s.of(f.Abs)
	st, ok := statOf(f.Info)
	if x == nil || !ok {
		return nil, false
	}
	t := x.redTab()
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.recs[x.k.pathHash(f.Abs)]
	if !ok || r.st != st || r.key != x.k.keyHash("map redacted\x00"+key) {
		return nil, false
	}
	return r.body, true
}

// MapWordHash implements [pack.RedactedFacts]: the keyed 64-bit hash of
// an identifier (SipHash-2-4 under a subkey of the per-user secret).
func (s *Set) MapWordHash(w string) uint64 {
	if s == nil || len(s.idx) == 0 {
		return 0
	}
	return s.idx[0].k.mapw.sum64(w)
}

// MapMark implements [pack.RedactedFacts]: a chunk's hash mark (16 bytes)
// under two keyed 64-bit hashes, so that stored marks cannot confirm a
// guessed chunk text without the key, and equal marks stay equal.
func (s *Set) MapMark(m string) string {
	if s == nil || len(s.idx) == 0 {
		return m
	}
	k := s.idx[0].k
	var b [16]byte
	le.PutUint64(b[:], k.mapm[0].sum64(m))
	le.PutUint64(b[8:], k.mapm[1].sum64(m))
	return string(b[:])
}

// flushRed writes the root's records when some were put since the last
// flush: the file is read again (another process's records kept unless
// this one put the same path), then cut to maxRedFile (the records put
// longest ago go first).
func (x *Index) flushRed() error {
	t := &x.mapred
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.dirty {
		return nil
	}
	p := filepath.Join(x.dir, redName)
	byHash := map[uint64]redRec{}
	for _, r := range readRed(p, x.k, x.refusedVH()) {
		byHash[r.ph] = r
	}
	for ph, r := range t.recs {
		if o, ok := byHash[ph]; !ok || o.put <= r.put {
			byHash[ph] = r
		}
	}
	recs := make([]redRec, 0, len(byHash))
	for _, r := range byHash {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b redRec) int { return int(max(-1, min(1, b.put-a.put))) })
	size := redHeader + sideMAC
	for i, r := range recs {
		if size += redRecHead + len(r.body); size > maxRedFile {
			recs = recs[:i]
			break
		}
	}
	if err := writeRed(x.dir, p, x.k, x.refusedVH(), recs); err != nil {
		return err
	}
	// What is kept in memory is what the file holds: bounded as it is.
	t.recs = make(map[uint64]redRec, len(recs))
	for _, r := range recs {
		t.recs[r.ph] = r
	}
	t.dirty = false
	return nil
}

// writeRed writes recs as the file p in dir.
func writeRed(dir, p string, k *keys, vh uint64, recs []redRec) error {
	size := 0
	for _, r := range recs {
		size += redRecHead + len(r.body)
	}
	b := redFile.start(k, vh, len(recs), size)
	for _, r := range recs {
		b = le.AppendUint64(b, r.ph)
		b = le.AppendUint64(b, uint64(r.st.size))
		b = le.AppendUint64(b, uint64(r.st.mtime))
		b = le.AppendUint64(b, uint64(r.st.ctime))
		b = le.AppendUint64(b, r.st.ino)
		b = le.AppendUint32(b, r.st.mode)
		b = le.AppendUint32(b, uint32(len(r.body)))
		b = le.AppendUint64(b, r.key)
		b = le.AppendUint64(b, uint64(r.put))
		b = append(b, r.body...)
	}
	return redFile.write(dir, p, k, b)
}

// readRed reads the file p; nil when there is none or it fails a check:
// sideFile.read's, at most maxRedFile bytes, each body within maxRedBody,
// no byte left over.
func readRed(p string, k *keys, vh uint64) []redRec {
	b, n, ok := redFile.read(p, k, vh, func(size int64) bool { return size <= maxRedFile })
	if !ok || n > len(b)/redRecHead {
		return nil
	}
	recs := make([]redRec, 0, n)
	ok = splitRecords(b, n, redRecHead, maxRedBody,
		func(h []byte) int { return int(le.Uint32(h[44:])) },
		func(h, body []byte) {
			recs = append(recs, redRec{ph: le.Uint64(h),
				st: stat{size: int64(le.Uint64(h[8:])), mtime: int64(le.Uint64(h[16:])), ctime: int64(le.Uint64(h[24:])),
					ino: le.Uint64(h[32:]), mode: le.Uint32(h[40:])},
				key: le.Uint64(h[48:]), put: int64(le.Uint64(h[56:])), body: body})
		})
	if !ok {
		return nil
	}
	return recs
}
