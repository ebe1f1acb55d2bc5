package pack

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// asciiClass classifies the bytes of ASCII words for countTerms.
const (
	clOther = iota
	clLower
	clUpper
	clDigit
	clUnder
	clHigh // a byte of a multi-byte UTF-8 sequence
)

var asciiClasses = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case 'a' <= c && c <= 'z':
			t[c] = clLower
		case 'A' <= c && c <= 'Z':
			t[c] = clUpper
		case '0' <= c && c <= '9':
			t[c] = clDigit
		case c == '_':
			t[c] = clUnder
		case c >= utf8.RuneSelf:
			t[c] = clHigh
		}
	}
	return t
}()

// termCounter counts the occurrences of a few wanted terms in texts, with
// exactly the terms of [scanTerms] (stop words aside: wanted terms hold
// none), several times faster: ASCII words are split and filtered in one
// loop without calls, and only parts that pass the length and prefix
// filter are lowered and looked up. Words with other letters go through
// scanTerms itself.
type termCounter struct {
	lens  *lengths
	index map[string]int
	terms []string
	// ascii: every term is ASCII, so the prefilter of count applies.
	ascii bool
	head  []int16 // first term (index) by its two leading bytes; -1: none
	next  []int16 // next term with the same leading bytes
	// count's search (Wu–Manber with blocks of two bytes): a window of
	// win bytes (the shortest term's length, at most 255) moves on by
	// shift of its last two bytes (little-endian): 0 when the first win
	// bytes of a term end with them (a term may start at the window),
	// else how far it can move without passing a term's start: win-1 less
	// the farthest place they end at among the terms' first win bytes, or
	// win-1 when they are in none.
	win   int
	shift *[1 << 16]uint8
}

func newTermCounter(terms []string) *termCounter {
	c := &termCounter{lens: newLengths(terms), index: make(map[string]int, len(terms)), terms: terms,
		head: make([]int16, 1<<16), next: make([]int16, len(terms))}
	for i := range c.head {
		c.head[i] = -1
	}
	c.ascii = true
	for i, t := range terms {
		for j := 0; j < len(t); j++ {
			if t[j] >= utf8.RuneSelf {
				c.ascii = false
			}
		}
		if len(t) < 2 {
			c.ascii = false // no such term comes of scanTerms; count splits all
		}
		c.index[t] = i
		c.next[i] = -1
		if len(t) >= 2 {
			k := uint16(t[0])<<8 | uint16(t[1])
			c.next[i], c.head[k] = c.head[k], int16(i)
		}
	}
	if c.ascii && len(terms) > 0 {
		c.setShift()
	}
	return c
}

// setShift fills the window and shift table of count's search from the
// terms (all ASCII, of two bytes or more).
func (c *termCounter) setShift() {
	c.win = 255
	for _, t := range c.terms {
		c.win = min(c.win, len(t))
	}
	c.shift = new([1 << 16]uint8)
	far := uint8(c.win - 1)
	for b := range c.shift {
		c.shift[b] = far
	}
	for _, t := range c.terms {
		for q := 1; q < c.win; q++ {
			// Every case of the pair: the search reads the text as it is,
			// capitals and all (a capital of a term's letter stands for it).
			for _, x := range cases(t[q-1]) {
				for _, y := range cases(t[q]) {
					b := uint16(x) | uint16(y)<<8
					c.shift[b] = min(c.shift[b], uint8(c.win-1-q))
				}
			}
		}
	}
}

// cases is the byte ch and, for a small ASCII letter, its capital: the
// bytes that lowerASCII makes ch of (a capital itself is made of none, but
// standing for itself only makes the shift smaller, never wrong).
func cases(ch byte) []byte {
	if 'a' <= ch && ch <= 'z' {
		return []byte{ch, ch - 'a' + 'A'}
	}
	return []byte{ch}
}

func lowerASCII(ch byte) byte {
	if 'A' <= ch && ch <= 'Z' {
		return ch + 'a' - 'A'
	}
	return ch
}

