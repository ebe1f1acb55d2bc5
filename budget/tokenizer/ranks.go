package tokenizer

import (
	"bytes"
	"fmt"
	"math/bits"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// noRank is the rank of a byte string that is not a token.
const noRank = ^uint32(0)

// rankTable maps the byte strings of an encoding's tokens to their ranks:
// one arena holding every token's bytes and an open-addressing hash table
// (linear probing, load ≤ 0.5) over it. It is built once and read-only
// afterwards, so lookups are safe for concurrent use.
type rankTable struct {
	slots []uint64 // hash tag<<32 | entry+1; 0 is empty
	mask  uint64
	arena string   // token bytes, entry e at arena[off[e]:off[e+1]]
	off   []uint32 // len(rank)+1 offsets
	rank  []uint32
	pair  []uint32 // rank of every 2-byte string, indexed by b0<<8|b1
}

// loadRanks builds the rank table of an encoding from the
// tiktoken-go-loader's embedded assets ("<name>.tiktoken": one
// "base64(token) rank" per line). No network is ever used.
func loadRanks(name string) (*rankTable, error) {
	data, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return nil, fmt.Errorf("tokenizer: read ranks of %s: %w", name, err)
	}
	n := bytes.Count(data, []byte{'\n'}) + 1
	arena := make([]byte, 0, len(data)*3/4)
	t := &rankTable{off: make([]uint32, 0, n+1), rank: make([]uint32, 0, n)}
	for lineNo := 1; len(data) > 0; lineNo++ {
		line := data
		if k := bytes.IndexByte(data, '\n'); k >= 0 {
			line, data = data[:k], data[k+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			continue
		}
		sp := bytes.IndexByte(line, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("tokenizer: ranks of %s: line %d: no space", name, lineNo)
		}
		at := len(arena)
		var ok bool
		if arena, ok = decodeBase64(arena, line[:sp]); !ok {
			return nil, fmt.Errorf("tokenizer: ranks of %s: line %d: bad base64", name, lineNo)
		}
		r, ok := parseRank(line[sp+1:])
		if !ok || len(arena) == at {
			return nil, fmt.Errorf("tokenizer: ranks of %s: line %d: bad entry", name, lineNo)
		}
		t.off = append(t.off, uint32(at))
		t.rank = append(t.rank, r)
	}
	t.off = append(t.off, uint32(len(arena)))
	t.arena = string(arena)
	if err := t.build(); err != nil {
		return nil, fmt.Errorf("tokenizer: ranks of %s: %w", name, err)
	}
	return t, nil
}

// build fills the hash table and the 2-byte table from arena, off and rank.
func (t *rankTable) build() error {
	t.pair = make([]uint32, 1<<16)
	for i := range t.pair {
		t.pair[i] = noRank
	}
	size := uint64(1) << bits.Len(uint(2*len(t.rank)))
	t.slots = make([]uint64, size)
	t.mask = size - 1
	hashes := make([]uint64, len(t.rank))
	for e := range t.rank {
		key := t.arena[t.off[e]:t.off[e+1]]
		hashes[e] = hashString(key)
		if len(key) == 2 {
			t.pair[uint16(key[0])<<8|uint16(key[1])] = t.rank[e]
		}
	}
	// Insert by home slot (a counting sort on its top bits), so the
	// writes sweep the table instead of landing at random: the same
	// entries are found by get whatever the order of insertion.
	for _, e := range byHome(hashes, t.mask) {
		if err := t.insert(hashes[e], e); err != nil {
			return err
		}
	}
	return nil
}

// insert puts entry e, whose key hashes to h, in the table.
func (t *rankTable) insert(h uint64, e uint32) error {
	tag := h &^ 0xFFFFFFFF
	i := h & t.mask
	for v := t.slots[i]; v != 0; v = t.slots[i] {
		if v&^0xFFFFFFFF == tag && t.key(v) == t.arena[t.off[e]:t.off[e+1]] {
			return fmt.Errorf("duplicate token %q", t.key(v))
		}
		i = (i + 1) & t.mask
	}
	t.slots[i] = tag | uint64(e+1)
	return nil
}

// homeBuckets is how many ranges of home slots byHome sorts entries into.
const homeBuckets = 1 << 10

// byHome returns the entries 0..len(hashes)-1 ordered by the bucket of
// their home slot (hash & mask), in entry order within a bucket.
func byHome(hashes []uint64, mask uint64) []uint32 {
	shift := max(0, bits.Len64(mask)-bits.Len(homeBuckets-1))
	var start [homeBuckets + 1]uint32
	for _, h := range hashes {
		start[(h&mask)>>shift+1]++
	}
	for b := 1; b <= homeBuckets; b++ {
		start[b] += start[b-1]
	}
	order := make([]uint32, len(hashes))
	for e, h := range hashes {
		b := (h & mask) >> shift
		order[start[b]] = uint32(e)
		start[b]++
	}
	return order
}

// b64Value maps the bytes of the standard base64 alphabet to their
// 6-bit values, every other byte to 0xFF.
var b64Value = func() (v [256]byte) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range v {
		v[i] = 0xFF
	}
	for i := range len(alphabet) {
		v[alphabet[i]] = byte(i)
	}
	return v
}()

