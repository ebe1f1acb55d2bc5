// Package textid names texts by a 128-bit hash, the key of the memos a
// running server keeps per chunk text (pack's graph words and term tables,
// budget's dedup hashes). A text kept for the process (a kept file's
// chunk, pack/keptfiles.go) is named once: [Keep] remembers its key by the
// address and length of its bytes, so that [Of] answers it without
// hashing it again on every pack.
package textid

import (
	"hash/maphash"
	"sync"
	"unsafe"
)

// Key names a text: two seeded maphash sums of its bytes.
type Key [2]uint64

// maxKept bounds the texts Keep remembers (about 64 bytes each); past it
// the table starts again empty (their keys are then hashed again).
const maxKept = 1 << 18

var seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// at is where a text's bytes are: their address and length.
type at struct {
	p uintptr
	n int
}

// kept maps the bytes of the texts Keep named to their keys. Each entry
// holds its text, so that its bytes (immutable, as any string's) stay
// where they are for as long as the entry does: no other text can be at
// that address while it is kept, and a text found there is that text.
var kept = struct {
	sync.RWMutex
	m map[at]entry
}{m: map[at]entry{}}

type entry struct {
	s string
	k Key
}

func where(s string) at { return at{uintptr(unsafe.Pointer(unsafe.StringData(s))), len(s)} }

// Sum hashes s, without looking at what Keep remembers.
func Sum(s string) Key {
	return Key{maphash.String(seeds[0], s), maphash.String(seeds[1], s)}
}

// Of returns the key of s: remembered when s is a text Keep named (the
// same bytes at the same address), else hashed.
func Of(s string) Key {
	if s == "" {
		return Sum(s)
	}
	kept.RLock()
	e, ok := kept.m[where(s)]
	kept.RUnlock()
	if ok {
		return e.k
	}
	return Sum(s)
}

// Keep names s and remembers its key by where its bytes are, until Drop
// (the caller keeps s for longer than a pack and drops it when it lets it
// go; a dropped text no longer counts against the bound).
func Keep(s string) Key {
	k := Sum(s)
	if s == "" {
		return k
	}
	kept.Lock()
	defer kept.Unlock()
	if len(kept.m) >= maxKept {
		clear(kept.m)
	}
	kept.m[where(s)] = entry{s: s, k: k}
	return k
}

// Drop forgets s (a text Keep named); nothing when it is not kept.
func Drop(s string) {
	if s == "" {
		return
	}
	kept.Lock()
	defer kept.Unlock()
	w := where(s)
	if e, ok := kept.m[w]; ok && unsafe.StringData(e.s) == unsafe.StringData(s) {
		delete(kept.m, w)
	}
}

// Len is the number of texts kept (for tests).
func Len() int {
	kept.RLock()
	defer kept.RUnlock()
	return len(kept.m)
}