// lookup returns the wanted term the ASCII part w (no underscores) becomes
// — lower-cased, a plural s removed — or -1.
func (c *termCounter) lookup(w string) int {
	n := len(w)
	if n < 2 {
		return -1
	}
	k := c.head[uint16(lowerASCII(w[0]))<<8|uint16(lowerASCII(w[1]))]
	if k < 0 {
		return -1
	}
	if n > 3 && lowerASCII(w[n-1]) == 's' && lowerASCII(w[n-2]) != 's' {
		n-- // a plural s: "carts" → "cart"
	}
	for ; k >= 0; k = c.next[k] {
		t := c.terms[k]
		if len(t) != n {
			continue
		}
		i := 2
		for i < n && lowerASCII(w[i]) == t[i] {
			i++
		}
		if i == n {
			return int(k)
		}
	}
	return -1
}

// countAll adds the occurrences of each wanted term in text to row,
// splitting every word of text.
func (c *termCounter) countAll(text string, row []uint16) {
	buf := make([]byte, 0, 64)
	add := func(k int) {
		if row[k] < math.MaxUint16 {
			row[k]++
		}
	}
	i := 0
	for i < len(text) {
		cl := asciiClasses[text[i]]
		if cl == clOther {
			i++
			continue
		}
		start := i
		high := false
		for i < len(text) {
			k := asciiClasses[text[i]]
			if k == clOther {
				break
			}
			if k == clHigh {
				high = true
			}
			i++
		}
		if high {
			// A word with other characters: let the general splitter decide
			// where it ends and what it yields.
			end := start
			for end < len(text) {
				if ch := text[end]; ch < utf8.RuneSelf {
					if asciiClasses[ch] == clOther {
						break
					}
					end++
					continue
				}
				r, size := utf8.DecodeRuneInString(text[end:])
				if !isWordRune(r) {
					break
				}
				end += size
			}
			if end == start {
				// A character that is not a letter or digit: skip it.
				_, size := utf8.DecodeRuneInString(text[start:])
				i = start + size
				continue
			}
			scanTerms(text[start:end], false, c.lens, func(t []byte) {
				if k, ok := c.index[string(t)]; ok {
					add(k)
				}
			})
			i = end
			continue
		}
		w := text[start:i]
		// Trim underscores at both ends, as scanTerms does.
		if w = strings.Trim(w, "_"); w == "" {
			continue
		}
		// The parts of forEachPartASCII, inline.
		parts, ps := 0, 0
		for j := 1; j < len(w); j++ {
			prev, cur := asciiClasses[w[j-1]], asciiClasses[w[j]]
			if cur == clUnder {
				if j > ps {
					parts++
					if k := c.lookup(w[ps:j]); k >= 0 {
						add(k)
					}
				}
				ps = j + 1
				continue
			}
			if prev == clUnder {
				continue
			}
			if wordBoundary(w, j, prev, cur) {
				parts++
				if k := c.lookup(w[ps:j]); k >= 0 {
					add(k)
				}
				ps = j
			}
		}
		if ps < len(w) {
			parts++
			if k := c.lookup(w[ps:]); k >= 0 {
				add(k)
			}
		}
		if parts > 1 {
			// The compound: the whole word without its underscores.
			buf = buf[:0]
			for j := 0; j < len(w); j++ {
				if w[j] != '_' {
					buf = append(buf, w[j])
				}
			}
			if k := c.lookup(unsafe.String(unsafe.SliceData(buf), len(buf))); k >= 0 {
				add(k)
			}
		}
	}
}

// termTable returns every term of text with its count, exactly as
// scanTerms(text, true, nil) yields them (stop words dropped).
func termTable(text string) map[string]int {
	tab := termTabs.Get().(*termTab)
	defer func() { tab.reset(); termTabs.Put(tab) }()
	tab.scan(text)
	out := make(map[string]int, len(tab.ents))
	for _, e := range tab.ents {
		out[string(tab.arena[e.off:e.off+e.n])] = int(e.count)
	}
	return out
}

// TermHash is one term of a file as an index stores it: its keyed hash
// (the index's own; never the term) and its count in the file.
type TermHash struct {
	Hash  uint64
	Count uint32
}

