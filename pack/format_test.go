package pack

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestSectionOrder checks docs/design.md#rule-8's order: file sections by their
// best chunk's score, highest first (ties: priority desc, then path asc);
// a file's chunks in line order under one header; tool output where its
// score puts it.
func TestSectionOrder(t *testing.T) {
	text := func(n int) *budget.Text {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString("line\n")
		}
		return budget.NewText(b.String())
	}
	a, b, c, d := text(40), text(40), text(40), text(40)
	tool := budget.NewText("--- FAIL: TestCheckout\n")
	item := func(path string, src *budget.Text, start, end int, score float64, prio int) *budget.Item {
		it := &budget.Item{Path: path, Type: "open_file", Lang: "go", Source: src, StartLine: start, EndLine: end, Score: score, Priority: prio}
		if path == "" {
			it.Type, it.Label = "tool_result", "go test ./cart"
		}
		it.Content = src.Slice(start, end)
		return it
	}
	items := []*budget.Item{
		item("low.go", a, 1, 5, 0.30, 80),
		item("best.go", b, 20, 25, 0.90, 80), // best chunk of best.go: late in the file
		item("best.go", b, 1, 3, 0.40, 80),
		item("", tool, 1, 1, 0.70, 100), // tool output between the files
		item("tie-b.go", c, 1, 2, 0.50, 80),
		item("tie-a.go", d, 1, 2, 0.50, 80),
		item("ref.go", a, 30, 31, 0.50, 40), // same score, lower priority
		item("mid.go", c, 10, 12, 0.60, 80),
	}
	for i, it := range items {
		it.Seq = i
	}
	sort.SliceStable(items, func(i, j int) bool { return budget.Less(items[i], items[j]) })
	var got []string
	for _, f := range files(items) {
		got = append(got, strings.TrimSuffix(f.Header, "\n"))
	}
	want := []string{
		"## File: best.go (lines 1-3, 20-25)",
		"## Tool: go test ./cart",
		"## File: mid.go (lines 10-12)",
		"## File: tie-a.go (lines 1-2)",
		"## File: tie-b.go (lines 1-2)",
		"## File: ref.go (lines 30-31)",
		"## File: low.go (lines 1-5)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("section order (-want +got):\n%s", diff)
	}
	f := newFormatter(func(s string) int { return len(s) })
	x, err := f.xml(items)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, line := range strings.Split(x, "\n") {
		if strings.HasPrefix(line, "<file") || strings.HasPrefix(line, "<tool") {
			tags = append(tags, strings.TrimSuffix(line, "<![CDATA["))
		}
	}
	wantTags := []string{
		`<file path="best.go" lines="1-3, 20-25">`,
		`<tool label="go test ./cart">`,
		`<file path="mid.go" lines="10-12">`,
		`<file path="tie-a.go" lines="1-2">`,
		`<file path="tie-b.go" lines="1-2">`,
		`<file path="ref.go" lines="30-31">`,
		`<file path="low.go" lines="1-5">`,
	}
	if diff := cmp.Diff(wantTags, tags); diff != "" {
		t.Errorf("xml element order (-want +got):\n%s", diff)
	}
}

// TestFormatParam checks that an unknown format, and xml with a template,
// are parameter errors naming "format" (no silent fallback), for packs and
// previews.
func TestFormatParam(t *testing.T) {
	content := "package a\n"
	tests := []struct {
		name string
		req  Request
	}{
		{"unknown", Request{Format: "yaml"}},
		{"case matters", Request{Format: "XML"}},
		{"xml and a template", Request{Format: FormatXML, Template: "{{range .Files}}{{.Body}}{{end}}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Sources = []Source{{Type: "tool_result", Label: "x", Content: &content}}
			_, err := NewEngine(config.Default(), nil).Pack(t.Context(), req, nil, nil)
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != "format" {
				t.Errorf("Pack: %v, want a ParamError for format", err)
			}
			_, err = NewEngine(config.Default(), nil).Preview(t.Context(), req, nil)
			if !errors.As(err, &pe) || pe.Field != "format" {
				t.Errorf("Preview: %v, want a ParamError for format", err)
			}
		})
	}
}
