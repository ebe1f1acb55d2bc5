package pack

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/config"
)

// placeItems are chunks of a.go and b.go (a token a line: Count counts
// words) in rank order.
func placeItems(t *testing.T, spec [][4]int) []*budget.Item {
	t.Helper()
	texts := map[string]*budget.Text{}
	for _, p := range []string{"a.go", "b.go"} {
		var b strings.Builder
		for i := 1; i <= 60; i++ {
			fmt.Fprintf(&b, "%s%d\n", p[:1], i)
		}
		texts[p] = budget.NewText(b.String())
	}
	var out []*budget.Item
	for i, s := range spec { // file (0 a, 1 b), start, end, score‰
		path := []string{"a.go", "b.go"}[s[0]]
		src := texts[path]
		out = append(out, &budget.Item{Category: budget.OpenFiles, Path: path, StartLine: s[1], EndLine: s[2],
			Source: src, Content: src.Slice(s[1], s[2]), Tokens: s[2] - s[1] + 1, Score: float64(s[3]) / 1000, Seq: i})
	}
	return out
}

func placeSelect(room int64) func([]*budget.Item) budget.Selection {
	alloc := budget.Allocation{Total: room, Available: room, Tokens: map[string]int64{budget.OpenFiles: room}}
	return func(c []*budget.Item) budget.Selection {
		return budget.Select(c, alloc, budget.SelectOptions{Redistribute: true, Count: func(s string) int { return len(strings.Fields(s)) }})
	}
}

func selectedLines(sel budget.Selection) map[string][][2]int {
	out := map[string][][2]int{}
	for _, it := range sel.Selected {
		out[it.Path] = append(out[it.Path], [2]int{it.StartLine, it.EndLine})
	}
	return out
}

// TestSwapPlaces: the wanted chunk takes the room of its own file's last
// packed chunk; the other file's selection, the budget and the input
// items are untouched, and a swap that would cost another file anything
// is not made.
func TestSwapPlaces(t *testing.T) {
	base := [][4]int{{0, 1, 10, 900}, {1, 1, 10, 800}, {0, 11, 20, 700}, {1, 11, 20, 600}, {0, 21, 28, 500}, {1, 21, 30, 400}}
	dropSpec := [][4]int{{0, 1, 10, 900}, {1, 1, 10, 800}, {0, 11, 16, 700}, {0, 17, 22, 650}, {1, 11, 20, 600}, {0, 31, 42, 500}, {1, 21, 30, 400}}
	for _, tc := range []struct {
		name   string
		spec   [][4]int
		want   int // Seq of the wanted chunk
		drop   int
		fewer  func(l, r *budget.Item) bool
		swaps  bool
		aLines [][2]int // a.go's selected lines after
		bGain  *[2]int  // lines b.go gains (the room a.go freed)
	}{
		{"smaller recent chunk takes the place", base, 4, 1, nil, true, [][2]int{{1, 10}, {21, 28}}, nil},
		{"another file may gain", [][4]int{{0, 1, 10, 900}, {1, 1, 10, 800}, {0, 11, 20, 700}, {1, 11, 20, 600}, {0, 21, 28, 500}, {1, 21, 22, 400}},
			4, 1, nil, true, [][2]int{{1, 10}, {21, 28}}, &[2]int{21, 22}},
		{"words say no", base, 4, 1, func(l, r *budget.Item) bool { return false }, false, [][2]int{{1, 10}, {11, 20}}, nil},
		{"too big: would cost b.go", [][4]int{{0, 1, 10, 900}, {1, 1, 10, 800}, {0, 11, 20, 700}, {1, 11, 20, 600}, {0, 21, 32, 500}, {1, 31, 40, 400}},
			4, 1, nil, false, [][2]int{{1, 10}, {11, 20}}, nil},
		{"the file's best chunk is never displaced", [][4]int{{0, 1, 10, 900}, {1, 1, 10, 800}, {1, 11, 20, 700}, {1, 21, 30, 600}, {0, 21, 28, 500}},
			4, 1, nil, false, [][2]int{{1, 10}}, nil},
		{"one room too small", dropSpec, 5, 1, nil, false, [][2]int{{1, 10}, {11, 16}, {17, 22}}, nil},
		{"two rooms of the file", dropSpec, 5, 2, nil, true, [][2]int{{1, 10}, {31, 42}}, nil},
		{"a packed wanted chunk stays", base, 2, 1, nil, false, [][2]int{{1, 10}, {11, 20}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := placeItems(t, tc.spec)
			scores := make([]float64, len(items))
			for i, it := range items {
				scores[i] = it.Score
			}
			room := int64(40)
			if len(tc.spec) == 7 {
				room = 42
			}
			sel := placeSelect(room)
			cur := sel(items)
			got := swapPlaces(items, cur, []string{"a.go", "b.go"}, map[string][]*budget.Item{"a.go": {items[tc.want]}}, 1, tc.drop, sel, tc.fewer)
			after := sel(got)
			wantB := selectedLines(cur)["b.go"]
			if tc.bGain != nil {
				wantB = append(wantB, *tc.bGain)
			}
			if b := selectedLines(after)["b.go"]; !reflect.DeepEqual(b, wantB) {
				t.Errorf("b.go: %v → %v, want %v", selectedLines(cur)["b.go"], b, wantB)
			}
			if a := selectedLines(after)["a.go"]; !reflect.DeepEqual(a, tc.aLines) {
				t.Errorf("a.go = %v, want %v", a, tc.aLines)
			}
			var used int64
			for _, u := range after.Used {
				used += u
			}
			if used > room {
				t.Errorf("used %d of %d", used, room)
			}
			if swapped := !reflect.DeepEqual(got, items); swapped != tc.swaps {
				t.Errorf("swapped = %v, want %v", swapped, tc.swaps)
			}
			for i, it := range items {
				if it.Score != scores[i] {
					t.Errorf("input item %d rescored", i)
				}
			}
			for i := 1; i < len(got); i++ {
				if got[i].Score > got[i-1].Score {
					t.Errorf("out of rank order at %d", i)
				}
			}
		})
	}
}