// termTab is every term of one text with its count (termTable's terms),
// kept without a string per term: the lowered terms lie end to end in one
// arena, found by a seeded hash in an open-addressing table. A scan worker
// reuses one for file after file (termTabs), so a file's table allocates
// nothing once the worker's buffers have grown.
type termTab struct {
	seed  maphash.Seed
	slots []int32 // entry index + 1; 0 empty; len a power of two
	ents  []termEnt
	arena []byte
	buf   []byte // the term being made
	total int    // occurrences, stop words dropped

	// Words: each distinct ASCII word of the text with the terms it
	// yields (entry indices in yields), so that a word met again is
	// counted without being split, lowered and hashed again.
	wslots []int32 // word index + 1; 0 empty; len a power of two
	words  []wordEnt
	warena []byte
	yields []int32
	rec    bool // add appends the entries it counts to yields
}

type wordEnt struct {
	h        uint64
	key      uint64 // a word of at most 8 bytes, packed (shortWord); 0 for longer ones
	off, n   uint32 // the word is warena[off : off+n]
	yOff, yN uint32 // its terms are yields[yOff : yOff+yN]
	slot     uint32
}

type termEnt struct {
	h      uint64 // seeded hash of the term
	off, n uint32 // the term is arena[off : off+n]
	count  uint32
	slot   uint32
}

func newTermTab() *termTab {
	return &termTab{seed: maphash.MakeSeed(), slots: make([]int32, 1024), wslots: make([]int32, 1024), buf: make([]byte, 0, 64)}
}

// termTabs are the tables of scanFiles' workers.
var termTabs = sync.Pool{New: func() any { return newTermTab() }}

// reset empties the table, keeping its buffers.
func (t *termTab) reset() {
	for _, e := range t.ents {
		t.slots[e.slot] = 0
	}
	t.ents, t.arena, t.total = t.ents[:0], t.arena[:0], 0
	if len(t.slots) > 1<<16 && len(t.slots) > 8*cap(t.ents) {
		t.slots = make([]int32, 1024) // after an outsized file
	}
	for _, w := range t.words {
		t.wslots[w.slot] = 0
	}
	t.words, t.warena, t.yields = t.words[:0], t.warena[:0], t.yields[:0]
	if len(t.wslots) > 1<<16 && len(t.wslots) > 8*cap(t.words) {
		t.wslots = make([]int32, 1024)
	}
}

// add counts the term b (already lowered, stop words dropped).
func (t *termTab) add(b []byte) {
	t.total++
	h := maphash.Bytes(t.seed, b)
	mask := uint32(len(t.slots) - 1)
	for s := uint32(h) & mask; ; s = (s + 1) & mask {
		k := t.slots[s]
		if k == 0 {
			t.ents = append(t.ents, termEnt{h: h, off: uint32(len(t.arena)), n: uint32(len(b)), count: 1, slot: s})
			t.arena = append(t.arena, b...)
			t.slots[s] = int32(len(t.ents))
			if t.rec {
				t.yields = append(t.yields, int32(len(t.ents)-1))
			}
			if 2*len(t.ents) > len(t.slots) {
				t.grow()
			}
			return
		}
		e := &t.ents[k-1]
		if e.h == h && string(t.arena[e.off:e.off+e.n]) == string(b) {
			e.count++
			if t.rec {
				t.yields = append(t.yields, k-1)
			}
			return
		}
	}
}

// growWords doubles the word table.
func (t *termTab) growWords() {
	t.wslots = rehash(len(t.wslots), len(t.words), func(i int) (uint64, *uint32) {
		return t.words[i].h, &t.words[i].slot
	})
}

// grow doubles the table.
func (t *termTab) grow() {
	t.slots = rehash(len(t.slots), len(t.ents), func(i int) (uint64, *uint32) {
		return t.ents[i].h, &t.ents[i].slot
	})
}

// rehash returns slots for an open-addressed table twice the size n,
// holding its n elems (slot i+1 for element i, linear probing from the
// hash's low bits); at(i) gives element i's hash and where it keeps its
// slot. It runs only when a table fills, so the call per element costs
// nothing on the scan.
func rehash(n, elems int, at func(i int) (uint64, *uint32)) []int32 {
	slots := make([]int32, 2*n)
	mask := uint32(len(slots) - 1)
	for i := range elems {
		h, slot := at(i)
		s := uint32(h) & mask
		for slots[s] != 0 {
			s = (s + 1) & mask
		}
		slots[s], *slot = int32(i+1), s
	}
	return slots
}

