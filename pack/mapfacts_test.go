package pack

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// TestFactsRoundTrip: facts encoded for the index decode to the same
// marks and flags, and trimIdents keeps exactly the identifiers starting
// before its limit, the same whether the facts came from the index or
// from a text at hand.
func TestFactsRoundTrip(t *testing.T) {
	ids := []mapIdent{{"alpha", 0}, {"bravo", 10}, {"charlie", 99}, {"delta", 100}, {"echo", 4000}}
	in := &fileFacts{
		chunks: []chunker.Chunk{{StartLine: 1, EndLine: 2}, {StartLine: 3, EndLine: 9}},
		marks:  []string{strings.Repeat("a", markLen), strings.Repeat("b", markLen)},
		split:  []bool{false, true},
		ids:    ids,
	}
	enc := encodeFacts(in)
	for _, tt := range []struct {
		limit int
		want  []mapIdent
	}{{0, []mapIdent{}}, {100, ids[:3]}, {101, ids[:4]}, {1 << 20, ids}} {
		var got fileFacts
		if !decodeFacts(enc, &got, 5000) {
			t.Fatal("decodeFacts refused what encodeFacts wrote")
		}
		if len(got.ids) != 0 {
			t.Errorf("identifiers decoded before trimIdents: %v", got.ids)
		}
		tab := newWordTab()
		trimIdents(&got, tt.limit, tab)
		if diff := cmp.Diff(in.marks, got.marks); diff != "" {
			t.Errorf("marks (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(in.split, got.split); diff != "" {
			t.Errorf("split (-want +got):\n%s", diff)
		}
		if got.words == nil {
			t.Errorf("limit %d: no identifiers decoded", tt.limit)
		}
		decoded := []mapIdent{}
		for k, w := range got.words {
			decoded = append(decoded, mapIdent{w: tab.words[w], at: int(got.wordsAt[k])})
		}
		if diff := cmp.Diff(tt.want, decoded, cmp.AllowUnexported(mapIdent{})); diff != "" {
			t.Errorf("limit %d: ids (-want +got):\n%s", tt.limit, diff)
		}
		if got.raw != "" {
			t.Errorf("limit %d: the encoding is kept after trimIdents", tt.limit)
		}
		at := &fileFacts{ids: append([]mapIdent(nil), ids...)}
		trimIdents(at, tt.limit, newWordTab())
		if diff := cmp.Diff(tt.want, at.ids, cmp.AllowUnexported(mapIdent{}), cmp.Comparer(func(a, b []mapIdent) bool {
			return len(a) == len(b) && (len(a) == 0 || cmp.Equal(a, b, cmp.AllowUnexported(mapIdent{})))
		})); diff != "" {
			t.Errorf("limit %d: ids of a text at hand (-want +got):\n%s", tt.limit, diff)
		}
	}
}

// TestDecodeFactsChecksIdents: identifiers out of order, past the file's
// size, too short, or cut off make the facts unusable (the file is read).
func TestDecodeFactsChecksIdents(t *testing.T) {
	mark := []string{strings.Repeat("m", markLen)}
	for _, tt := range []struct {
		name string
		ids  []mapIdent
		size int64
		ok   bool
	}{
		{"good", []mapIdent{{"name", 1}, {"other", 5}}, 10, true},
		{"past the size", []mapIdent{{"name", 1}, {"other", 10}}, 10, false},
		{"short", []mapIdent{{"abc", 1}}, 10, false},
	} {
		enc := encodeFacts(&fileFacts{marks: mark, split: []bool{false}, ids: tt.ids})
		var f fileFacts
		if got := decodeFacts(enc, &f, tt.size); got != tt.ok {
			t.Errorf("%s: decodeFacts = %v, want %v", tt.name, got, tt.ok)
		}
		if tt.ok && decodeFacts(enc[:len(enc)-1], &f, tt.size) {
			t.Errorf("%s: a cut encoding decoded", tt.name)
		}
	}
	// Offsets must rise: two identifiers at one offset (a delta of 0).
	enc := encodeFacts(&fileFacts{marks: mark, split: []bool{false}, ids: []mapIdent{{"name", 3}, {"same", 3}}})
	var f fileFacts
	if decodeFacts(enc, &f, 10) {
		t.Error("identifiers at one offset decoded")
	}
}

// TestFactsMatch: a resumed round (mapresume.go) puts a text into the
// first round's candidates only when its chunks are the facts' — the
// same boundaries and counts, each with its hash mark; an edit that keeps
// every boundary still fails on its mark.
func TestFactsMatch(t *testing.T) {
	count := func(s string) int { return len(strings.Fields(s)) }
	cut := func(text string) []chunker.Chunk {
		return chunker.SplitLines([]byte(text), 1, strings.Count(text, "\n"), count, chunker.Options{MaxTokens: 6})
	}
	text := "alpha beta\ngamma delta\nepsilon zeta\neta theta\niota kappa\n"
	facts := factsOf(cut(text))
	if facts.count() < 2 {
		t.Fatalf("want several chunks, got %d", facts.count())
	}
	if !facts.matches(cut(text)) {
		t.Fatal("the facts of a text do not match its own chunks")
	}
	for name, edited := range map[string]string{
		"a word changed, every boundary kept": strings.Replace(text, "gamma", "GAMMA", 1),
		"a word added":                        strings.Replace(text, "eta theta", "eta theta more", 1),
		"a line added":                        text + "lambda mu\n",
	} {
		if facts.matches(cut(edited)) {
			t.Errorf("%s: the facts of the old text match the new one", name)
		}
	}
}
