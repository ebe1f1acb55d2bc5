package conversation

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFitDefaults: without maxTokens a page is at most 8,000 tokens (seed
// 004's per-tool default) and says which limit it used.
func TestFitDefaults(t *testing.T) {
	c := realCounter(t)
	content := genLines(rand.New(rand.NewPCG(4, 4)), 5000)
	res, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolReadFile, Content: content})
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxTokens != DefaultToolTokens || res.Tokens > DefaultToolTokens || res.Tokens < DefaultToolTokens-200 || res.Continuation == nil {
		t.Errorf("default page: maxTokens %d, %d tokens, continuation %v", res.MaxTokens, res.Tokens, res.Continuation)
	}
	explicit, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 8000})
	if err != nil || explicit.Content != res.Content || explicit.MaxTokens != 0 {
		t.Errorf("the default page differs from maxTokens 8000, or an explicit limit is echoed (%d, %v)", explicit.MaxTokens, err)
	}
}

// TestHistoryDefaults: a history entry is at most 500 characters and the
// result says how full the 12,000-token work history is.
func TestHistoryDefaults(t *testing.T) {
	c := realCounter(t)
	r := rand.New(rand.NewPCG(9, 9))
	var files []string
	for i := 0; i < 800; i++ {
		files = append(files, fmt.Sprintf("pkg%d/sub%d/file_with_a_long_name_%d.%s", i%41, i%7, i, []string{"go", "md", "ts"}[i%3]))
	}
	outputs := map[string]string{
		ToolProjectFiles: strings.Join(files, "\n"),
		ToolReadFile:     genLines(r, 3000),
		"shell":          genLines(r, 200),
	}
	for tool, content := range outputs {
		t.Run(tool, func(t *testing.T) {
			res, err := FitToolResult(context.Background(), c, FitRequest{Tool: tool, Content: content, Mode: ModeHistory})
			if err != nil {
				t.Fatal(err)
			}
			if n := utf8.RuneCountInString(res.Content); n > DefaultHistoryEntryChars || n < 100 {
				t.Errorf("entry of %d characters: %q", n, res.Content)
			}
			if res.HistoryTokens == nil || *res.HistoryTokens != res.Tokens || res.HistoryCap != DefaultHistoryCap || res.HistoryOver != 0 {
				t.Errorf("history %v/%d over %d", res.HistoryTokens, res.HistoryCap, res.HistoryOver)
			}
			// maxChars 0 turns the cap off: more detail.
			full, err := FitToolResult(context.Background(), c, FitRequest{Tool: tool, Content: content, Mode: ModeHistory, MaxChars: ptr(0)})
			if err != nil || utf8.RuneCountInString(full.Content) <= DefaultHistoryEntryChars {
				t.Errorf("no char cap: %d characters (%v)", utf8.RuneCountInString(full.Content), err)
			}
		})
	}
	tests := []struct {
		name         string
		before, cap  int
		wantOverZero bool
	}{
		{"room left", 1000, 0, true},
		{"exactly full", DefaultHistoryCap - 1, 0, false},
		{"already over", 20000, 0, false},
		{"custom cap", 100, 50, false},
	}
	for _, tt := range tests {
		res, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolReadFile, Content: "a\nb\n", Mode: ModeHistory,
			HistoryTokens: ptr(tt.before), HistoryCap: tt.cap})
		if err != nil {
			t.Fatal(err)
		}
		capacity := tt.cap
		if capacity == 0 {
			capacity = DefaultHistoryCap
		}
		after := tt.before + res.Tokens
		if *res.HistoryTokens != after || res.HistoryOver != max(after-capacity, 0) || (res.HistoryOver == 0) != tt.wantOverZero {
			t.Errorf("%s: history %d over %d", tt.name, *res.HistoryTokens, res.HistoryOver)
		}
		if res.HistoryOver > 0 && !strings.Contains(res.Note, fmt.Sprintf("over its %d-token cap by %d tokens", capacity, res.HistoryOver)) {
			t.Errorf("%s: note %q", tt.name, res.Note)
		}
	}
}

// TestSearchSummaryCountsLikeReturned is the example: grep -C
// output whose 4 blocks hold 7 matching lines. Paging returns 4 items, and
// the summary says 4 matches (and the 7 lines).
func TestSearchSummaryCountsLikeReturned(t *testing.T) {
	grep := "cart/a.go-9-func x() {\ncart/a.go:10:\tCheckout(c)\ncart/a.go:11:\tCheckout(d)\ncart/a.go-12-}\n--\n" +
		"cart/a.go:40:\treturn Checkout(e)\n--\n" +
		"cart/b.go-3-// Checkout\ncart/b.go:4:func Checkout() {\ncart/b.go:5:\tcheckout := Checkout\n--\n" +
		"cart/c.go:1:Checkout\ncart/c.go:2:Checkout\n"
	c := words{}
	page, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolSearchContent, Content: grep})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolSearchContent, Content: grep, Mode: ModeHistory, Pattern: "Checkout"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Found 4 matches (7 matching lines) for 'Checkout' in 3 files: cart/a.go (2), cart/b.go (1), cart/c.go (1)."
	if page.Returned != 4 || page.Total != 4 || sum.Returned != 4 || sum.Content != want {
		t.Errorf("page returned %d of %d; summary %q (returned %d), want %q", page.Returned, page.Total, sum.Content, sum.Returned, want)
	}
}
