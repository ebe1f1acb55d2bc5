package budget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestToolCopies checks that a tool result holding a file's text (white
// space folded) is packed once: the better-ranked copy stays, the other
// loses exactly the shared lines.
func TestToolCopies(t *testing.T) {
	var file strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&file, "\tline%02d := compute(%d)\n", i, i)
	}
	src := file.String()
	lines := strings.SplitAfter(src, "\n")
	// reformat changes the white space of lines a..b (1-based) the way a
	// tool might (spaces for tabs, trailing blanks, blank lines between).
	reformat := func(a, b int) string {
		var out strings.Builder
		for i := a; i <= b; i++ {
			out.WriteString("    " + strings.TrimSpace(lines[i-1]) + "  \n")
			if i%4 == 0 {
				out.WriteString("\n")
			}
		}
		return out.String()
	}
	type row struct {
		Kind       string
		Start, End int
		Score      float64
	}
	tests := []struct {
		name      string
		tool      string
		toolScore float64
		want      []row
		removed   int
	}{
		{"whole file, tool ranks first: the file's chunks go", reformat(1, 30), 0.9,
			[]row{{"tool", 1, 37, 0.9}}, 3},
		{"lines 8-22, tool ranks first: chunks trimmed around them", reformat(8, 22), 0.9,
			[]row{{"tool", 1, 19, 0.9}, {"file", 1, 7, 0.6}, {"file", 23, 30, 0.4}}, 1},
		{"lines 12-18 inside one chunk: it keeps both sides", reformat(12, 18), 0.9,
			[]row{{"tool", 1, 9, 0.9}, {"file", 1, 10, 0.6}, {"file", 11, 11, 0.5}, {"file", 19, 20, 0.5}, {"file", 21, 30, 0.4}}, 0},
		{"lines 5-20, a file chunk ranks first: the tool result goes, chunks inside take its score", reformat(5, 20), 0.55,
			[]row{{"file", 1, 10, 0.6}, {"file", 11, 20, 0.55}, {"file", 21, 30, 0.4}}, 1},
		{"two lines are no copy", reformat(3, 4), 0.9,
			[]row{{"tool", 1, 3, 0.9}, {"file", 1, 10, 0.6}, {"file", 11, 20, 0.5}, {"file", 21, 30, 0.4}}, 0},
		{"other text is no copy", "--- FAIL: TestX\n" + reformat(3, 9), 0.9,
			[]row{{"tool", 1, 10, 0.9}, {"file", 1, 10, 0.6}, {"file", 11, 20, 0.5}, {"file", 21, 30, 0.4}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := NewText(src)
			chunk := func(a, b int, score float64, seq int) *Item {
				return &Item{Type: "open_file", Category: OpenFiles, Path: "calc.go", Source: text, StartLine: a, EndLine: b,
					Content: text.Slice(a, b), Tokens: b - a + 1, Score: score, Priority: 80, Seq: seq}
			}
			tt2 := NewText(tt.tool)
			tool := &Item{Type: "tool_result", Category: ToolResults, Label: "cat calc.go", Source: tt2, StartLine: 1, EndLine: tt2.Lines(),
				Content: tt.tool, Tokens: tt2.Lines(), Score: tt.toolScore, Priority: 100, Seq: 3}
			items := []*Item{chunk(1, 10, 0.6, 0), chunk(11, 20, 0.5, 1), chunk(21, 30, 0.4, 2), tool}
			out, removed, stats := Dedup(items, DedupOptions{Enabled: true}, func(s string) int { return strings.Count(s, "\n") })
			var got []row
			for _, it := range out {
				kind := "file"
				if it.Path == "" {
					kind = "tool"
				}
				if it.Content != it.Source.Slice(it.StartLine, it.EndLine) || it.Tokens != it.Lines() {
					t.Errorf("%s %d-%d: content or tokens not re-cut from the source", kind, it.StartLine, it.EndLine)
				}
				got = append(got, row{kind, it.StartLine, it.EndLine, it.Score})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if len(removed) != tt.removed || stats.ExactRemoved != tt.removed {
				t.Errorf("removed %d (stats %d), want %d", len(removed), stats.ExactRemoved, tt.removed)
			}
			for _, r := range removed {
				if r.Reason != "duplicate" || r.Into == nil {
					t.Errorf("removed %+v", r)
				}
			}
		})
	}
}