// count returns the count of term (0 when the text does not hold it).
func (t *termTab) count(term string) int {
	h := maphash.String(t.seed, term)
	mask := uint32(len(t.slots) - 1)
	for s := uint32(h) & mask; ; s = (s + 1) & mask {
		k := t.slots[s]
		if k == 0 {
			return 0
		}
		if e := &t.ents[k-1]; e.h == h && string(t.arena[e.off:e.off+e.n]) == term {
			return int(e.count)
		}
	}
}

// hashed returns every term as hash(term) with its count, in the order the
// text first used them.
func (t *termTab) hashed(hash func([]byte) uint64) []TermHash {
	out := make([]TermHash, len(t.ents))
	for i, e := range t.ents {
		out[i] = TermHash{Hash: hash(t.arena[e.off : e.off+e.n]), Count: e.count}
	}
	return out
}

// term lowers the ASCII part w (dropping underscores) and counts it as
// scanTerms would: not when shorter than two bytes or a stop word, a
// plural s removed.
func (t *termTab) term(w string) {
	buf := t.buf[:0]
	for j := 0; j < len(w); j++ {
		if ch := w[j]; ch != '_' {
			buf = append(buf, lowerASCII(ch))
		}
	}
	t.buf = buf
	if len(buf) < 2 || len(buf) <= 5 && isStopword(buf) {
		return
	}
	if len(buf) > 3 && buf[len(buf)-1] == 's' && buf[len(buf)-2] != 's' {
		buf = buf[:len(buf)-1]
	}
	t.add(buf)
}

// stopTable holds the stop words of at most 7 bytes packed as stopKey
// does, in open addressing by stopSlot: isStopword answers without a map
// lookup (term asks only about terms of at most 5 bytes, as termTable
// did).
var stopTable = func() (t [128]uint64) {
	for w := range stopwords {
		if len(w) > 7 {
			continue
		}
		k := stopKey([]byte(w))
		s := stopSlot(k)
		for t[s] != 0 {
			s = (s + 1) % uint64(len(t))
		}
		t[s] = k
	}
	return t
}()

// stopKey packs b (1–7 bytes) and its length into one word.
func stopKey(b []byte) uint64 {
	k := uint64(len(b))
	for i, c := range b {
		k |= uint64(c) << (8 * (i + 1))
	}
	return k
}

func stopSlot(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> 57 }

// isStopword reports whether b (at most 7 bytes) is one of stopwords.
func isStopword(b []byte) bool {
	k := stopKey(b)
	for s := stopSlot(k); ; s = (s + 1) % uint64(len(stopTable)) {
		switch stopTable[s] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// scan counts every term of text, exactly as scanTerms(text, true, nil)
// yields them. ASCII words take a loop that lowers each part into one
// buffer; words with other letters go through scanTerms itself.
func (t *termTab) scan(text string) {
	i := 0
	for i < len(text) {
		if asciiClasses[text[i]] == clOther {
			i++
			continue
		}
		start := i
		high := false
		for i < len(text) {
			k := asciiClasses[text[i]]
			if k == clOther {
				break
			}
			if k == clHigh {
				high = true
			}
			i++
		}
		if high {
			end := wordEnd(text, start)
			if end == start {
				_, size := utf8.DecodeRuneInString(text[start:])
				i = start + size
				continue
			}
			scanTerms(text[start:end], true, nil, t.add)
			i = end
			continue
		}
		if n := i - start; n <= 8 {
			// A short word is its own key: its bytes in one word (none
			// is zero), loaded at once where the text goes on for 8.
			var v uint64
			if start+8 <= len(text) {
				v = binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(text[start:]), 8))
				if n < 8 {
					v &= 1<<(8*n) - 1
				}
			} else {
				for j := i - 1; j >= start; j-- {
					v = v<<8 | uint64(text[j])
				}
			}
			t.shortWord(text[start:i], v)
			continue
		}
		t.word(text[start:i])
	}
}

// wordEnd is where the word of text that starts at start and holds a
// byte past ASCII ends: at the first ASCII byte of no word class or the
// first rune that is no word rune.
func wordEnd(text string, start int) int {
	end := start
	for end < len(text) {
		if ch := text[end]; ch < utf8.RuneSelf {
			if asciiClasses[ch] == clOther {
				break
			}
			end++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[end:])
		if !isWordRune(r) {
			break
		}
		end += size
	}
	return end
}

