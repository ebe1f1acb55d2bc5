package budget

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// headed renders each item under a one-line header of three words.
func headed(items []*Item) (string, error) {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "## %s %d-%d\n%s", it.Path, it.StartLine, it.EndLine, it.Content)
	}
	return b.String(), nil
}

// fileItems cuts n items of size lines each from one file per item.
func fileItems(n, size int) []*Item {
	var items []*Item
	for i := 0; i < n; i++ {
		src := NewText(lines(size, fmt.Sprintf("f%d", i)))
		it := item(src, OpenFiles, fmt.Sprintf("f%d.go", i), 1, size, 0.9-float64(i)/100)
		it.Seq = i
		items = append(items, it)
	}
	return items
}

// onePass is what a single selection, rendered and counted, gives.
func onePass(t *testing.T, cands []*Item, alloc Allocation, opts PackOptions) (int, []*Item) {
	t.Helper()
	sel := Select(cands, alloc, opts.SelectOptions)
	_, tokens, kept, _, err := fit(sel.Selected, int(alloc.Available), opts.Render, opts.Count)
	if err != nil {
		t.Fatal(err)
	}
	return tokens, kept
}

func TestPack(t *testing.T) {
	oneCat := func(n int64) Allocation {
		return Allocation{Available: n, Tokens: map[string]int64{OpenFiles: n}}
	}
	tests := []struct {
		name     string
		items    []*Item
		alloc    Allocation
		overhead int // estimated per item; the header costs 3
		// want: tokens of the text, spans kept, how many dropped, and
		// whether a single selection gives fewer tokens.
		tokens      int
		kept        int
		dropped     int
		moreThanOne bool
	}{
		// Each item is 10 lines of 3 words + a 3-word header = 33 tokens,
		// estimated at 30 + 20 = 50: one selection takes 4 (132 tokens of
		// 200); scaled by the overshoot, the next takes 6 (198).
		{name: "re-selects with the allocation scaled by the overshoot", items: fileItems(8, 10), alloc: oneCat(200), overhead: 20, tokens: 198, kept: 6, dropped: 2, moreThanOne: true},
		// Estimated exactly: one selection is already as full as it gets.
		{name: "exact estimates need one selection", items: fileItems(8, 10), alloc: oneCat(200), overhead: 3, tokens: 198, kept: 6, dropped: 2},
		// Estimated low (no header): 7 are selected (210 of 215), but their
		// text is 7 × 33 = 231, so the exact count drops the 7th.
		{name: "drops the lowest-ranked item when the text is over", items: fileItems(8, 10), alloc: oneCat(215), overhead: 0, tokens: 198, kept: 6, dropped: 2},
		{name: "everything fits", items: fileItems(3, 10), alloc: oneCat(500), overhead: 20, tokens: 99, kept: 3, dropped: 0},
		{name: "nothing fits", items: fileItems(2, 10), alloc: oneCat(2), overhead: 3, tokens: 0, kept: 0, dropped: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := PackOptions{
				SelectOptions: SelectOptions{Redistribute: true, Count: words, Overhead: func(*Item, bool) int { return tt.overhead }},
				Render:        headed,
			}
			got, err := Pack(context.Background(), tt.items, tt.alloc, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Tokens != tt.tokens || words(got.Text) != got.Tokens || len(got.Kept) != tt.kept || len(got.Dropped) != tt.dropped {
				t.Errorf("tokens %d (recount %d), kept %d, dropped %d; want %d tokens, %d kept, %d dropped",
					got.Tokens, words(got.Text), len(got.Kept), len(got.Dropped), tt.tokens, tt.kept, tt.dropped)
			}
			if one, _ := onePass(t, tt.items, tt.alloc, opts); (one < got.Tokens) != tt.moreThanOne {
				t.Errorf("one selection gives %d tokens, Pack %d: re-selection gained = %v, want %v", one, got.Tokens, one < got.Tokens, tt.moreThanOne)
			}
		})
	}
}

