package chunker

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestPartOfIsSscanf: partOf reads "Name (part i/n)" exactly as
// fmt.Sscanf(" (part %d/%d)") did, on the names the layout makes and on
// random tails of digits, signs, spaces of every kind, separators and
// numbers past an int's range.
func TestPartOfIsSscanf(t *testing.T) {
	sscanf := func(name string) (string, int, int, bool) {
		k := strings.LastIndex(name, " (part ")
		if k < 0 || !strings.HasSuffix(name, ")") {
			return "", 0, 0, false
		}
		var i, n int
		if _, err := fmt.Sscanf(name[k:], " (part %d/%d)", &i, &n); err != nil {
			return "", 0, 0, false
		}
		return name[:k], i, n, true
	}
	names := []string{"Server.Serve (part 1/3)", "f (part 12/12)", "f (part 1/2) (part 2/2)", "(part 1/2)", "x (part 1/2", "x (part /2)",
		"x (part 1/)", "x (part 1 /2)", "x (part  1/ 2)", "x (part +1/-2)", "x (part 99999999999999999999/1)", "x (part 1/2) tail)"}
	pieces := []string{"0", "1", "7", "42", "9223372036854775807", "9223372036854775808", "-", "+", " ", "  ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u0085",
		"/", ")", "(", "x", "_", "0x1f", "1_0", "٣", "part", " (part "}
	rng := rand.New(rand.NewSource(1))
	for len(names) < 200000 {
		var b strings.Builder
		b.WriteString("Name (part ")
		if rng.Intn(2) == 0 { // near the layout's form
			fmt.Fprintf(&b, "%d/%d", rng.Intn(30), rng.Intn(30))
		}
		for j := rng.Intn(4); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		if rng.Intn(4) > 0 {
			b.WriteString(")")
		}
		names = append(names, b.String())
	}
	matched := 0
	for _, name := range names {
		wb, wi, wn, wok := sscanf(name)
		gb, gi, gn, gok := partOf(name)
		if wb != gb || wi != gi || wn != gn || wok != gok {
			t.Fatalf("%q: partOf (%q %d %d %v), Sscanf (%q %d %d %v)", name, gb, gi, gn, gok, wb, wi, wn, wok)
		}
		if wok {
			matched++
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d names parsed: the test hardly compares", matched)
	}
}
