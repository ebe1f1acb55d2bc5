package index

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
)

// Refused files (docs/index.md "Refused files"): the files the content
// rules refused (binary, empty, not UTF-8) and the files whose text
// redaction touches are remembered by a keyed hash of their path and their
// stat, so that a warm pack neither opens nor sniffs a binary again, nor
// runs redaction over a file it already knows it may not store. The table
// holds no path, no text and no term: per file the keyed path hash
// (SipHash-2-4 under the per-user key), the stat, a number for the
// refusal (collector.Refusal.Pack) or "redacted", and when it was put.
//
// It lives in one file per root, refusedName, written whole (a temporary
// file renamed into place) when the index flushes; a concurrent writer's
// table is read again and merged before the rename, and a lost update
// only costs a read. The file is opened as segments are (no link
// followed, no FIFO waited on, a regular file of this user) and carries an
// HMAC-SHA256 under the per-user key over all of it: a table this user's
// acode-lsp did not write, or of other content rules, is ignored.
const (
	refusedName    = "refused.tbl"
	refusedMagic   = "ACIDXREF"
	refusedVersion = 1
	refusedHeader  = 48
	refusedRecSize = 64
	// maxRefused caps the table (16 MiB); past it, the records put
	// longest ago go.
	maxRefused = 1 << 18
	// codeRedacted marks a file whose text redaction touches (the other
	// codes are collector.Refusal.Pack's; 0 is a removed record).
	codeRedacted = 1<<64 - 1
)

// refusedRec is one remembered file.
type refusedRec struct {
	ph   uint64 // keyed path hash
	st   stat
	code uint64
	put  int64 // unix seconds
}

// refusedTable is a root's table: what was read from disk (sorted by path
// hash, loaded at the first lookup) and what was put since.
type refusedTable struct {
	once  sync.Once
	mu    sync.RWMutex
	disk  []refusedRec
	fresh map[uint64]refusedRec
}

// refusedVH is the version a table is written under: the segments'
// (format, term splitter, chunker) and what the content rules and
// redaction make of probe texts (collector.RulesProbe).
func (x *Index) refusedVH() uint64 {
	x.refusedVHOnce.Do(func() {
		x.refusedVHVal = fnv64(x.vh, fmt.Sprintf("refused %d\x00%s", refusedVersion, collector.RulesProbe()))
	})
	return x.refusedVHVal
}

// table returns the root's table, read from disk at the first call.
func (x *Index) table() *refusedTable {
	t := &x.refused
	t.once.Do(func() {
		disk := readRefused(filepath.Join(x.dir, refusedName), x.k, x.refusedVH())
		t.mu.Lock()
		t.disk, t.fresh = disk, map[uint64]refusedRec{}
		t.mu.Unlock()
	})
	return t
}

// refusal returns the code remembered for the file at abs with stat fi.
func (x *Index) refusal(abs string, fi fs.FileInfo) (uint64, bool) {
	st, ok := statOf(fi)
	if !ok {
		return 0, false
	}
	return x.refusalOf(x.k.pathHash(abs), st)
}

func (x *Index) refusalOf(ph uint64, st stat) (uint64, bool) {
	t := x.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	r, ok := t.fresh[ph]
	if !ok {
		i := sort.Search(len(t.disk), func(i int) bool { return t.disk[i].ph >= ph })
		if i == len(t.disk) || t.disk[i].ph != ph {
			return 0, false
		}
		r = t.disk[i]
	}
	if r.code == 0 || r.st != st {
		return 0, false
	}
	return r.code, true
}

// putRefusal remembers code for the file at abs with stat st, unless the
// stat is racy (the file changed less than racyWindow ago: it may change
// again within its timestamp's tick, so the stat does not vouch for it).
func (x *Index) putRefusal(abs string, st stat, code uint64) {
	now := x.now()
	if now.Sub(time.Unix(0, max(st.mtime, st.ctime))) < racyWindow {
		return
	}
	ph := x.k.pathHash(abs)
	if c, ok := x.refusalOf(ph, st); ok && c == code {
		return
	}
	t := x.table()
	t.mu.Lock()
	t.fresh[ph] = refusedRec{ph: ph, st: st, code: code, put: now.Unix()}
	t.mu.Unlock()
}

// dropRefusal forgets what the table holds of the file at abs (it was
// stored as clean text since).
func (x *Index) dropRefusal(abs string) {
	ph := x.k.pathHash(abs)
	t := x.table()
	t.mu.Lock()
	defer t.mu.Unlock()
	i := sort.Search(len(t.disk), func(i int) bool { return t.disk[i].ph >= ph })
	_, fresh := t.fresh[ph]
	if fresh || i < len(t.disk) && t.disk[i].ph == ph {
		t.fresh[ph] = refusedRec{ph: ph}
	}
}

// Refused implements [collector.RefusedFiles] for the file at abs.
func (x *Index) Refused(abs string, fi fs.FileInfo) (collector.Refusal, bool) {
	code, ok := x.refusal(abs, fi)
	if !ok || code == codeRedacted {
		return collector.Refusal{}, false
	}
	return collector.UnpackRefusal(code, fi.Size())
}

