package index

import (
	"encoding/binary"
	"math/bits"
)

// sipKey is a 128-bit SipHash key. SipHash-2-4 (Aumasson and Bernstein,
// "SipHash: a fast short-input PRF", 2012) is a keyed hash made for short
// inputs: without the key, a hash says nothing of its input, so a stored
// term hash cannot be reversed by hashing a dictionary.
type sipKey struct{ k0, k1 uint64 }

func sipKeyOf(b []byte) sipKey {
	return sipKey{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

// sum64 is SipHash-2-4 of s under k.
func (k sipKey) sum64(s string) uint64 {
	v0 := k.k0 ^ 0x736f6d6570736575
	v1 := k.k1 ^ 0x646f72616e646f6d
	v2 := k.k0 ^ 0x6c7967656e657261
	v3 := k.k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(s)
	for ; len(s) >= 8; s = s[8:] {
		m := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		v3 ^= m
		round()
		round()
		v0 ^= m
	}
	m := uint64(n) << 56
	for i := 0; i < len(s); i++ {
		m |= uint64(s[i]) << (8 * i)
	}
	v3 ^= m
	round()
	round()
	v0 ^= m
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}