func TestParsePlace(t *testing.T) {
	if o := parsePlace(nil); o.recent || o.callee || o.words || o.wordsLE || o.files != placeFiles || o.swaps != placeSwaps || o.drop != placeDrop || o.commits != recentLinesCommits {
		t.Fatalf("default %+v", o)
	}
	o := parsePlace([]string{"+recentplace", " +calleeplace", "+placewords", "+placewordsle", "placen=0", "placeswaps=2", "placek=3", "placedrop=2", "placen=x"})
	if want := (placeOptions{recent: true, callee: true, words: true, wordsLE: true, files: 0, swaps: 2, commits: 3, drop: 2}); o != want {
		t.Fatalf("%+v, want %+v", o, want)
	}
	if o := parsePlace([]string{"recentplace"}); o.recent { // off is off
		t.Fatalf("%+v", o)
	}
}

// TestRecentPlacePack packs a git repository whose best file changed
// last in a chunk without a query word: off, the pack is the same as
// with only the place weights set; on, that chunk is packed in place of
// the file's lower chunk for some budget, and at every budget the other
// file keeps every line of the pack without it and the pack fits.
func TestRecentPlacePack(t *testing.T) {
	root := t.TempDir()
	git := gitIn(t, root)
	fn := func(name, body string, n int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "func %s() {\n", name)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "\t%s(%d)\n", body, i)
		}
		b.WriteString("}\n\n")
		return b.String()
	}
	write := func(path, text string) {
		if err := os.WriteFile(filepath.Join(root, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := "package a\n\n" + fn("renderWidget", "drawWidgetFrame", 30) + fn("widgetSize", "measureWidget", 30) + fn("layoutPane", "placeChild", 30)
	b := "package a\n\n" + fn("widgetColor", "paintWidget", 30) + fn("widgetFont", "loadWidgetFont", 12)
	write("a.go", a+fn("flushQueue", "emitEvent", 24))
	write("b.go", b)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	write("a.go", a+fn("flushQueue", "emitEventNow", 24))
	git("commit", "-q", "-am", "two")
	zero := 0
	lines := func(res *Result, path string) map[int]bool {
		out := map[int]bool{}
		for _, e := range res.Included {
			for n := e.StartLine; e.Path == path && n <= e.EndLine; n++ {
				out[n] = true
			}
		}
		return out
	}
	placed := 0
	for total := 400; total <= 1600; total += 50 {
		req := Request{Query: "render widget size color font", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
		off := packDir(t, root, caseArgs{Request: req, Paths: []string{"."}})
		weights := packDirAblated(t, root, caseArgs{Request: req, Paths: []string{"."}}, []string{"placen=0", "placeswaps=3"})
		if off.Content != weights.Content {
			t.Fatalf("budget %d: the place weights alone changed the pack", total)
		}
		on := packDirAblated(t, root, caseArgs{Request: req, Paths: []string{"."}}, []string{"+" + featRecentPlace})
		if on.TokenCount > total {
			t.Fatalf("budget %d: %d tokens", total, on.TokenCount)
		}
		onB := lines(on, "b.go")
		for n := range lines(off, "b.go") {
			if !onB[n] {
				t.Fatalf("budget %d: b.go lost line %d to the swap", total, n)
			}
		}
		// the whole of the last commit's function, which the pack without the swap lacks
		if strings.Count(on.Content, "emitEventNow(") == 24 && strings.Count(off.Content, "emitEventNow(") < 24 {
			placed++
		}
	}
	if placed == 0 {
		t.Fatal("the last commit's chunk never took a place")
	}
}