// PutRefused implements [collector.RefusedFiles] for the file at abs.
func (x *Index) PutRefused(abs string, fi fs.FileInfo, r collector.Refusal) {
	st, ok := statOf(fi)
	code, packed := r.Pack()
	if !ok || !packed || code == 0 || code == codeRedacted || r.Size != st.size {
		return
	}
	x.putRefusal(abs, st, code)
}

// flushRefused writes the table when something was put since it was read:
// the table on disk now (another process may have written it), then what
// was put here over it, past the cap without the records put longest ago.
func (x *Index) flushRefused() error {
	t := &x.refused
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.fresh) == 0 {
		return nil
	}
	p := filepath.Join(x.dir, refusedName)
	byHash := map[uint64]refusedRec{}
	for _, r := range readRefused(p, x.k, x.refusedVH()) {
		byHash[r.ph] = r
	}
	for ph, r := range t.fresh {
		if r.code == 0 {
			delete(byHash, ph)
			continue
		}
		byHash[ph] = r
	}
	recs := make([]refusedRec, 0, len(byHash))
	for _, r := range byHash {
		recs = append(recs, r)
	}
	if len(recs) > maxRefused {
		slices.SortFunc(recs, func(a, b refusedRec) int { return int(b.put - a.put) })
		recs = recs[:maxRefused]
	}
	slices.SortFunc(recs, func(a, b refusedRec) int {
		switch {
		case a.ph < b.ph:
			return -1
		case a.ph > b.ph:
			return 1
		}
		return 0
	})
	if err := writeRefused(x.dir, p, x.k, x.refusedVH(), recs); err != nil {
		return err
	}
	t.disk, t.fresh = recs, map[uint64]refusedRec{}
	return nil
}

// refusedFile is refused.tbl's envelope.
var refusedFile = sideFile{magic: refusedMagic, version: refusedVersion, hdr: refusedHeader,
	label: "refused files\x00", temp: ".tmp-*.ref", what: "refused files"}

// writeRefused writes recs (sorted by path hash) as the table p in dir:
// a temporary file renamed into place.
func writeRefused(dir, p string, k *keys, vh uint64, recs []refusedRec) error {
	b := refusedFile.start(k, vh, len(recs), len(recs)*refusedRecSize)
	for _, r := range recs {
		b = le.AppendUint64(b, r.ph)
		b = le.AppendUint64(b, uint64(r.st.size))
		b = le.AppendUint64(b, uint64(r.st.mtime))
		b = le.AppendUint64(b, uint64(r.st.ctime))
		b = le.AppendUint64(b, r.st.ino)
		b = le.AppendUint32(b, r.st.mode)
		b = le.AppendUint32(b, 0)
		b = le.AppendUint64(b, r.code)
		b = le.AppendUint64(b, uint64(r.put))
	}
	return refusedFile.write(dir, p, k, b)
}

// readRefused reads the table p; nil when there is none or it fails a
// check: opened without following a link and without blocking, a regular
// file of this user, of the size its count says (at most the cap), its
// MAC, magic, version, key and rules version, records sorted by hash.
func readRefused(p string, k *keys, vh uint64) []refusedRec {
	b, n, ok := refusedFile.read(p, k, vh, func(size int64) bool {
		n := (size - refusedHeader - sideMAC) / refusedRecSize
		return n <= maxRefused && size == refusedHeader+n*refusedRecSize+sideMAC
	})
	if !ok || n*refusedRecSize != len(b) {
		return nil
	}
	recs := make([]refusedRec, n)
	for i := range recs {
		r := b[i*refusedRecSize:]
		recs[i] = refusedRec{
			ph: le.Uint64(r),
			st: stat{size: int64(le.Uint64(r[8:])), mtime: int64(le.Uint64(r[16:])), ctime: int64(le.Uint64(r[24:])),
				ino: le.Uint64(r[32:]), mode: le.Uint32(r[40:])},
			code: le.Uint64(r[48:]),
			put:  int64(le.Uint64(r[56:])),
		}
		if i > 0 && recs[i].ph <= recs[i-1].ph {
			return nil
		}
	}
	return recs
}

// KnownClean implements [collector.CleanTexts]: an entry of the file at
// abs holds terms counted in a text of the same keyed hash (HMAC-SHA256),
// and terms are stored only of a text collector.Redact left unchanged
// (termEntry; the index's version holds the rules': DefaultVersion).
func (x *Index) KnownClean(abs string, text []byte) bool {
	h := x.k.contentHash(text)
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.closed {
		return false
	}
	for _, e := range x.memEntries(abs) {
		if e.flags&flagTerms != 0 && e.hash == h {
			return true
		}
	}
	ph := x.k.pathHash(abs)
	for _, s := range x.segs {
		if s.bad.Load() {
			continue
		}
		if i := s.find(abs, ph); i >= 0 {
			if r := s.rec(i); r.flags&flagTerms != 0 && r.hash == h {
				return true
			}
		}
	}
	return false
}

// noteRedacted marks the file at abs redacted (its terms are not stored,
// nor looked for: Set.TermHasher) when the table remembers its text, at
// stat fi, as one redaction touches.
func (x *Index) noteRedacted(abs string, fi fs.FileInfo) {
	if code, ok := x.refusal(abs, fi); ok && code == codeRedacted {
		x.markRedacted(abs)
	}
}

// isRedacted reports whether abs is kept out of the index as redacted.
func (x *Index) isRedacted(abs string) bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.redacted[abs]
}
