package pack

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// identifiersRef is identifiersAt as it was before the byte table: the
// reference of TestIdentifierScans.
func identifiersRef(text string, fn func(w string, at int)) {
	i := 0
	for i < len(text) {
		c := text[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && asciiWord(text[j]) {
			j++
		}
		fn(text[i:j], i)
		i = j
	}
}

// TestIdentifierScans: identifiersAt and identifiersMin give the words
// (and offsets) of the reference scan, on random texts of word pieces,
// digits, underscores, punctuation and non-ASCII bytes.
func TestIdentifierScans(t *testing.T) {
	pieces := []string{"a", "Z", "_", "__x", "9", "12ab", "Server", "conn_idle", " ", "\n", ".", "é", "\xff", "(", "x2", "_9", "ab", "timeout"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for j := rng.Intn(40); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		type word struct {
			w  string
			at int
		}
		var want, got []word
		identifiersRef(text, func(w string, at int) { want = append(want, word{w, at}) })
		identifiersAt(text, len(text), func(w string, at int) { got = append(got, word{w, at}) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: identifiersAt %v, want %v", text, got, want)
		}
		for _, min := range []int{1, graphMinName} {
			var wantMin, gotMin []string
			for _, w := range want {
				if len(w.w) >= min {
					wantMin = append(wantMin, w.w)
				}
			}
			identifiersMin(text, min, func(w string) { gotMin = append(gotMin, w) })
			if !reflect.DeepEqual(gotMin, wantMin) {
				t.Fatalf("%q, min %d: identifiersMin %q, want %q", text, min, gotMin, wantMin)
			}
		}
	}
}

// graphUsesRef is graphUses as it was before the name table: the
// definers map and a set of words per file.
func graphUsesRef(items []*budget.Item, fileIdx map[string]int, definers map[string][]int) []map[int]float64 {
	n := len(fileIdx)
	out := make([]map[int]float64, n)
	used := make([]map[string]bool, n)
	for i := range out {
		out[i], used[i] = map[int]float64{}, map[string]bool{}
	}
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		f := fileIdx[it.Path]
		identifiersRef(it.Content, func(w string, _ int) {
			d, ok := definers[w]
			if len(w) < graphMinName || !ok || used[f][w] {
				return
			}
			used[f][w] = true
			for _, g := range d {
				if g != f {
					share := 1 / float64(len(d))
					out[f][g] += share
					out[g][f] += graphBackWeight * share
				}
			}
		})
	}
	return out
}

// TestGraphUsesIsReference: the graph's weights are the reference's, bit
// for bit, for net/http's chunks in the chunker's order (each file's
// chunks together: the last user of a name tells) and shuffled (files
// apart: sets of names per file), each order seen twice so that the
// graph-word memo answers too.
func TestGraphUsesIsReference(t *testing.T) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) < 20 {
		t.Fatalf("Go files of %s: %d, %v", dir, len(names), err)
	}
	sort.Strings(names)
	tok, _ := tokenizer.ForEncoding("o200k_base")
	var items []*budget.Item
	for _, name := range names[:20] {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Base(name)
		chunks, err := chunker.Split(context.Background(), rel, data, tok.Count, chunker.Options{MaxTokens: fineChunkTokens, PreferStructural: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunks {
			items = append(items, &budget.Item{Path: rel, Name: c.Name, Content: c.Content, Seq: len(items)})
		}
	}
	items = append(items, &budget.Item{Content: "no path: left out of the graph ServeHTTP"})
	shuffled := append([]*budget.Item(nil), items...)
	rand.New(rand.NewSource(5)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for _, tc := range []struct {
		name     string
		items    []*budget.Item
		together bool
	}{{"in order", items, true}, {"shuffled", shuffled, false}} {
		if filesTogether(tc.items) != tc.together {
			t.Fatalf("%s: filesTogether = %v", tc.name, !tc.together)
		}
		_, fileIdx := graphFiles(tc.items)
		definers := graphDefiners(tc.items, fileIdx)
		if len(definers) < 100 {
			t.Fatalf("%s: %d names defined", tc.name, len(definers))
		}
		want := graphUsesRef(tc.items, fileIdx, definers)
		for round := 0; round < 3; round++ {
			if got := graphUses(tc.items, fileIdx, definers, 0); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, round %d: graphUses differs from the reference", tc.name, round)
			}
		}
	}
}
