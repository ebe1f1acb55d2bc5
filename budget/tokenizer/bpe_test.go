package tokenizer

import (
	"math/rand/v2"
	"testing"
)

// TestMergeLargeMatchesSmall checks that the heap merge and tiktoken's
// quadratic scan count every piece that both can take alike.
func TestMergeLargeMatchesSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, name := range officialEncodings {
		if err := encoders[name].load(); err != nil {
			t.Fatal(err)
		}
		tab := encoders[name].ranks
		t.Run(name, func(t *testing.T) {
			for i := range 2000 {
				b := make([]byte, 2+r.IntN(smallPiece-1))
				for k := range b {
					b[k] = byte(r.IntN(256))
				}
				p := fromPalette(b)
				if i%2 == 0 {
					p = toValidUTF8(string(b))
				}
				if len(p) > smallPiece {
					p = p[:smallPiece]
				}
				if len(p) < 2 {
					continue
				}
				if small, large := tab.mergeSmall(p), tab.mergeLarge(p); small != large {
					t.Errorf("piece %q: mergeSmall = %d, mergeLarge = %d", p, small, large)
				}
			}
		})
	}
}
