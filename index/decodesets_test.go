package index

import (
	"reflect"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// TestDecodeSetsRoundTrip: decodeSets gives back what encodeSets packed —
// every set, or only the wanted one — with each chunk's kind and name
// (which share one string a set) its own, and refuses a cut encoding.
func TestDecodeSetsRoundTrip(t *testing.T) {
	sets := []chunkSet{
		{key: 1, hash: [16]byte{1}, chunks: []chunker.Chunk{
			{StartLine: 1, EndLine: 3, StartByte: 0, EndByte: 40, Kind: "function", Name: "(*Server).Serve", TopLevel: true, Tokens: 12},
			{StartLine: 4, EndLine: 4, StartByte: 40, EndByte: 41, Kind: "lines", Tokens: 1, Oversize: true},
			{StartLine: 5, EndLine: 9, StartByte: 41, EndByte: 90, Name: "x", Tokens: 20},
			{StartLine: 10, EndLine: 12, StartByte: 90, EndByte: 99, Kind: "section", Name: strings.Repeat("long name ", 40)},
			{StartLine: 13, EndLine: 13, StartByte: 99, EndByte: 100, Kind: "type", Name: "T"},
		}},
		{key: 2, hash: [16]byte{2}},
		{key: 3, hash: [16]byte{3}, chunks: []chunker.Chunk{{StartLine: 1, EndLine: 1, EndByte: 7, Name: "\x00raw facts\xff" + strings.Repeat("\x01", 300)}}},
	}
	b := encodeSets(nil, sets)
	got, err := decodeSets(b, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sets) {
		t.Fatalf("decodeSets = %+v, want %+v", got, sets)
	}
	for _, want := range sets {
		got, err := decodeSets(b, func(k uint64, h [16]byte) bool { return k == want.key && h == want.hash }, true)
		if err != nil || len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("decodeSets(want %d) = %+v, %v; want %+v", want.key, got, err, want)
		}
	}
	// Several wanted (as StatSets picks them): the others are read past.
	got, err = decodeSets(b, func(k uint64, _ [16]byte) bool { return k != 2 }, false)
	if err != nil || !reflect.DeepEqual(got, []chunkSet{sets[0], sets[2]}) {
		t.Fatalf("decodeSets(keys 1, 3) = %+v, %v", got, err)
	}
	for _, n := range []int{1, 30, len(b) - 1} {
		if _, err := decodeSets(b[:n], nil, false); err == nil {
			t.Errorf("decodeSets of %d of %d bytes: no error", n, len(b))
		}
	}
}
