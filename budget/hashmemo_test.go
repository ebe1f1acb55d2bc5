package budget

import (
	"strings"
	"testing"
)

// TestRememberedHash: a remembered hash is the computed one, asked first
// or again, for texts on both sides of hashMemoMin and texts that differ
// only in white space (the same hash) or in one byte (another).
func TestRememberedHash(t *testing.T) {
	long := strings.Repeat("func f() {\n\treturn 1\n}\n", 20)
	texts := []string{"", "a  b", long, strings.ReplaceAll(long, "\t", "    "), long[:len(long)-2] + "x}", strings.Repeat("é ", hashMemoMin)}
	for round := 0; round < 2; round++ {
		for _, text := range texts {
			if got, want := NormalizedHash(text), normalizedHash(text); got != want {
				t.Errorf("round %d: NormalizedHash(%.20q…) = %x, want %x", round, text, got, want)
			}
		}
	}
	if NormalizedHash(texts[2]) != NormalizedHash(texts[3]) {
		t.Error("texts differing in white space only hash apart")
	}
	if NormalizedHash(texts[2]) == NormalizedHash(texts[4]) {
		t.Error("texts differing in a byte hash alike")
	}
}
