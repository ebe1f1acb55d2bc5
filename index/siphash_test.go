package index

import "testing"

// TestSipHashVectors checks sum64 against the reference vectors of the
// SipHash paper (key 00 01 … 0f, message 00 01 … n-1).
func TestSipHashVectors(t *testing.T) {
	var key [16]byte
	for i := range key {
		key[i] = byte(i)
	}
	k := sipKeyOf(key[:])
	msg := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i)
		}
		return string(b)
	}
	for _, tc := range []struct {
		n    int
		want uint64
	}{
		{0, 0x726fdb47dd0e0e31},
		{8, 0x93f5f5799a932462},
		{15, 0xa129ca6149be45e5},
	} {
		if got := k.sum64(msg(tc.n)); got != tc.want {
			t.Errorf("SipHash-2-4 of %d bytes = %#x, want %#x", tc.n, got, tc.want)
		}
	}
}
