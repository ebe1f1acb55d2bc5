package tokenizer

import (
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// hfModel counts tokens of a Hugging Face BPE tokenizer (a tokenizer.json
// of model type "BPE") the way Hugging Face tokenizers do, content only:
//
//  1. non-special added tokens are split out of the raw text (longest match
//     at each position) and cost one token each; special ones (BOS, chat
//     markers) are ordinary text;
//  2. each remaining section is normalized (NFC, or " " → "▁" for
//     SentencePiece-style models), and added tokens marked "normalized" are
//     split out of it;
//  3. the pre-tokenizer cuts it into pieces (hf_split.go);
//  4. each piece is merged: its parts (bytes for byte-level models,
//     characters otherwise) start as tokens and the adjacent pair with the
//     lowest merge rank — the pair's index in the merges list — is joined
//     until no adjacent pair has a merge (the leftmost pair on ties). This is
//     merge-pair BPE, not tiktoken's rank-of-the-concatenation BPE: a pair
//     whose concatenation is a token but which is not in the merges list is
//     never joined.
type hfModel struct {
	spec         string // what the counts are exact for
	byteLevel    bool   // parts are bytes (GPT-2 byte-level); else characters
	pre          string // preLlama3, …
	norm         string // normNone, normNFC, normMetaspace
	ignoreMerges bool   // a piece that is a token is one token
	byteFallback bool   // a character that is not a token costs its UTF-8 bytes
	unk          bool   // an unknown character costs one token (fused with neighbours)

	vocab     *rankTable // token bytes → id
	byteID    [256]uint32
	metaID    uint32 // id of "▁" (SentencePiece-style), noRank if none
	merges    mergeTable
	addedRaw  *addedSet
	addedNorm *addedSet
	self      []uint32 // per id, atomically: 0 not yet known, else 1 + the merge count of the token's own bytes
}

// Pre-tokenizers and normalizers an hfModel implements.
const (
	preLlama3   = "llama3"
	preQwen3    = "qwen3"
	preDeepseek = "deepseek_v3"
	preNone     = "none"

	normNone      = ""
	normNFC       = "nfc"
	normMetaspace = "metaspace"
)

// count returns the number of tokens of text (valid UTF-8).
func (m *hfModel) count(text string) int {
	n := 0
	m.addedRaw.split(text, func(sec string, added bool) {
		if added {
			n++
			return
		}
		n += m.countSection(sec)
	})
	return n
}

// countSection counts a section of text between added tokens.
func (m *hfModel) countSection(sec string) int {
	switch m.norm {
	case normNFC:
		sec = nfc(sec)
	case normMetaspace:
		if m.addedNorm.empty() {
			return m.countSP(sec) // maps ' ' to "▁" on the fly
		}
		sec = strings.ReplaceAll(sec, " ", "▁")
	}
	if m.addedNorm.empty() {
		return m.countNormalized(sec)
	}
	n := 0
	m.addedNorm.split(sec, func(s string, added bool) {
		if added {
			n++
			return
		}
		n += m.countNormalized(s)
	})
	return n
}

// countNormalized pre-tokenizes a normalized section and counts its pieces.
func (m *hfModel) countNormalized(s string) int {
	if !m.byteLevel {
		return m.countSP(s)
	}
	n := 0
	switch m.pre {
	case preDeepseek:
		for i := 0; i < len(s); {
			e, whole := deepseekSegment(s, i)
			if whole {
				n += m.countPiece(s[i:e])
			} else {
				seg := s[i:e]
				for k := 0; k < len(seg); {
					j := nextDeepseekRest(seg, k)
					n += m.countPiece(seg[k:j])
					k = j
				}
			}
			i = e
		}
		return n
	case preNone:
		if s == "" {
			return 0
		}
		return m.countPiece(s)
	}
	split := nextLlama3
	switch m.pre {
	case preQwen3:
		split = nextQwen3
	}
	for i := 0; i < len(s); {
		j := split(s, i)
		n += m.countPiece(s[i:j])
		i = j
	}
	return n
}

// countPiece merges one byte-level piece.
func (m *hfModel) countPiece(p string) int {
	if len(p) == 1 {
		return 1
	}
	if id := m.vocab.get(p); id != noRank {
		if m.ignoreMerges {
			return 1
		}
		if c := atomic.LoadUint32(&m.self[id]); c != 0 {
			return int(c - 1)
		}
		c := m.mergeBytes(p)
		atomic.StoreUint32(&m.self[id], uint32(c+1))
		return c
	}
	return m.mergeBytes(p)
}

// mergeBytes runs the merge over the bytes of p.
func (m *hfModel) mergeBytes(p string) int {
	if len(p) <= smallPiece {
		var ids [smallPiece]uint32
		for i := 0; i < len(p); i++ {
			ids[i] = m.byteID[p[i]]
		}
		return m.merges.mergeSmall(ids[:len(p)])
	}
	ids := make([]uint32, len(p))
	for i := 0; i < len(p); i++ {
		ids[i] = m.byteID[p[i]]
	}
	return m.merges.mergeLarge(ids)
}

// countSP counts a section of a character-level (SentencePiece-style) model:
// the whole section is one word, ' ' stands for "▁" (the normalizer), and a
// character that is not a token splits the word and costs its UTF-8 bytes
// (byte fallback) or one token (unk; a run of them fused into one).
func (m *hfModel) countSP(s string) int {
	var stack [smallPiece]uint32
	ids := stack[:0]
	if len(s) > smallPiece {
		ids = make([]uint32, 0, len(s))
	}
	n := 0
	lastUnk := false
	for i := 0; i < len(s); {
		id, w := uint32(0), 1
		if c := s[i]; c < utf8.RuneSelf {
			if c == ' ' {
				id = m.metaID
			} else {
				id = m.byteID[c]
			}
		} else {
			_, w = utf8.DecodeRuneInString(s[i:])
			id = m.vocab.get(s[i : i+w])
		}
		i += w
		if id == noRank {
			n += m.merges.mergeWord(ids)
			ids = ids[:0]
			switch {
			case m.byteFallback:
				n += w
			case m.unk && !lastUnk:
				n++
			}
			lastUnk = !m.byteFallback
			continue
		}
		lastUnk = false
		ids = append(ids, id)
	}
	return n + m.merges.mergeWord(ids)
}

// mergeWord merges ids in place and returns the number of tokens left.
func (t *mergeTable) mergeWord(ids []uint32) int {
	switch {
	case len(ids) <= 1:
		return len(ids)
	case len(ids) <= smallPiece:
		return t.mergeSmall(ids)
	}
	return t.mergeLarge(ids)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// noMerge is the mergeTable value of a pair that has no merge.
const noMerge = ^uint64(0)

// mergeTable maps a pair of token ids (left, right) to rank<<32 | merged id:
// open addressing with linear probing, load ≤ 0.5; key and value of a slot
// are adjacent (one cache line per probe).
type mergeTable struct {
	slots []mergeSlot
	shift uint
}

type mergeSlot struct {
	key uint64 // (left+1)<<32 | right; 0 is empty
	val uint64
}

func newMergeTable(n int) mergeTable {
	size := 1
	bitsN := uint(0)
	for size < 2*n+2 {
		size <<= 1
		bitsN++
	}
	return mergeTable{slots: make([]mergeSlot, size), shift: 64 - bitsN}
}

// put sets the merge of (a, b); a later put of the same pair wins, as in
// Hugging Face tokenizers for JavaScript (a Map built in list order).
func (t *mergeTable) put(a, b uint32, rank, id uint32) {
	k := uint64(a+1)<<32 | uint64(b)
	mask := uint64(len(t.slots) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.key == 0 || s.key == k {
			s.key, s.val = k, uint64(rank)<<32|uint64(id)
			return
		}
	}
}

// get returns rank<<32 | merged id of (a, b), or noMerge.
func (t *mergeTable) get(a, b uint32) uint64 {
	k := uint64(a+1)<<32 | uint64(b)
	mask := uint64(len(t.slots) - 1)
	for i := (k * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch s.key {
		case k:
			return s.val
		case 0:
			return noMerge
		}
	}
}

// mergeSmall merges ids (len ≤ smallPiece) in place with a linear scan per
// step and returns the number of tokens left.
func (t *mergeTable) mergeSmall(ids []uint32) int {
	n := len(ids)
	var rk [smallPiece]uint64
	for i := 0; i+1 < n; i++ {
		rk[i] = t.get(ids[i], ids[i+1])
	}
	for n > 1 {
		best, bi := noMerge, -1
		for i := 0; i+1 < n; i++ {
			if rk[i] < best {
				best, bi = rk[i], i
			}
		}
		if bi < 0 {
			break
		}
		ids[bi] = uint32(best)
		copy(ids[bi+1:n-1], ids[bi+2:n])
		copy(rk[bi+1:n-1], rk[bi+2:n])
		n--
		if bi+1 < n {
			rk[bi] = t.get(ids[bi], ids[bi+1])
		} else {
			rk[bi] = noMerge
		}
		if bi > 0 {
			rk[bi-1] = t.get(ids[bi-1], ids[bi])
		}
	}
	return n
}

// mergeLarge is the same merge in O(n log n): parts form a linked list and
// candidate pairs sit in a min-heap ordered by (rank, position); entries
// whose pair has changed since they were pushed are skipped when popped.
func (t *mergeTable) mergeLarge(ids []uint32) int {
	n := len(ids)
	next := make([]int32, n)
	prev := make([]int32, n)
	cur := make([]uint64, n) // cur[b]: the merge of the pair starting at part b
	h := pairHeap(make([]uint64, 0, n))
	for b := range n {
		next[b], prev[b] = int32(b+1), int32(b-1)
		cur[b] = noMerge
		if b+1 < n {
			if v := t.get(ids[b], ids[b+1]); v != noMerge {
				cur[b] = v
				h = append(h, v&^0xFFFFFFFF|uint64(b))
			}
		}
	}
	h.init()
	parts := n
	for len(h) > 0 {
		top := h.pop()
		b := int32(uint32(top))
		if cur[b] == noMerge || cur[b]>>32 != top>>32 {
			continue // stale
		}
		m := next[b]
		ids[b] = uint32(cur[b])
		cur[m] = noMerge
		next[b] = next[m]
		if int(next[m]) < n {
			prev[next[m]] = b
		}
		parts--
		cur[b] = noMerge
		if nb := next[b]; int(nb) < n {
			if v := t.get(ids[b], ids[nb]); v != noMerge {
				cur[b] = v
				h.push(v&^0xFFFFFFFF | uint64(b))
			}
		}
		if pb := prev[b]; pb >= 0 {
			cur[pb] = noMerge
			if v := t.get(ids[pb], ids[b]); v != noMerge {
				cur[pb] = v
				h.push(v&^0xFFFFFFFF | uint64(pb))
			}
		}
	}
	return parts
}
