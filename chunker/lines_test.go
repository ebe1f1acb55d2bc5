package chunker

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLineIndex(t *testing.T) {
	tests := []struct {
		src    string
		starts []int
		blank  []bool
	}{
		{"", nil, nil},
		{"a", []int{0}, []bool{false}},
		{"a\n", []int{0}, []bool{false}},
		{"a\nb", []int{0, 2}, []bool{false, false}},
		{"\n\n", []int{0, 1}, []bool{true, true}},
		{"a\r\n \t\r\nb\n", []int{0, 3, 7}, []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			li := newLineIndex([]byte(tt.src))
			if diff := cmp.Diff(tt.starts, li.starts); diff != "" {
				t.Errorf("starts (-want +got):\n%s", diff)
			}
			var blank []bool
			for i := range li.count() {
				blank = append(blank, li.blank(i))
				if got := li.lineOf(li.start(i)); got != i {
					t.Errorf("lineOf(start(%d)) = %d", i, got)
				}
				if got := li.lineOf(li.end(i) - 1); got != i {
					t.Errorf("lineOf(end(%d)-1) = %d", i, got)
				}
			}
			if diff := cmp.Diff(tt.blank, blank); diff != "" {
				t.Errorf("blank (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	src := []byte(lines("aaaaaaa", "bbbbbbb", "ccccccc", strings.Repeat("d", 40), "eeeeeee", "fffffff"))
	tests := []struct {
		name       string
		start, end int
		max        int
		want       [][2]int // line ranges
		oversize   []bool
	}{
		{"whole file, two lines per window", 1, 6, 4, [][2]int{{1, 2}, {3, 3}, {4, 4}, {5, 6}}, []bool{false, false, true, false}},
		{"a range keeps file line numbers", 2, 3, 4, [][2]int{{2, 3}}, []bool{false}},
		{"range clamped to the file", -5, 99, 100, [][2]int{{1, 6}}, []bool{false}},
		{"one line", 5, 5, 1, [][2]int{{5, 5}}, []bool{true}},
		{"empty range", 4, 3, 10, [][2]int{}, []bool{}},
		{"range after the file", 7, 9, 10, [][2]int{}, []bool{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{MaxTokens: tt.max}
			cs := SplitLines(src, tt.start, tt.end, quarter, opts)
			got, over := [][2]int{}, []bool{}
			for _, c := range cs {
				got = append(got, [2]int{c.StartLine, c.EndLine})
				over = append(over, c.Oversize)
				if c.Kind != "lines" || c.Name != "" || c.TopLevel {
					t.Errorf("chunk %d-%d: kind %q name %q top %v, want a plain lines chunk", c.StartLine, c.EndLine, c.Kind, c.Name, c.TopLevel)
				}
				if c.Content != string(src[c.StartByte:c.EndByte]) || c.Tokens != quarter(c.Content) {
					t.Errorf("chunk %d-%d: content or tokens do not match the source", c.StartLine, c.EndLine)
				}
				if c.Tokens > tt.max && !c.Oversize {
					t.Errorf("chunk %d-%d: %d tokens over max %d", c.StartLine, c.EndLine, c.Tokens, tt.max)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ranges (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.oversize, over); diff != "" {
				t.Errorf("oversize (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWindowsParts checks that a named declaration split into line windows
// keeps its kind and numbers its parts.
func TestWindowsParts(t *testing.T) {
	src := []byte(lines("func F() {", "\tx := 1", "\ty := 2", "\t_ = x + y", "}"))
	l := newLayout(t.Context(), src, quarter, Options{MaxTokens: 5})
	us, err := l.windows(unit{decl: decl{first: 0, last: 4, kind: "function", name: "F", top: true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []span
	for _, u := range us {
		got = append(got, span{u.first + 1, u.last + 1, u.kind, u.name, u.top})
	}
	want := []span{
		{1, 2, "function", "F (part 1/3)", true},
		{3, 4, "function", "F (part 2/3)", true},
		{5, 5, "function", "F (part 3/3)", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestMerge checks the merge rule: neighbours both under MinTokens are
// joined while the result fits MaxTokens; kind and names follow the parts.
func TestMerge(t *testing.T) {
	src := []byte(lines("// c", "func A() {}", "func B() {}", strings.Repeat("x", 60), "func C() {}", "func D() {}"))
	us := []unit{
		{decl: decl{first: 0, last: 0, kind: "lines"}},
		{decl: decl{first: 1, last: 1, kind: "function", name: "A", top: true}},
		{decl: decl{first: 2, last: 2, kind: "function", name: "B", top: true}},
		{decl: decl{first: 3, last: 3, kind: "lines"}},
		{decl: decl{first: 4, last: 4, kind: "function", name: "C", top: true}},
		{decl: decl{first: 5, last: 5, kind: "function", name: "D", top: true}},
	}
	tests := []struct {
		name string
		opts Options
		want []span
	}{
		{"merge toward min", Options{MaxTokens: 100, MinTokens: 7}, []span{
			{1, 3, "function", "A, B", true}, // lines 1-3 reach 8 tokens ≥ 7
			{4, 4, "lines", "", false},
			{5, 6, "function", "C, D", true},
		}},
		{"max stops merging", Options{MaxTokens: 5, MinTokens: 5}, []span{
			{1, 2, "function", "A", true},
			{3, 3, "function", "B", true},
			{4, 4, "lines", "", false},
			{5, 5, "function", "C", true},
			{6, 6, "function", "D", true},
		}},
		{"no merge", Options{MaxTokens: 100, MinTokens: 100, NoMerge: true}, []span{
			{1, 1, "lines", "", false},
			{2, 2, "function", "A", true},
			{3, 3, "function", "B", true},
			{4, 4, "lines", "", false},
			{5, 5, "function", "C", true},
			{6, 6, "function", "D", true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLayout(t.Context(), src, quarter, tt.opts)
			got, err := l.merge(append([]unit(nil), us...))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, spans(l.chunks(got))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