func TestPackDropsWhatTheEstimateMissed(t *testing.T) {
	items := fileItems(8, 10) // 30 words each
	alloc := Allocation{Available: 215, Tokens: map[string]int64{OpenFiles: 215}}
	// No overhead estimated: 7 items (210) are selected, but each brings a
	// 3-word header, so the text of 7 is 231 and the 7th is dropped, after
	// the 8th that the selection left out.
	opts := PackOptions{SelectOptions: SelectOptions{Count: words}, Render: headed}
	got, err := Pack(context.Background(), items, alloc, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []span3{{"f7.go", 1, 10}, {"f6.go", 1, 10}}
	if diff := cmp.Diff(want, spans(got.Dropped)); diff != "" {
		t.Errorf("dropped (-want +got):\n%s", diff)
	}
	if got.Recounted != 1 {
		t.Errorf("recounted = %d, want 1 (f6.go, dropped by the exact count)", got.Recounted)
	}
	if got.Tokens != 198 || got.Tokens != words(got.Text) {
		t.Errorf("tokens = %d (recount %d), want 198", got.Tokens, words(got.Text))
	}
}

func TestPackCoveredAndTrimmed(t *testing.T) {
	src := NewText(lines(30, "q"))
	items := []*Item{item(src, OpenFiles, "f", 5, 15, 0.9), item(src, References, "f", 1, 30, 0.5), item(src, References, "f", 20, 25, 0.4)}
	alloc := Allocation{Available: 1000, Tokens: map[string]int64{OpenFiles: 500, References: 500}}
	got, err := Pack(context.Background(), items, alloc, PackOptions{SelectOptions: SelectOptions{Redistribute: true, Count: words}, Render: headed})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]span3{{"f", 5, 15}, {"f", 1, 4}, {"f", 16, 30}}, spans(got.Kept)); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]span3{{"f", 20, 25}}, spans(got.Covered)); diff != "" {
		t.Errorf("covered (-want +got):\n%s", diff)
	}
	// The savings are reported apart (seed AC-028, AC-037): the lines cut
	// from a partly covered candidate, and the covered candidate whole.
	if got.TrimmedTokens != 33 {
		t.Errorf("trimmed = %d, want 33 (11 lines cut)", got.TrimmedTokens)
	}
	if len(got.Covered) == 1 && got.Covered[0].Tokens != 18 {
		t.Errorf("covered tokens = %d, want 18 (6 lines)", got.Covered[0].Tokens)
	}
}

func TestPackErrors(t *testing.T) {
	items := fileItems(8, 10)
	alloc := Allocation{Available: 200, Tokens: map[string]int64{OpenFiles: 200}}
	errRender := errors.New("render failed")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		opts    PackOptions
		want    error
		renders bool // BeforeRender was called
	}{
		{name: "render error as it is", ctx: context.Background(), opts: PackOptions{SelectOptions: SelectOptions{Count: words}, Render: func([]*Item) (string, error) { return "", errRender }}, want: errRender, renders: true},
		{name: "cancelled before rendering", ctx: cancelled, opts: PackOptions{SelectOptions: SelectOptions{Count: words}, Render: headed}, want: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rendered := false
			tt.opts.BeforeRender = func() { rendered = true }
			if _, err := Pack(tt.ctx, items, alloc, tt.opts); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if rendered != tt.renders {
				t.Errorf("BeforeRender called = %v, want %v", rendered, tt.renders)
			}
		})
	}
	for _, opts := range []PackOptions{{Render: headed}, {SelectOptions: SelectOptions{Count: words}}} {
		if _, err := Pack(context.Background(), items, alloc, opts); err == nil || !strings.HasPrefix(err.Error(), "budget: ") {
			t.Errorf("Pack without Count or Render: err = %v, want a budget error", err)
		}
	}
}