// shortWord is word for a word of at most 8 bytes packed in key (its
// bytes, little-endian): found by key alone, without hashing or comparing
// strings.
func (t *termTab) shortWord(w string, key uint64) {
	h := bits.RotateLeft64(key*0x9e3779b97f4a7c15, 32)
	mask := uint32(len(t.wslots) - 1)
	s := uint32(h) & mask
	for ; ; s = (s + 1) & mask {
		k := t.wslots[s]
		if k == 0 {
			break
		}
		if we := &t.words[k-1]; we.key == key {
			for _, e := range t.yields[we.yOff : we.yOff+we.yN] {
				t.ents[e].count++
			}
			t.total += int(we.yN)
			return
		}
	}
	t.newWord(w, h, key, s)
}

// word counts the terms of the ASCII word w: its parts and, when it has
// several, the compound. A word met before in the text counts the terms
// it yielded then.
func (t *termTab) word(w string) {
	h := maphash.String(t.seed, w)
	mask := uint32(len(t.wslots) - 1)
	s := uint32(h) & mask
	for ; ; s = (s + 1) & mask {
		k := t.wslots[s]
		if k == 0 {
			break
		}
		if we := &t.words[k-1]; we.h == h && string(t.warena[we.off:we.off+we.n]) == w {
			for _, e := range t.yields[we.yOff : we.yOff+we.yN] {
				t.ents[e].count++
			}
			t.total += int(we.yN)
			return
		}
	}
	t.newWord(w, h, 0, s)
}

// newWord splits w, counting its terms, and keeps it with them in slot s
// (h its hash, key its packing when short).
func (t *termTab) newWord(w string, h, key uint64, s uint32) {
	we := wordEnt{h: h, key: key, off: uint32(len(t.warena)), n: uint32(len(w)), yOff: uint32(len(t.yields)), slot: s}
	t.warena = append(t.warena, w...)
	t.rec = true
	t.split(w)
	t.rec = false
	we.yN = uint32(len(t.yields)) - we.yOff
	t.words = append(t.words, we)
	t.wslots[s] = int32(len(t.words))
	if 2*len(t.words) > len(t.wslots) {
		t.growWords()
	}
}

// split counts the terms of the ASCII word w.
func (t *termTab) split(w string) {
	w = strings.Trim(w, "_")
	if w == "" {
		return
	}
	parts, ps := 0, 0
	for j := 1; j < len(w); j++ {
		prev, cur := asciiClasses[w[j-1]], asciiClasses[w[j]]
		if cur == clUnder {
			if j > ps {
				parts++
				t.term(w[ps:j])
			}
			ps = j + 1
			continue
		}
		if prev == clUnder {
			continue
		}
		if wordBoundary(w, j, prev, cur) {
			parts++
			t.term(w[ps:j])
			ps = j
		}
	}
	if ps < len(w) {
		parts++
		t.term(w[ps:])
	}
	if parts > 1 {
		t.term(w)
	}
}

// wordBoundary reports whether a new part of the word w starts at j
// (prev and cur the classes of w[j-1] and w[j]): a capital after a small
// letter, the last capital of a run followed by a small letter, or a
// change between digits and letters.
func wordBoundary(w string, j int, prev, cur uint8) bool {
	return (prev == clLower && cur == clUpper) ||
		(prev == clUpper && cur == clUpper && j+1 < len(w) && asciiClasses[w[j+1]] == clLower) ||
		((prev == clDigit) != (cur == clDigit))
}

// count adds the occurrences of each wanted term in text to row, exactly
// as countAll does, splitting only the words a term can come of.
//
// countAll's counts are a sum over the maximal runs of word bytes (ASCII
// letters, digits, '_' and every byte ≥ 0x80): nothing it does looks past
// an ASCII byte of another kind. Every term a run yields — a part, a plural
// s removed, or the compound of the run's ASCII letters without its
// underscores — is, in ASCII lower case, a substring of the run lowered
// with its underscores removed, because the only non-ASCII letters that
// lower to ASCII ones are U+212A (K) and U+0130 (İ): texts holding them, and
// term lists with non-ASCII terms, take countAll. So count finds each term
// in text as lowered (hitRuns reads it case-folded, without a lowered
// copy), and splits only the runs holding a hit, plus the runs with an
// underscore whose underscore-free lowering holds a term.
func (c *termCounter) count(text string, row []uint16) {
	if !c.ascii || len(c.terms) == 0 || len(c.terms) > math.MaxInt16 || len(text) < countFastMin ||
		strings.Contains(text, "\u212a") || strings.Contains(text, "\u0130") {
		c.countAll(text, row)
		return
	}
	starts := c.hitRuns(text) // starts of the runs to split
	starts = c.underscoreRuns(text, starts)
	slices.Sort(starts)
	done := -1
	for _, s := range starts {
		if s == done {
			continue
		}
		done = s
		_, e := wordRun(text, s)
		c.countAll(text[s:e], row)
	}
}

