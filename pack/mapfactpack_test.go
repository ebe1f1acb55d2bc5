package pack

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/tools/txtar"
)

// factInputs are the chunker's golden input of every grammar and real
// files of this package, by name.
func factInputs(t *testing.T) (names []string, datas [][]byte) {
	t.Helper()
	files, _ := filepath.Glob("../chunker/testdata/golden/*.txtar")
	if len(files) < 10 {
		t.Fatalf("only %d golden inputs", len(files))
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		names, datas = append(names, ar.Files[0].Name), append(datas, ar.Files[0].Data)
	}
	for _, name := range []string{"mapindex.go", "mapgraph.go", "chunks.go", "../README.md", "../Makefile"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		names, datas = append(names, filepath.Base(name)), append(datas, data)
	}
	return names, datas
}

// unpackedFacts are the facts of chunks as factsOf made them before they
// were packed: each chunk without its text, its mark and split flag.
func unpackedFacts(chunks []chunker.Chunk) *fileFacts {
	f := &fileFacts{chunks: make([]chunker.Chunk, len(chunks)), marks: make([]string, len(chunks)), split: make([]bool, len(chunks))}
	for i, c := range chunks {
		h := budget.NormalizedHash(c.Content)
		f.marks[i], f.split[i] = string(h[:markLen]), needsCDATASplit(c.Content)
		c.Content = ""
		f.chunks[i] = c
	}
	return f
}

// TestPackedFactsSameAsChunks: the packed facts of every grammar's
// golden input and of real files, cut structurally and in line windows
// at several sizes, read back as the chunks (without text), marks and
// split flags they were packed of, and encode for the index as those did.
func TestPackedFactsSameAsChunks(t *testing.T) {
	names, datas := factInputs(t)
	count := func(s string) int { return len(s) / 4 }
	cases := 0
	for i, name := range names {
		for _, opts := range []chunker.Options{
			{MaxTokens: 400, MinTokens: 60, PreferStructural: true},
			{MaxTokens: 40, PreferStructural: true},
			{MaxTokens: 40, PreferStructural: true, NoMerge: true},
			{MaxTokens: 100},
		} {
			chunks, err := chunker.Split(t.Context(), name, datas[i], count, opts)
			if err != nil {
				t.Fatal(err)
			}
			want, got := unpackedFacts(chunks), factsOf(chunks)
			if got.chunks != nil || got.marks != nil || got.split != nil || got.packed == "" {
				t.Fatalf("%s: factsOf did not pack its facts", name)
			}
			checkPacked(t, name, want, got)
			cases++
		}
	}
	if cases < 4*15 {
		t.Fatalf("only %d cases", cases)
	}
}

// checkPacked compares packed facts got with the facts want held so.
func checkPacked(t *testing.T, name string, want, got *fileFacts) {
	t.Helper()
	if got.count() != len(want.chunks) || got.packedCount() != len(want.chunks) {
		t.Fatalf("%s: %d chunks packed (%d), want %d", name, got.count(), got.packedCount(), len(want.chunks))
	}
	if diff := cmp.Diff(want.chunks, got.chunkList()); diff != "" {
		t.Fatalf("%s: chunks (-want +got):\n%s", name, diff)
	}
	for j, c := range got.all() {
		if c != want.chunks[j] || got.mark(j) != want.marks[j] || got.splits(j) != want.split[j] {
			t.Fatalf("%s: chunk %d: %+v %q %v, want %+v %q %v", name, j, c, got.mark(j), got.splits(j), want.chunks[j], want.marks[j], want.split[j])
		}
		if j == 0 {
			break // all stops when told
		}
	}
	for j := range want.chunks {
		if got.mark(j) != want.marks[j] || got.splits(j) != want.split[j] {
			t.Fatalf("%s: chunk %d: mark %x split %v, want %x %v", name, j, got.mark(j), got.splits(j), want.marks[j], want.split[j])
		}
	}
	got.ids, want.ids = nil, nil
	if encodeFacts(got) != encodeFacts(want) {
		t.Fatalf("%s: the packed facts encode otherwise", name)
	}
}

// TestPackedFactsOddChunks: what no cut of a whole file makes (a kind
// outside factKinds, chunks that skip or repeat lines and bytes, a
// negative count, flags, a CDATA end) is packed and read back as is.
func TestPackedFactsOddChunks(t *testing.T) {
	chunks := []chunker.Chunk{
		{StartLine: 3, EndLine: 9, StartByte: 40, EndByte: 300, Kind: "widget", Name: "(*T).Odd, Other", TopLevel: true, Tokens: 77, Content: "x ]]> y"},
		{StartLine: 5, EndLine: 5, StartByte: 100, EndByte: 90, Kind: "function", Tokens: -1, Oversize: true, Content: "z"},
		{StartLine: 1 << 40, EndLine: 1<<40 + 1, StartByte: 1 << 41, EndByte: 1<<41 + 1<<20, Kind: "", Name: strings.Repeat("n", 300), Content: ""},
		{StartLine: 0, EndLine: -3, Kind: "lines", Content: "plain"},
	}
	checkPacked(t, "odd", unpackedFacts(chunks), factsOf(chunks))
	if f := factsOf(nil); f.count() != 0 || len(f.chunkList()) != 0 || f.packed == "" {
		t.Fatalf("the facts of no chunks: %d chunks, packed %q", f.count(), f.packed)
	}
	var none *fileFacts
	if none.count() != 0 || none.packedCount() != 0 {
		t.Fatal("nil facts count chunks")
	}
	if len(factKinds) > 31 {
		t.Fatalf("%d kinds: a flag byte codes 31", len(factKinds))
	}
}

// TestInternSameAsIdents: the identifiers intern keeps of a text's facts
// are those cutIdents kept, in order, at their offsets, and the cut is
// recorded the same way.
func TestInternSameAsIdents(t *testing.T) {
	names, datas := factInputs(t)
	tab := newWordTab()
	for i, name := range names {
		chunks, err := chunker.Split(t.Context(), name, datas[i], func(s string) int { return len(s) / 4 }, chunker.Options{MaxTokens: 200, PreferStructural: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 200, mapScanMin, mapIdentCap} {
			want, got := factsOf(chunks), factsOf(chunks)
			cutIdents(want, limit)
			tab.intern(got, limit)
			if got.ids != nil || got.words == nil || len(got.words) != len(got.wordsAt) {
				t.Fatalf("%s: intern left ids %d, words %d at %d", name, len(got.ids), len(got.words), len(got.wordsAt))
			}
			var back []mapIdent
			for k, w := range got.words {
				back = append(back, mapIdent{w: tab.words[w], at: int(got.wordsAt[k])})
			}
			if diff := cmp.Diff(want.ids, back, cmp.AllowUnexported(mapIdent{}), cmpopts.EquateEmpty()); diff != "" || got.trimmed != want.trimmed {
				t.Fatalf("%s at %d: trimmed %d, want %d; identifiers (-want +got):\n%s", name, limit, got.trimmed, want.trimmed, diff)
			}
		}
	}
}
