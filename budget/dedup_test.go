package budget

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// words counts whitespace-separated words: a stand-in tokenizer.
func words(s string) int { return len(strings.Fields(s)) }

func lines(n int, prefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", prefix, i)
	}
	return b.String()
}

func item(src *Text, cat, path string, start, end int, score float64) *Item {
	c := src.Slice(start, end)
	return &Item{Category: cat, Type: cat, Path: path, StartLine: start, EndLine: end, Source: src, Content: c, Tokens: words(c), Score: score}
}

type span3 struct {
	Path       string
	Start, End int
}

func spans(items []*Item) []span3 {
	out := []span3{}
	for _, it := range items {
		out = append(out, span3{it.Path, it.StartLine, it.EndLine})
	}
	return out
}

func TestDedupExactAcrossPaths(t *testing.T) {
	a := NewText("func A() {\n\treturn 1\n}\n")
	b := NewText("func A() {\n    return 1\n}\n") // same but for white space
	items := []*Item{item(b, OpenFiles, "copy.go", 1, 3, 0.4), item(a, References, "a.go", 1, 3, 0.9)}
	kept, removed, stats := Dedup(items, DedupOptions{Enabled: true, OverlapThreshold: 0.8, MergeOverlapping: true}, words)
	if diff := cmp.Diff([]span3{{"a.go", 1, 3}}, spans(kept)); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if len(removed) != 1 || removed[0].Reason != "duplicate" || removed[0].Item.Path != "copy.go" {
		t.Errorf("removed = %+v", removed)
	}
	if stats.ExactRemoved != 1 || stats.TokensSaved != items[0].Tokens {
		t.Errorf("stats = %+v", stats)
	}
}

func TestDedupOverlapMerge(t *testing.T) {
	src := NewText(lines(40, "x"))
	tests := []struct {
		name      string
		a, b      [2]int
		threshold float64
		max       int // DedupOptions.MaxTokens; a line is 3 words
		want      []span3
		merged    int
	}{
		{"80% of the smaller merges", [2]int{1, 10}, [2]int{3, 20}, 0.8, 0, []span3{{"f.go", 1, 20}}, 1},
		{"below threshold stays apart", [2]int{1, 10}, [2]int{8, 30}, 0.8, 0, []span3{{"f.go", 1, 10}, {"f.go", 8, 30}}, 0},
		{"contained merges", [2]int{5, 6}, [2]int{1, 30}, 0.8, 0, []span3{{"f.go", 1, 30}}, 1},
		{"disjoint", [2]int{1, 5}, [2]int{6, 9}, 0.1, 0, []span3{{"f.go", 1, 5}, {"f.go", 6, 9}}, 0},
		{"merge up to max tokens", [2]int{1, 10}, [2]int{3, 20}, 0.8, 60, []span3{{"f.go", 1, 20}}, 1},
		{"merge past max tokens stays apart", [2]int{1, 10}, [2]int{3, 20}, 0.8, 59, []span3{{"f.go", 1, 10}, {"f.go", 3, 20}}, 0},
		{"contained merges past max (adds no line)", [2]int{5, 6}, [2]int{1, 30}, 0.8, 10, []span3{{"f.go", 1, 30}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := []*Item{item(src, OpenFiles, "f.go", tt.a[0], tt.a[1], 0.9), item(src, References, "f.go", tt.b[0], tt.b[1], 0.5)}
			kept, _, stats := Dedup(items, DedupOptions{Enabled: true, OverlapThreshold: tt.threshold, MergeOverlapping: true, MaxTokens: tt.max}, words)
			if diff := cmp.Diff(tt.want, spans(kept)); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
			if stats.OverlapsMerged != tt.merged {
				t.Errorf("merged = %d, want %d", stats.OverlapsMerged, tt.merged)
			}
			for _, k := range kept {
				if k.Content != src.Slice(k.StartLine, k.EndLine) || k.Tokens != words(k.Content) {
					t.Errorf("kept %d-%d: content not re-cut from the source or not recounted", k.StartLine, k.EndLine)
				}
			}
			if tt.merged > 0 && kept[0].Score != 0.9 {
				t.Errorf("merged score = %v, want the max 0.9", kept[0].Score)
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	src := NewText(lines(20, "y"))
	a, b := item(src, OpenFiles, "f", 1, 10, 0), item(src, OpenFiles, "f", 6, 20, 0)
	if got := Overlap(a, b); got != 0.5 {
		t.Errorf("Overlap = %v, want 0.5 (5 shared lines / 10)", got)
	}
	c := item(src, OpenFiles, "g", 1, 10, 0)
	if got := Overlap(a, c); got != 0 {
		t.Errorf("Overlap of different files = %v", got)
	}
}

func TestSelectCategoriesAndRedistribution(t *testing.T) {
	src := NewText(lines(100, "w")) // 3 words a line
	mk := func(cat, path string, start, end int, score float64) *Item {
		return item(src, cat, path, start, end, score)
	}
	alloc := Allocation{Available: 100, Tokens: map[string]int64{ToolResults: 40, OpenFiles: 30, SearchResults: 20, References: 10}}
	items := []*Item{
		mk(ToolResults, "t1", 1, 20, 0.9),  // 60 tokens: over its 40, waits for leftover
		mk(ToolResults, "t2", 1, 10, 0.85), // 30: fits tool_results
		mk(OpenFiles, "o1", 1, 10, 0.8),    // 30: fits open_files exactly
		mk(OpenFiles, "o2", 1, 2, 0.7),     // 6: no room left in open_files
		mk(References, "r1", 1, 3, 0.6),    // 9: fits references
	}
	t.Run("no redistribution", func(t *testing.T) {
		sel := Select(items, alloc, SelectOptions{Count: words, FillMin: 1000})
		want := []span3{{"t2", 1, 10}, {"o1", 1, 10}, {"r1", 1, 3}}
		if diff := cmp.Diff(want, spans(sel.Selected)); diff != "" {
			t.Errorf("selected (-want +got):\n%s", diff)
		}
	})
	t.Run("leftover shared in global rank order", func(t *testing.T) {
		// leftover = 10 (tools) + 0 + 20 (search) + 1 (refs) = 31: t1 (60)
		// does not fit, o2 (6) does.
		sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words, FillMin: 1000})
		want := []span3{{"t2", 1, 10}, {"o1", 1, 10}, {"o2", 1, 2}, {"r1", 1, 3}}
		if diff := cmp.Diff(want, spans(sel.Selected)); diff != "" {
			t.Errorf("selected (-want +got):\n%s", diff)
		}
		if sel.Used[OpenFiles] != 36 {
			t.Errorf("open_files used = %d, want 36", sel.Used[OpenFiles])
		}
	})
	t.Run("fill with leading lines", func(t *testing.T) {
		sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words, FillMin: 3})
		var total int64
		for _, u := range sel.Used {
			total += u
		}
		if total > alloc.Available || total < alloc.Available-3 {
			t.Errorf("used %d of %d: fill should leave less than one line", total, alloc.Available)
		}
	})
}

