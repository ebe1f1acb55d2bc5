package index

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"testing"
)

// TestCtrSmallIsCTR: the block-by-block key stream of short texts is
// cipher.NewCTR's, for every length up to smallCTR and counter blocks
// whose low bytes carry over (0xff…).
func TestCtrSmallIsCTR(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	enc, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	ivs := [][aes.BlockSize]byte{
		{},
		{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 9, 0, 0, 0, 1},
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	}
	for _, iv := range ivs {
		for n := 0; n <= smallCTR; n++ {
			text := make([]byte, n)
			for i := range text {
				text[i] = byte(i*31 + n)
			}
			want := bytes.Clone(text)
			cipher.NewCTR(enc, iv[:]).XORKeyStream(want, want)
			got := bytes.Clone(text)
			ctrSmall(enc, iv, got)
			if !bytes.Equal(got, want) {
				t.Fatalf("iv %x, %d bytes: ctrSmall differs from cipher.NewCTR", iv, n)
			}
		}
	}
}
