package pack

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// keptTermsMaxSlots bounds the files (and stats of a file) a KeptTerms
// memo knows, 24 bytes each; past it the memo starts again empty.
const keptTermsMaxSlots = 1 << 20

// keptTermsMaxCells bounds what a KeptTerms memo holds: a cell is a word
// of a term's answered-files bitset or one of its non-zero counts (about
// 8 and 24 bytes); past it the memo starts again empty (about 16 MB).
const keptTermsMaxCells = 1 << 20

// KeptTerms wraps idx for a running server: the answers of idx.Terms are
// kept in memory per term and file, so that a warm pack's file scoring
// (scanFiles: one lookup per listed file, ~11 % of a warm MCP pack of Go's
// src in the index's segment search) asks idx only for the terms and
// files it has not answered yet. An answer is kept under the file's size
// and mtime, the stat idx validated it by (idx refuses racy entries), and
// Forget drops the file; a file whose stat changed is asked again. When
// idx is a SetIndex, so is the result.
func KeptTerms(idx FileIndex) FileIndex {
	if idx == nil {
		return nil
	}
	t := &keptTerms{FileIndex: idx}
	t.reset()
	if si, ok := idx.(SetIndex); ok {
		return keptTermsSet{t, si}
	}
	return t
}

// KeptTermsHits is the number of Terms answers idx (a KeptTerms) gave
// from memory, without asking the index it wraps; 0 for any other index.
func KeptTermsHits(idx FileIndex) int64 {
	switch t := idx.(type) {
	case *keptTerms:
		return t.hits.Load()
	case keptTermsSet:
		return t.hits.Load()
	}
	return 0
}

// keptTermsSet is a keptTerms whose index keeps sets too: its
// set methods are the index's own.
type keptTermsSet struct {
	*keptTerms
	SetIndex
}

type keptTerms struct {
	FileIndex
	hits atomic.Int64

	mu    sync.RWMutex
	files map[string]int32 // a file's slot, by path
	slots []termSlot
	terms map[string]*keptTerm
	cells int
	gen   int                      // changes when terms gains or loses one
	last  atomic.Pointer[resolved] // the last list of terms resolved
}

// resolved is a list of terms with what the memo knew of each, as of gen.
type resolved struct {
	gen   int
	terms []string
	ks    []*keptTerm
}

// termSlot is a file as the memo knows it: the stat its answers hold for
// and its length in terms. A file whose stat changes gets a new slot. at
// is where the bytes of the path string files holds it by are (see
// [keptTerms.rekey]).
type termSlot struct {
	size, mtime int64
	length      int
	at          uintptr
}

// keptTerm is what the memo knows of one term: the slots it was asked
// for (a bitset) and its counts in those of them that hold it.
type keptTerm struct {
	asked  []uint64
	held   []uint64 // the slots counts holds, a bitset: most files hold no term, and need no map lookup
	counts map[int32]uint32
}

func (k *keptTerm) answered(slot int32) bool { return bitSet(k.asked, slot) }

// count is the term's count in slot, when that file holds it.
func (k *keptTerm) count(slot int32) (uint32, bool) {
	if !bitSet(k.held, slot) {
		return 0, false
	}
	c, ok := k.counts[slot]
	return c, ok
}

func bitSet(bits []uint64, slot int32) bool {
	w := int(slot >> 6)
	return w < len(bits) && bits[w]&(1<<(slot&63)) != 0
}

// setBit sets slot in *bits and returns the words it added.
func setBit(bits *[]uint64, slot int32) int {
	w, added := int(slot>>6), 0
	for len(*bits) <= w {
		*bits = append(*bits, 0)
		added++
	}
	(*bits)[w] |= 1 << (slot & 63)
	return added
}

// reset empties the memo (t.mu held, or t not shared yet).
func (t *keptTerms) reset() {
	t.files, t.slots, t.terms, t.cells = map[string]int32{}, nil, map[string]*keptTerm{}, 0
	t.gen++
}

func (t *keptTerms) Terms(f collector.FileRef, terms []string) (FileTerms, bool) {
	if f.Info == nil {
		return t.FileIndex.Terms(f, terms)
	}
	size, mtime := f.Info.Size(), f.Info.ModTime().UnixNano()
	if ft, ok := t.kept(f.Abs, size, mtime, terms); ok {
		t.hits.Add(1)
		return ft, true
	}
	ft, ok := t.FileIndex.Terms(f, terms)
	if ok {
		t.keep(f.Abs, size, mtime, terms, ft)
	}
	return ft, ok
}

// kept answers terms for the file at abs from memory, when every term was
// answered under this stat. Counts is nil when the file holds none of them.
func (t *keptTerms) kept(abs string, size, mtime int64, terms []string) (FileTerms, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	slot, ok := t.files[abs]
	if !ok {
		return FileTerms{}, false
	}
	s := t.slots[slot]
	if s.size != size || s.mtime != mtime {
		return FileTerms{}, false
	}
	r := t.resolve(terms)
	var counts map[string]int
	for i, k := range r.ks {
		if k == nil || !k.answered(slot) {
			return FileTerms{}, false
		}
		if c, ok := k.count(slot); ok {
			if counts == nil {
				counts = make(map[string]int, len(terms)-i)
			}
			counts[terms[i]] = int(c)
		}
	}
	return FileTerms{Length: s.length, Counts: counts}, true
}