// decodeBase64 appends to dst the bytes of src in padded standard base64
// (what base64.StdEncoding.Decode accepts for a text without line breaks:
// groups of 4, "=" padding only in the last group), reporting whether src
// was valid. It spares the per-call work of encoding/base64 on the short
// texts of a rank file.
func decodeBase64(dst, src []byte) ([]byte, bool) {
	if len(src)%4 != 0 {
		return dst, false
	}
	for i := 0; i < len(src); i += 4 {
		a, b := b64Value[src[i]], b64Value[src[i+1]]
		c, d := b64Value[src[i+2]], b64Value[src[i+3]]
		if (a|b|c|d)&0xC0 == 0 { // four alphabet bytes
			dst = append(dst, a<<2|b>>4, b<<4|c>>2, c<<6|d)
			continue
		}
		if i+4 != len(src) || (a|b)&0xC0 != 0 {
			return dst, false
		}
		switch {
		case src[i+2] == '=' && src[i+3] == '=':
			dst = append(dst, a<<2|b>>4)
		case c&0xC0 == 0 && src[i+3] == '=':
			dst = append(dst, a<<2|b>>4, b<<4|c>>2)
		default:
			return dst, false
		}
	}
	return dst, true
}

// parseRank parses a decimal rank.
func parseRank(b []byte) (uint32, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	var r uint32
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		r = r*10 + uint32(c-'0')
	}
	return r, true
}

// key returns the token bytes of a non-empty slot.
func (t *rankTable) key(slot uint64) string {
	e := uint32(slot) - 1
	return t.arena[t.off[e]:t.off[e+1]]
}

// get returns the rank of the token s, or noRank.
func (t *rankTable) get(s string) uint32 {
	if len(s) == 2 {
		return t.pair[uint16(s[0])<<8|uint16(s[1])]
	}
	h := hashString(s)
	tag := h &^ 0xFFFFFFFF
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		v := t.slots[i]
		if v == 0 {
			return noRank
		}
		if v&^0xFFFFFFFF == tag {
			e := uint32(v) - 1
			if t.arena[t.off[e]:t.off[e+1]] == s {
				return t.rank[e]
			}
		}
	}
}

// len returns the number of tokens.
func (t *rankTable) len() int { return len(t.rank) }

// hashString is a fast non-cryptographic hash for short byte strings
// (8-byte words folded with a multiply, then a murmur3 finaliser).
func hashString(s string) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(len(s)) * m
	for len(s) >= 8 {
		_ = s[7]
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = bits.RotateLeft64((h^w)*m, 31)
		s = s[8:]
	}
	var w uint64
	switch len(s) {
	case 7:
		w |= uint64(s[6]) << 48
		fallthrough
	case 6:
		w |= uint64(s[5]) << 40
		fallthrough
	case 5:
		w |= uint64(s[4]) << 32
		fallthrough
	case 4:
		w |= uint64(s[3]) << 24
		fallthrough
	case 3:
		w |= uint64(s[2]) << 16
		fallthrough
	case 2:
		w |= uint64(s[1]) << 8
		fallthrough
	case 1:
		w |= uint64(s[0])
		h = (h ^ w) * m
	}
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	h *= 0xC4CEB9FE1A85EC53
	h ^= h >> 33
	return h
}
