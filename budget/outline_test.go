package budget

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSelectOutlines checks the outlines of selection: in rank order, a
// file whose best chunk does not fit may get its outline in its place
// (within a sixteenth of the budget, at most a third of the chunk); after
// whole chunks, half of the leftover buys the outlines of the best-ranked
// files whose best chunk did not fit; a file whose best chunk is in the pack
// gets none; then leading lines fill what is left, never repeating an
// outline line.
func TestSelectOutlines(t *testing.T) {
	big := NewText(lines(100, "b"))   // 3 words a line
	other := NewText(lines(100, "o")) // 3 words a line
	third := NewText(lines(100, "t")) // 3 words a line
	items := []*Item{
		item(big, OpenFiles, "big.go", 1, 50, 0.9),     // 150: never fits
		item(other, OpenFiles, "other.go", 1, 10, 0.8), // 30: fits
		item(other, OpenFiles, "other.go", 11, 60, 0.7),
		item(third, OpenFiles, "third.go", 1, 60, 0.6), // 180: never fits
	}
	var asked []string
	outline := func(best *Item) []*Item {
		asked = append(asked, best.Path)
		var out []*Item
		for _, r := range [][2]int{{1, 1}, {20, 21}, {40, 40}} { // 4 lines, 12 tokens
			p := *best
			p.StartLine, p.EndLine = r[0], r[1]
			p.Content = best.Source.Slice(r[0], r[1])
			p.Tokens = words(p.Content)
			p.Outline = true
			out = append(out, &p)
		}
		return out
	}
	tests := []struct {
		name      string
		available int64
		want      []span3
		asked     []string
	}{
		{"room for both outlines", 100, []span3{
			{"big.go", 1, 1}, {"big.go", 20, 21}, {"big.go", 40, 40},
			{"other.go", 1, 10},
			{"third.go", 1, 1}, {"third.go", 20, 21}, {"third.go", 40, 40},
		}, []string{"big.go", "third.go"}},
		{"room for one", 70, []span3{
			{"big.go", 1, 1}, {"big.go", 20, 21}, {"big.go", 40, 40},
			{"other.go", 1, 10},
		}, []string{"big.go", "third.go"}},
		{"no room", 40, []span3{{"other.go", 1, 10}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			alloc := Allocation{Available: tt.available, Tokens: map[string]int64{OpenFiles: tt.available}}
			sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words, Outline: outline, FillMin: 1000})
			if diff := cmp.Diff(tt.want, spans(sel.Selected)); diff != "" {
				t.Errorf("selected (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.asked, asked); diff != "" {
				t.Errorf("outlines asked for (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("in rank order, before lower-ranked whole chunks take the room", func(t *testing.T) {
		filler := NewText(lines(30, "f"))
		items := []*Item{
			item(big, OpenFiles, "big.go", 1, 100, 0.9),      // 300: does not fit
			item(other, OpenFiles, "other.go", 1, 10, 0.8),   // 30
			item(third, OpenFiles, "third.go", 1, 60, 0.6),   // 180
			item(filler, OpenFiles, "filler.go", 1, 15, 0.5), // 45
		}
		asked = nil
		// Everything goes through redistribution: open_files has no share.
		alloc := Allocation{Available: 280, Tokens: map[string]int64{ToolResults: 280}}
		sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words, Outline: outline, FillMin: 1000})
		want := []span3{
			{"big.go", 1, 1}, {"big.go", 20, 21}, {"big.go", 40, 40}, // 12 ≤ 280/16, ≤ 300/3
			{"other.go", 1, 10},
			{"third.go", 1, 60},
			{"filler.go", 1, 15},
		}
		if diff := cmp.Diff(want, spans(sel.Selected)); diff != "" {
			t.Errorf("selected (-want +got):\n%s", diff)
		}
		for _, it := range sel.Selected {
			if it.Outline != (it.Path == "big.go") {
				t.Errorf("%s %d-%d: Outline = %v", it.Path, it.StartLine, it.EndLine, it.Outline)
			}
		}
	})
	t.Run("leading lines after an outline skip its lines", func(t *testing.T) {
		alloc := Allocation{Available: 100, Tokens: map[string]int64{OpenFiles: 100}}
		sel := Select(items, alloc, SelectOptions{Redistribute: true, Count: words, Outline: outline, FillMin: 3})
		seen := map[[2]any]bool{}
		for _, it := range sel.Selected {
			for l := it.StartLine; l <= it.EndLine; l++ {
				k := [2]any{it.Path, l}
				if seen[k] {
					t.Errorf("%s line %d selected twice", it.Path, l)
				}
				seen[k] = true
			}
		}
		var used int64
		for _, u := range sel.Used {
			used += u
		}
		if used > alloc.Available {
			t.Errorf("used %d of %d", used, alloc.Available)
		}
	})
}
