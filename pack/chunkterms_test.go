package pack

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestCountRemembered: the query's term counts of a chunk are the scan's
// whether the chunk is seen for the first time (scanned), the second
// (its table built) or later (remembered), for terms that are plurals,
// compounds, camel-case parts and absent; and they add to the row.
func TestCountRemembered(t *testing.T) {
	body := strings.Repeat("func (s *Server) closeIdleConns() { s.idle_conns = nil; timeouts++ } // Idle connections time out\n", 6)
	texts := []string{"short idle text", body, body + "ünïcode Idle überTimeout", strings.Repeat("cart ", 70000)}
	terms := []string{"idle", "conn", "timeout", "server", "absent", "cart", "ünïcode"}
	q := &query{index: map[string]int{}, lens: newLengths(terms)}
	for i, term := range terms {
		q.index[term] = i
	}
	for _, text := range texts {
		want := make([]uint16, len(terms))
		scanTerms(text, false, q.lens, func(tm []byte) {
			if i, ok := q.index[string(tm)]; ok && want[i] < math.MaxUint16 {
				want[i]++
			}
		})
		for round := 0; round < 3; round++ {
			got := make([]uint16, len(terms))
			q.count(text, got)
			if !slices.Equal(got, want) {
				t.Errorf("round %d, %.20q…: counts %v, want %v", round, text, got, want)
			}
		}
		got := []uint16{1, 0, 0, 0, 0, 0, 0}
		q.count(text, got)
		if got[0] != min(want[0]+1, math.MaxUint16) {
			t.Errorf("%.20q…: count added to 1 gives %d, want %d", text, got[0], want[0]+1)
		}
	}
}