func TestSelectAtLeastOne(t *testing.T) {
	src := NewText(lines(10, "z"))
	alloc := Allocation{Available: 30, Tokens: map[string]int64{ToolResults: 30}}
	items := []*Item{item(src, References, "r", 1, 10, 0.5)} // 30 tokens, references has 0
	sel := Select(items, alloc, SelectOptions{Count: words})
	if len(sel.Selected) != 1 {
		t.Fatalf("selected %d items, want the one that fits available", len(sel.Selected))
	}
}

func TestSelectNeverRepeatsALine(t *testing.T) {
	src := NewText(lines(30, "q"))
	items := []*Item{item(src, OpenFiles, "f", 5, 15, 0.9), item(src, References, "f", 1, 30, 0.5)}
	alloc := Allocation{Available: 1000, Tokens: map[string]int64{OpenFiles: 500, References: 500}}
	sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words})
	want := []span3{{"f", 5, 15}, {"f", 1, 4}, {"f", 16, 30}}
	if diff := cmp.Diff(want, spans(sel.Selected)); diff != "" {
		t.Errorf("selected (-want +got):\n%s", diff)
	}
	if sel.TrimmedTokens != 33 {
		t.Errorf("trimmed = %d, want 33 (11 lines)", sel.TrimmedTokens)
	}
}

func TestFitDropsLowestRanked(t *testing.T) {
	src := NewText(lines(10, "v"))
	sel := []*Item{item(src, OpenFiles, "a", 1, 2, 0.9), item(src, OpenFiles, "b", 3, 4, 0.5), item(src, OpenFiles, "c", 5, 6, 0.1)}
	render := func(items []*Item) (string, error) {
		var b strings.Builder
		for _, it := range items {
			b.WriteString("header " + it.Path + "\n" + it.Content)
		}
		return b.String(), nil
	}
	text, n, kept, dropped, err := fit(sel, 16, render, words)
	if err != nil {
		t.Fatal(err)
	}
	if n != words(text) || n > 16 {
		t.Errorf("tokens = %d (recount %d), available 16", n, words(text))
	}
	if len(kept) != 2 || len(dropped) != 1 || dropped[0].Path != "c" {
		t.Errorf("kept %v dropped %v", spans(kept), spans(dropped))
	}
}

func TestTextSlice(t *testing.T) {
	tx := NewText("a\nb\nc")
	if tx.Lines() != 3 || tx.Slice(2, 3) != "b\nc" || tx.Slice(1, 1) != "a\n" || tx.Slice(4, 5) != "" {
		t.Errorf("Slice: lines=%d %q %q", tx.Lines(), tx.Slice(2, 3), tx.Slice(1, 1))
	}
	if NewText("").Lines() != 0 || NewText("x\n").Lines() != 1 {
		t.Error("Lines of empty / single line")
	}
}

func TestNormalizedHash(t *testing.T) {
	want := sha256Of("a b c")
	for _, in := range []string{"a b c", "  a\tb\n\nc  ", "a\u00a0b\u2003c\n", "\na  b c"} {
		if got := NormalizedHash(in); got != want {
			t.Errorf("NormalizedHash(%q) differs from the hash of %q", in, "a b c")
		}
	}
	long := strings.Repeat("word ", 5000)
	if NormalizedHash(long) != sha256Of(strings.TrimSpace(long)) {
		t.Error("long text hash differs")
	}
	huge := strings.Repeat("x", 20000)
	if NormalizedHash(" "+huge+"  y ") != sha256Of(huge+" y") {
		t.Error("a word longer than the buffer hashes differently")
	}
	if NormalizedHash("ab") == NormalizedHash("a b") {
		t.Error("white space between words must count")
	}
}

func sha256Of(s string) [32]byte { return sha256.Sum256([]byte(s)) }
