package index

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"os"
	"path/filepath"
	"strings"
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
			sc := &ctrScratch{iv: iv}
			sc.xor(enc, got)
			if !bytes.Equal(got, want) {
				t.Fatalf("iv %x, %d bytes: the small path differs from cipher.NewCTR", iv, n)
			}
		}
	}
}

// TestPathIs: a segment's path comparison without a copy (short paths
// decrypted on the stack) finds each stored path, short or longer than
// smallCTR, and no other: the record of a path is not another path of
// the same length, a prefix of it, or it with one byte changed.
func TestPathIs(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	var paths []string
	for _, name := range []string{"a.go", strings.Repeat("d", 200) + "/b.go", strings.Repeat("e", 250) + "/" + strings.Repeat("f", 250) + "/c.go"} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, p, "package p // alpha beta\n")
		paths = append(paths, p)
	}
	if len(paths[2]) <= smallCTR || len(paths[0]) > smallCTR {
		t.Fatalf("paths of %d and %d bytes do not straddle smallCTR", len(paths[0]), len(paths[2]))
	}
	x := openTest(t, root, dir)
	for _, p := range paths {
		put(t, x, p)
	}
	if err := x.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(x.segs) == 0 {
		t.Fatal("no segment written")
	}
	for _, seg := range x.segs {
		for _, p := range paths {
			i := seg.find(p, x.k.pathHash(p))
			if i < 0 {
				t.Fatalf("%d-byte path not found", len(p))
			}
			flipped := []byte(p)
			flipped[len(p)/2] ^= 1
			for _, q := range []string{p, p[:len(p)-1], string(flipped), strings.Repeat("x", len(p))} {
				if got, want := seg.pathIs(i, q), string(seg.pathBytes(i)) == q; got != want || q == p && !got {
					t.Fatalf("%d-byte path against a %d-byte one: pathIs %v, pathBytes says %v", len(p), len(q), got, want)
				}
			}
		}
	}
}