// keptRow is kept writing the counts into row (indexed as terms) instead
// of a map: no allocation per file. moved: the file is known by another
// string than abs (rekey).
func (t *keptTerms) keptRow(abs string, size, mtime int64, terms []string, row []uint16) (ok, moved bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	slot, ok := t.files[abs]
	if !ok || t.slots[slot].size != size || t.slots[slot].mtime != mtime {
		return false, false
	}
	r := t.resolve(terms)
	for _, k := range r.ks {
		if k == nil || !k.answered(slot) {
			return false, false
		}
	}
	for i, k := range r.ks {
		if c, ok := k.count(slot); ok {
			row[i] = uint16(min(c, math.MaxUint16))
		}
	}
	return true, t.slots[slot].at != stringAt(abs)
}

// rekey makes abs, an equal string at another address, the key of the
// file's slot: a running server that walks its tree again (its first
// walk is not kept until the watcher watches, a lost event drops the
// listing) asks with the new walk's strings, and a key from the old walk
// held that walk's whole path string, duplicating every listed path
// (issue 24, server6: 4 path strings a file were live on the 100K tree).
// A Go map's assignment to an equal string key stores the new string.
// The index t wraps is told too when it keeps files by path (MissedTerms).
func (t *keptTerms) rekey(abs string) {
	t.mu.Lock()
	if slot, ok := t.files[abs]; ok {
		t.files[abs] = slot
		t.slots[slot].at = stringAt(abs)
	}
	t.mu.Unlock()
	if r, ok := t.FileIndex.(rekeyer); ok {
		r.rekey(abs)
	}
}

// rekeyer is an index that keeps files by path and can take an equal
// path string as the key (keptTerms.rekey).
type rekeyer interface{ rekey(abs string) }

// stringAt is the address of s's bytes.
func stringAt(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// TermRow is Terms writing the count of each of terms (distinct) into
// row, indexed as terms; false on a miss (row untouched).
func (t *keptTerms) TermRow(f collector.FileRef, terms []string, row []uint16) bool {
	ok, moved := false, false
	if f.Info != nil {
		ok, moved = t.keptRow(f.Abs, f.Info.Size(), f.Info.ModTime().UnixNano(), terms, row)
	}
	if moved {
		t.rekey(f.Abs)
	}
	if ok {
		t.hits.Add(1)
		return true
	}
	ft, ok := t.Terms(f, terms)
	if !ok {
		return false
	}
	for i, term := range terms {
		if c, ok := ft.Counts[term]; ok {
			row[i] = uint16(min(c, math.MaxUint16))
		}
	}
	return true
}

// termRow fills row (indexed by index, the position of each term) from
// idx's statistics of f, false on a miss: a TermRowIndex writes them
// itself (a running server's memo, without a map per file), any other
// index answers Terms.
func termRow(idx FileIndex, f collector.FileRef, terms []string, index map[string]int, row []uint16) bool {
	if rx, ok := idx.(termRowIndex); ok {
		return rx.TermRow(f, terms, row)
	}
	ft, ok := idx.Terms(f, terms)
	if !ok {
		return false
	}
	for t, c := range ft.Counts {
		if k, ok := index[t]; ok {
			row[k] = uint16(min(c, math.MaxUint16))
		}
	}
	return true
}

// termRowIndex is a FileIndex that writes a file's counts of distinct
// terms into a row (KeptTerms).
type termRowIndex interface {
	TermRow(f collector.FileRef, terms []string, row []uint16) bool
}

// resolve returns what the memo knows of each of terms (nil: nothing),
// from the last query's when terms are its (a pack asks one list for
// every file); t.mu is held, for reading at least.
func (t *keptTerms) resolve(terms []string) *resolved {
	if r := t.last.Load(); r != nil && r.gen == t.gen && slices.Equal(r.terms, terms) {
		return r
	}
	r := &resolved{gen: t.gen, terms: slices.Clone(terms), ks: make([]*keptTerm, len(terms))}
	for i, term := range terms {
		r.ks[i] = t.terms[term]
	}
	t.last.Store(r)
	return r
}

// keep records idx's answer ft for terms of the file at abs under a stat.
func (t *keptTerms) keep(abs string, size, mtime int64, terms []string, ft FileTerms) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cells > keptTermsMaxCells || len(t.slots) >= keptTermsMaxSlots {
		t.reset()
	}
	slot, ok := t.files[abs]
	if !ok || t.slots[slot].size != size || t.slots[slot].mtime != mtime {
		slot = int32(len(t.slots))
		t.slots = append(t.slots, termSlot{size: size, mtime: mtime, length: ft.Length, at: stringAt(abs)})
		t.files[abs] = slot
	} else if t.slots[slot].at != stringAt(abs) {
		t.files[abs] = slot // the new string (rekey)
		t.slots[slot].at = stringAt(abs)
	}
	for _, term := range terms {
		k := t.terms[term]
		if k == nil {
			k = &keptTerm{counts: map[int32]uint32{}}
			t.terms[term] = k
			t.gen++
		}
		t.cells += setBit(&k.asked, slot)
		if c, ok := ft.Counts[term]; ok {
			if _, had := k.counts[slot]; !had {
				t.cells += 3
			}
			t.cells += setBit(&k.held, slot)
			k.counts[slot] = uint32(min(c, math.MaxUint32))
		}
	}
}

// Forget drops abs from the memo and from idx.
func (t *keptTerms) Forget(abs string) {
	t.FileIndex.Forget(abs)
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.files, abs) // its slot's bits stay, unreachable
}

// PutTerms, Chunks and PutChunks are idx's (named here so that the
// wrapper's method set is explicit).
func (t *keptTerms) PutTerms(f collector.FileRef, content []byte, all map[string]int) {
	t.FileIndex.PutTerms(f, content, all)
}

func (t *keptTerms) Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool) {
	return t.FileIndex.Chunks(f, content, key)
}

func (t *keptTerms) PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk) {
	t.FileIndex.PutChunks(f, content, key, chunks)
}