// TestPackCancelledWhileReselecting: a context done after the first render
// stops the re-selection with its error.
func TestPackCancelledWhileReselecting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := PackOptions{
		SelectOptions: SelectOptions{Count: words, Overhead: func(*Item, bool) int { return 20 }},
		Render:        func(items []*Item) (string, error) { cancel(); return headed(items) },
	}
	alloc := Allocation{Available: 200, Tokens: map[string]int64{OpenFiles: 200}}
	if _, err := Pack(ctx, fileItems(8, 10), alloc, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// vocabulary of the generated sources: few words, so that the merging
// count below finds repeats across chunk borders.
var vocabulary = []string{"a", "b", "func", "x", "return", "{", "}"}

// merged counts words, a word repeating the one before it for free: not
// additive, like BPE (two texts joined can count less than their sum).
func merged(s string) int {
	f := strings.Fields(s)
	n := len(f)
	for i := 1; i < len(f); i++ {
		if f[i] == f[i-1] {
			n--
		}
	}
	return n
}

// packCase is one generated input of FuzzPack.
type packCase struct {
	cands   []*Item
	sources map[*Text]bool
	alloc   Allocation
	opts    PackOptions
}

// genPack generates candidates (chunks of files that may overlap, and
// tool output without a path), an allocation and a renderer from seed.
func genPack(seed int64, total uint16, split, renderer uint8, bias int8, redistribute, outline bool) (packCase, bool) {
	r := rand.New(rand.NewSource(seed))
	c := packCase{sources: map[*Text]bool{}}
	count := words
	if renderer%2 == 1 {
		count = merged
	}
	text := func(n int) *Text {
		var b strings.Builder
		for l := 0; l < n; l++ {
			for w := r.Intn(6); w >= 0; w-- {
				b.WriteString(vocabulary[r.Intn(len(vocabulary))] + " ")
			}
			b.WriteString("\n")
		}
		t := NewText(b.String())
		c.sources[t] = true
		return t
	}
	scores := []float64{0.2, 0.5, 0.5, 0.8}
	add := func(src *Text, path, label string, start, end int) {
		cat := Categories[r.Intn(len(Categories))]
		content := src.Slice(start, end)
		c.cands = append(c.cands, &Item{Category: cat, Type: cat, Path: path, Label: label, StartLine: start, EndLine: end,
			Source: src, Content: content, Tokens: count(content), Score: scores[r.Intn(len(scores))], Priority: 10 * r.Intn(3), Seq: len(c.cands)})
	}
	for f := r.Intn(4); f >= 0; f-- {
		src := text(1 + r.Intn(60))
		for k := r.Intn(6); k >= 0; k-- {
			start := 1 + r.Intn(src.Lines())
			add(src, fmt.Sprintf("d/f%d.go", f), "", start, min(src.Lines(), start+r.Intn(20)))
		}
	}
	for k := r.Intn(3); k > 0; k-- {
		src := text(1 + r.Intn(10))
		add(src, "", fmt.Sprintf("tool %d", k), 1, src.Lines())
	}
	sort.SliceStable(c.cands, func(i, j int) bool { return Less(c.cands[i], c.cands[j]) })

	pcts := []map[string]int{DefaultPercentages, {OpenFiles: 100}, {ToolResults: 10, OpenFiles: 10, SearchResults: 10, References: 70}}
	alloc, err := Allocate(int64(total), 0, 0, pcts[int(split)%len(pcts)])
	if err != nil {
		return c, false
	}
	c.alloc = alloc

	// The renderer: a header per file (per item for tool output) before
	// its first chunk, or one per item, and optionally a preamble, so an
	// empty pack is not empty text. Overhead estimates the header's cost
	// off by bias (low: the exact count drops; high: Pack re-selects).
	perItem, preamble := renderer%4 >= 2, renderer%8 >= 4
	header := func(it *Item) string {
		return fmt.Sprintf("## File: %s%s (lines %d-%d)\n", it.Path, it.Label, it.StartLine, it.EndLine)
	}
	c.opts = PackOptions{
		SelectOptions: SelectOptions{Redistribute: redistribute, Count: count, FillMin: 1 + r.Intn(60),
			Overhead: func(it *Item, first bool) int {
				if !first && !perItem {
					return max(0, int(bias)/4)
				}
				return max(0, 5+int(bias))
			}},
		Render: func(items []*Item) (string, error) {
			var b strings.Builder
			if preamble {
				b.WriteString("# Context\n")
			}
			seen := map[string]bool{}
			for _, it := range items {
				if perItem || it.Path == "" || !seen[it.Path] {
					b.WriteString(header(it))
				}
				seen[it.Path] = true
				b.WriteString(it.Content)
			}
			return b.String(), nil
		},
	}
	if outline {
		// every third line of the best chunk's file, as outline lines.
		c.opts.Outline = func(best *Item) []*Item {
			var out []*Item
			for l := 1; l <= best.Source.Lines(); l += 3 {
				o := *best
				o.StartLine, o.EndLine, o.Outline = l, l, true
				o.Content = best.Source.Slice(l, l)
				o.Tokens = count(o.Content)
				out = append(out, &o)
			}
			return out
		}
	}
	return c, true
}

// FuzzPack packs generated candidates at arbitrary allocations with
// renderers whose formatting the estimates get wrong either way, and a
// count that is not additive, and checks what Pack promises: the text's
// exact count is Tokens and fits Available; the text is the rendering of
// Kept; no line of a file is kept twice; every kept item is lines of a
// candidate's source (or of its outline), in rank order, and not dropped;
// Pack never does worse than one selection; the same input gives the same
// output.
func FuzzPack(f *testing.F) {
	f.Add(int64(1), uint16(200), uint8(0), uint8(0), int8(0), true, false)
	f.Add(int64(2), uint16(60), uint8(1), uint8(1), int8(20), true, true)
	f.Add(int64(3), uint16(500), uint8(2), uint8(2), int8(-5), false, false)
	f.Add(int64(4), uint16(35), uint8(0), uint8(5), int8(40), false, true)
	f.Add(int64(5), uint16(3000), uint8(1), uint8(7), int8(-40), true, true)
	f.Add(int64(6), uint16(1), uint8(0), uint8(4), int8(0), true, false)
	f.Fuzz(func(t *testing.T, seed int64, total uint16, split, renderer uint8, bias int8, redistribute, outline bool) {
		c, ok := genPack(seed, total, split, renderer, bias, redistribute, outline)
		if !ok {
			return
		}
		got, err := Pack(context.Background(), c.cands, c.alloc, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		count := c.opts.Count
		if n := count(got.Text); n != got.Tokens || got.Tokens > int(c.alloc.Available) {
			t.Fatalf("tokens %d, exact count %d, available %d", got.Tokens, n, c.alloc.Available)
		}
		if text, _ := c.opts.Render(got.Kept); text != got.Text && (got.Text != "" || len(got.Kept) > 0) {
			t.Fatalf("text is not the rendering of the kept items:\n%q\n%q", got.Text, text)
		}
		if !sort.SliceIsSorted(got.Kept, func(i, j int) bool { return Less(got.Kept[i], got.Kept[j]) }) {
			t.Errorf("kept not in rank order: %v", spans(got.Kept))
		}
		dropped := map[*Item]bool{}
		for _, it := range got.Dropped {
			dropped[it] = true
		}
		// Rule 3's drop takes the lowest-ranked: what the exact count
		// dropped ranks below everything kept.
		if got.Recounted > len(got.Dropped) {
			t.Fatalf("recounted %d of %d dropped", got.Recounted, len(got.Dropped))
		}
		for _, d := range got.Dropped[len(got.Dropped)-got.Recounted:] {
			for _, k := range got.Kept {
				if !Less(k, d) {
					t.Errorf("the exact count dropped %s %d-%d (score %v) but kept %s %d-%d (score %v)", d.Path, d.StartLine, d.EndLine, d.Score, k.Path, k.StartLine, k.EndLine, k.Score)
				}
			}
		}
		lines := map[string]bool{}
		for _, k := range got.Kept {
			if dropped[k] {
				t.Errorf("%s %s lines %d-%d both kept and dropped", k.Path, k.Label, k.StartLine, k.EndLine)
			}
			if !c.sources[k.Source] || k.Content != k.Source.Slice(k.StartLine, k.EndLine) || k.StartLine > k.EndLine {
				t.Fatalf("kept %s %s lines %d-%d is not lines of a candidate's source", k.Path, k.Label, k.StartLine, k.EndLine)
			}
			if !k.Outline && !within(k, c.cands) {
				t.Errorf("kept %s %s lines %d-%d is not within a candidate", k.Path, k.Label, k.StartLine, k.EndLine)
			}
			if k.Path == "" {
				continue
			}
			for l := k.StartLine; l <= k.EndLine; l++ {
				key := fmt.Sprintf("%s:%d", k.Path, l)
				if lines[key] {
					t.Errorf("line %s kept twice", key)
				}
				lines[key] = true
			}
		}
		if one, _ := onePass(t, c.cands, c.alloc, c.opts); one > got.Tokens {
			t.Errorf("one selection gives %d tokens, Pack only %d", one, got.Tokens)
		}
		again, err := Pack(context.Background(), c.cands, c.alloc, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		type outcome struct {
			Text                   string
			Tokens, Trimmed        int
			Kept, Dropped, Covered []span3
		}
		of := func(p Packed) outcome {
			return outcome{p.Text, p.Tokens, p.TrimmedTokens, spans(p.Kept), spans(p.Dropped), spans(p.Covered)}
		}
		if diff := cmp.Diff(of(got), of(again)); diff != "" {
			t.Errorf("same input, different pack (-first +second):\n%s", diff)
		}
	})
}

// within reports whether k's lines lie inside a candidate of the same
// source (a candidate whole, or the part or head of one).
func within(k *Item, cands []*Item) bool {
	for _, c := range cands {
		if c.Source == k.Source && c.Path == k.Path && c.Label == k.Label && c.StartLine <= k.StartLine && k.EndLine <= c.EndLine {
			return true
		}
	}
	return false
}

// TestPackCancelledWhileDropping: a context done while the exact count
// drops items stops the drop loop before its next rendering, with the
// context's error (not an emptied pack).
func TestPackCancelledWhileDropping(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	renders := 0
	opts := PackOptions{
		SelectOptions: SelectOptions{Count: words},
		Render: func(items []*Item) (string, error) {
			renders++
			cancel()
			return headed(items)
		},
	}
	// The selection's estimates fit; the exact count of a rendered text
	// (its "## " headers) is always over, so every item would be dropped.
	opts.Count = func(s string) int {
		if strings.HasPrefix(s, "## ") {
			return 1000
		}
		return words(s)
	}
	alloc := Allocation{Available: 200, Tokens: map[string]int64{OpenFiles: 200}}
	if _, err := Pack(ctx, fileItems(8, 10), alloc, opts); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if renders != 1 {
		t.Errorf("rendered %d times after the cancel, want 1", renders)
	}
}
