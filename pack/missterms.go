package pack

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// missedTermsMax bounds the postings (term hash and count, 12 bytes) a
// MissedTerms memo keeps: about 12 MB. Past it, further files are not kept.
const missedTermsMax = 1 << 20

// missedTermsRacy: a file changed this recently is not kept, as the index
// marks such entries racy (a change within the mtime's granularity would
// keep its size and mtime).
const missedTermsRacy = 2 * time.Second

// MissedTerms wraps idx for a running server: the term tables of the files
// idx refuses to store (those whose content redaction touched, which
// package index never writes) are kept in memory, as hashes, keyed by path
// and validated by size and mtime, so that a warm pack does not read and
// scan them again (issue 24: a warm server pack of Go's src read and
// counted them on every pack, ~9 % of its CPU). Everything else is idx's.
// Forget drops a path from both. When idx is a SetIndex, so is the result.
func MissedTerms(idx FileIndex) FileIndex {
	if idx == nil {
		return nil
	}
	t := &missedTerms{FileIndex: idx, seed: maphash.MakeSeed(), m: map[string]*missedEntry{}}
	if si, ok := idx.(SetIndex); ok {
		return missedTermsSet{t, si}
	}
	return t
}

// missedTermsSet is a missedTerms whose index keeps sets too: its
// set methods are the index's own.
type missedTermsSet struct {
	*missedTerms
	SetIndex
}

type missedTerms struct {
	FileIndex
	seed maphash.Seed

	mu       sync.Mutex
	m        map[string]*missedEntry
	postings int
}

// missedEntry is the term table of one file: hashes sorted, with counts;
// without hashes, a file put once under this stat.
type missedEntry struct {
	size, mtime int64
	length      int
	hashes      []uint64
	counts      []uint32
	at          uintptr // where the bytes of m's key are (termmemo.go's rekey)
}

func (t *missedTerms) Terms(f collector.FileRef, terms []string) (FileTerms, bool) {
	if ft, ok := t.FileIndex.Terms(f, terms); ok {
		t.stored(f.Abs)
		return ft, true
	}
	if f.Info == nil {
		return FileTerms{}, false
	}
	t.mu.Lock()
	e := t.m[f.Abs]
	t.rekeyLocked(f.Abs)
	t.mu.Unlock()
	if e == nil || e.hashes == nil || e.size != f.Info.Size() || e.mtime != f.Info.ModTime().UnixNano() {
		return FileTerms{}, false
	}
	counts := map[string]int{}
	for _, term := range terms {
		h := maphash.String(t.seed, term)
		if i, ok := slices.BinarySearch(e.hashes, h); ok {
			counts[term] += int(e.counts[i])
		}
	}
	return FileTerms{Length: e.length, Counts: counts}, true
}

// PutTerms hands the table to the index, and keeps it when the index
// refused it before: a second put of a file under the same stat means the
// index did not store the first (it is asked nothing, so its statistics
// stay those of the packs).
func (t *missedTerms) PutTerms(f collector.FileRef, content []byte, all map[string]int) {
	t.FileIndex.PutTerms(f, content, all)
	if f.Info == nil || time.Since(f.Info.ModTime()) < missedTermsRacy || int64(len(content)) != f.Info.Size() {
		return
	}
	size, mtime := f.Info.Size(), f.Info.ModTime().UnixNano()
	t.mu.Lock()
	prev := t.m[f.Abs]
	if prev == nil || prev.size != size || prev.mtime != mtime {
		t.replace(f.Abs, &missedEntry{size: size, mtime: mtime}) // seen once
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	e := &missedEntry{size: size, mtime: mtime}
	byHash := make(map[uint64]uint32, len(all))
	for term, c := range all {
		byHash[maphash.String(t.seed, term)] += uint32(c)
		e.length += c
	}
	e.hashes = make([]uint64, 0, len(byHash))
	for h := range byHash {
		e.hashes = append(e.hashes, h)
	}
	slices.Sort(e.hashes)
	e.counts = make([]uint32, len(e.hashes))
	for i, h := range e.hashes {
		e.counts[i] = byHash[h]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.postings+len(e.hashes) > missedTermsMax {
		return
	}
	t.replace(f.Abs, e)
}

// stored drops what t holds of abs, which the index answered for: a
// file put twice before the index wrote its first put (a background
// flush) is not one it refuses, and a file put once stays in t as seen
// (issue 24, server6: 64,000 such entries, and their tables, held on the
// 100K tree after its first packs).
func (t *missedTerms) stored(abs string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.m[abs]; e != nil {
		t.postings -= len(e.hashes)
		delete(t.m, abs)
	}
}

// rekey makes abs, an equal string at another address, the key of its
// entry (see keptTerms.rekey): the old walk's string may then go.
func (t *missedTerms) rekey(abs string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rekeyLocked(abs)
}

// rekeyLocked is rekey with t.mu held.
func (t *missedTerms) rekeyLocked(abs string) {
	if e := t.m[abs]; e != nil && e.at != stringAt(abs) {
		t.m[abs] = e
		e.at = stringAt(abs)
	}
}

// replace makes e the entry of abs (t.mu held), keeping the count of
// postings.
func (t *missedTerms) replace(abs string, e *missedEntry) {
	if old := t.m[abs]; old != nil {
		t.postings -= len(old.hashes)
	}
	e.at = stringAt(abs)
	t.m[abs] = e
	t.postings += len(e.hashes)
}

func (t *missedTerms) Forget(abs string) {
	t.FileIndex.Forget(abs)
	t.mu.Lock()
	defer t.mu.Unlock()
	if old := t.m[abs]; old != nil {
		t.postings -= len(old.hashes)
		delete(t.m, abs)
	}
}

// Chunks and PutChunks are idx's (named here so that the wrapper's method
// set is explicit).
func (t *missedTerms) Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	return t.FileIndex.Chunks(f, content, key)
}

func (t *missedTerms) PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk) {
	t.FileIndex.PutChunks(f, content, key, chunks)
}
