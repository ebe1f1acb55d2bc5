package pack

import (
	"slices"
	"strings"
	"testing"
)

// TestGraphWords: graphWords gives the identifiers graphUses used to take
// from identifiers (at least graphMinName long), each at its first use,
// whether the text is short, seen first (scanned), second (remembered)
// or later (from the memo).
func TestGraphWords(t *testing.T) {
	long := strings.Repeat("func serveHTTP(w ResponseWriter, r *Request) { handler.ServeHTTP(w, r); x := y }\n", 8)
	for _, text := range []string{"", "a bb ccc dddd eeeee dddd", long, long + "newWord"} {
		var want []string
		identifiers(text, func(w string) {
			if len(w) >= graphMinName && !slices.Contains(want, w) {
				want = append(want, w)
			}
		})
		for round := 0; round < 3; round++ { // scanned, remembered, from the memo
			var got []string
			graphWords(text, func(w string) {
				if !slices.Contains(got, w) {
					got = append(got, w)
				}
			})
			if !slices.Equal(got, want) {
				t.Errorf("round %d: graphWords(%.20q…) = %q, want %q", round, text, got, want)
			}
		}
	}
}