// hitRuns returns the start of each run of word bytes of text that holds
// a term in text lowered (ASCII capitals), in order: one pass that finds
// the first place a term starts, splits nothing, and goes on after the run
// there (the run is split whole; text[e] is no word byte). The window of
// win bytes ending at j skips the places no term can start at (setShift,
// whose table holds every case of the terms' pairs), so every place a
// term starts at is found, in order, as a byte-by-byte search of the
// lowered text would (TestTermCounterMatchesScanTerms). The text is read
// as it is: lowering a copy of it cost more than the search (first12).
func (c *termCounter) hitRuns(text string) []int {
	var starts []int
	for j := c.win - 1; ; {
		i := c.nextHit(text, j)
		if i < 0 {
			return starts
		}
		s, e := wordRun(text, i)
		starts = append(starts, s)
		j = e + c.win // the next window starts after the run
	}
}

// nextHit returns the first place a term starts in text lowered (ASCII
// capitals) whose window ends at j or later (see hitRuns), or -1.
func (c *termCounter) nextHit(text string, j int) int {
	m := c.win
	for j < len(text) {
		if sh := c.shift[uint16(text[j-1])|uint16(text[j])<<8]; sh > 0 {
			j += int(sh)
			continue
		}
		i := j - m + 1
		j++
		for k := c.head[uint16(lowerASCII(text[i]))<<8|uint16(lowerASCII(text[i+1]))]; k >= 0; k = c.next[k] {
			if hasLowerPrefix(text[i:], c.terms[k]) {
				return i
			}
		}
	}
	return -1
}

// underscoreRuns appends to starts (hitRuns' runs of text, in order) the
// start of each other run with an underscore whose lowering without its
// underscores holds a term.
func (c *termCounter) underscoreRuns(text string, starts []int) []int {
	hits, h := len(starts), 0 // starts[:hits]: hitRuns', in order
	var strip []byte
	for off := 0; ; {
		j := strings.IndexByte(text[off:], '_')
		if j < 0 {
			break
		}
		s, e := wordRun(text, off+j)
		off = e
		for h < hits && starts[h] < s {
			h++
		}
		if h < hits && starts[h] == s {
			continue // split already
		}
		strip = strip[:0]
		for k := s; k < e; k++ {
			if text[k] != '_' {
				strip = append(strip, lowerASCII(text[k]))
			}
		}
		if c.holds(unsafe.String(unsafe.SliceData(strip), len(strip))) {
			starts = append(starts, s)
		}
	}
	return starts
}

// holds reports whether a term occurs in ls (ASCII, lowered), as
// strings.Contains of each term would: hitRuns' search, to the first hit.
func (c *termCounter) holds(ls string) bool {
	return c.nextHit(ls, c.win-1) >= 0
}

// hasLowerPrefix reports whether text, its ASCII capitals lowered, starts
// with t.
func hasLowerPrefix(text, t string) bool {
	if len(text) < len(t) {
		return false
	}
	for k := 0; k < len(t); k++ {
		if lowerASCII(text[k]) != t[k] {
			return false
		}
	}
	return true
}

// wordRun returns the maximal run of word bytes (not ASCII bytes of class
// clOther) around text[p], which is a word byte.
func wordRun(text string, p int) (start, end int) {
	start, end = p, p
	for start > 0 && asciiClasses[text[start-1]] != clOther {
		start--
	}
	for end < len(text) && asciiClasses[text[end]] != clOther {
		end++
	}
	return start, end
}

// countFastMin is the shortest text count lowers and searches whole; a
// shorter one is split word by word (countAll). On net/http's chunks
// (mostly 100–500 bytes) a threshold of 64 bytes counted 20–30 % faster
// than one of 512.
const countFastMin = 64
