package conversation

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func itemTexts(kind, content string) []string {
	var out []string
	for _, s := range splitItems(kind, content) {
		out = append(out, content[s.start:s.end])
	}
	return out
}

func TestSplitItems(t *testing.T) {
	tests := []struct {
		name, kind, content string
		want                []string
	}{
		{"empty", "lines", "", nil},
		{"lines", ToolReadFile, "a\nb\n\nc", []string{"a\n", "b\n", "\n", "c"}},
		{"files", ToolProjectFiles, "go.mod\ncmd/main.go\n", []string{"go.mod\n", "cmd/main.go\n"}},
		{"unknown tool pages lines", "run_tests", "ok\nfail\n", []string{"ok\n", "fail\n"}},
		{"search matches per line", ToolSearchContent, "a.go:1:x\nb.go:7:y\n", []string{"a.go:1:x\n", "b.go:7:y\n"}},
		{"search context blocks", ToolSearchContent, "a.go-1-ctx\na.go:2:hit\n--\nb.go:9:hit\nb.go-10-ctx\n",
			[]string{"a.go-1-ctx\na.go:2:hit\n--\n", "b.go:9:hit\nb.go-10-ctx\n"}},
		{"search heading groups", ToolSearchContent, "a.go\n1:x\n4:y\n\nb.go\n2:z\n",
			[]string{"a.go\n1:x\n4:y\n\n", "b.go\n2:z\n"}},
		{"diff hunks, header with first hunk", ToolVCSDiff,
			"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-e\n+f\n",
			[]string{"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "@@ -9 +9 @@\n-c\n+d\n",
				"diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-e\n+f\n"}},
		{"plain unified diff", ToolVCSDiff, "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n@@ -5 +5 @@\n-z\n",
			[]string{"--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n", "@@ -5 +5 @@\n-z\n"}},
		{"git show: commit header first", ToolVCSDiff, "commit 0123456789abcdef\nAuthor: A\n\n    msg\n\ndiff --git a/x b/x\n@@ -1 +1 @@\n-a\n",
			[]string{"commit 0123456789abcdef\nAuthor: A\n\n    msg\n\n", "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n"}},
		{"diff without markers pages lines", ToolVCSDiff, "x\ny\n", []string{"x\n", "y\n"}},
		{"log commits", ToolVCSLog, "commit aaaaaaa\nAuthor: A <a@x>\n\n    one\n\ncommit bbbbbbb\nAuthor: B <b@x>\n\n    two\n",
			[]string{"commit aaaaaaa\nAuthor: A <a@x>\n\n    one\n\n", "commit bbbbbbb\nAuthor: B <b@x>\n\n    two\n"}},
		{"oneline log", ToolVCSLog, "aaaaaaa one\nbbbbbbb two\n", []string{"aaaaaaa one\n", "bbbbbbb two\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := itemTexts(itemKind(tt.kind), tt.content)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if strings.Join(got, "") != tt.content {
				t.Errorf("items do not cover the content")
			}
		})
	}
}

// pageAll pages content to the end and returns the pages.
func pageAll(t testing.TB, c Counter, tool, content string, maxTokens int) []*FitResult {
	t.Helper()
	var pages []*FitResult
	cur := ""
	for {
		res, err := FitToolResult(context.Background(), c, FitRequest{Tool: tool, Content: content, MaxTokens: maxTokens, Cursor: cur})
		if err != nil {
			t.Fatalf("page %d: %v", len(pages)+1, err)
		}
		pages = append(pages, res)
		if res.Continuation == nil {
			return pages
		}
		if res.Content == "" {
			t.Fatalf("page %d is empty but continues", len(pages))
		}
		if len(pages) > len(content)+1 {
			t.Fatal("paging does not end")
		}
		cur = *res.Continuation
	}
}

func TestFitToolResultPages(t *testing.T) {
	lines := make([]string, 10)
	for i := range lines {
		lines[i] = fmt.Sprintf("line%d a b\n", i+1) // 3 words each
	}
	content := strings.Join(lines, "")
	pages := pageAll(t, words{}, ToolReadFile, content, 7)
	var got []string
	for _, p := range pages {
		got = append(got, fmt.Sprintf("%d/%d %d %q", p.Returned, p.Total, p.Tokens, p.Content))
	}
	want := []string{
		fmt.Sprintf("2/10 6 %q", lines[0]+lines[1]),
		fmt.Sprintf("2/10 6 %q", lines[2]+lines[3]),
		fmt.Sprintf("2/10 6 %q", lines[4]+lines[5]),
		fmt.Sprintf("2/10 6 %q", lines[6]+lines[7]),
		fmt.Sprintf("2/10 6 %q", lines[8]+lines[9]),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	first := pages[0]
	if !strings.HasPrefix(first.Note, "Use cursor "+*first.Continuation+" to continue (items 1–2 of 10 shown; items are lines)") {
		t.Errorf("Note = %q", first.Note)
	}
	if last := pages[len(pages)-1]; last.Note != "Items 9–10 of 10 shown, nothing more (items are lines)" {
		t.Errorf("last Note = %q", last.Note)
	}
	// Stable: the same request gives the same cursor.
	again, err := FitToolResult(context.Background(), words{}, FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 7})
	if err != nil {
		t.Fatal(err)
	}
	if *again.Continuation != *first.Continuation {
		t.Errorf("cursor not stable: %s vs %s", *again.Continuation, *first.Continuation)
	}
}

func TestFitToolResultWholeItems(t *testing.T) {
	diff := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\n"
	res, err := FitToolResult(context.Background(), words{}, FitRequest{Tool: ToolVCSDiff, Content: diff, MaxTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	if want := "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"; res.Content != want || res.Returned != 1 || res.Total != 2 {
		t.Errorf("page = %q %d/%d, want the first hunk with its header", res.Content, res.Returned, res.Total)
	}
	if !strings.Contains(res.Note, "items 1 of 2 shown; items are hunks") {
		t.Errorf("Note = %q", res.Note)
	}
}

func TestFitToolResultOversizedItem(t *testing.T) {
	big := strings.Repeat("w ", 25) + "\n" + strings.Repeat("v ", 25) + "\n" // one 50-word item (a search block)
	content := "a.go:1:hit\n--\n" + big + "--\nb.go:2:hit\n"
	pages := pageAll(t, words{}, ToolSearchContent, content, 30)
	var got []string
	sum := 0
	for _, p := range pages {
		got = append(got, p.Content)
		sum += p.Returned
		if p.Tokens > 30 {
			t.Errorf("page of %d tokens", p.Tokens)
		}
	}
	if strings.Join(got, "") != content || sum != pages[0].Total {
		t.Errorf("pages %q (returned %d of %d) do not rebuild the content", got, sum, pages[0].Total)
	}
	if !strings.Contains(pages[1].Note, "item 2 is larger than maxTokens") {
		t.Errorf("Note = %q", pages[1].Note)
	}
	if !strings.HasSuffix(pages[1].Content, "\n") {
		t.Errorf("oversized item not cut at a line break: %q", pages[1].Content)
	}
}

func TestFitToolResultErrors(t *testing.T) {
	content := "a\nb\nc\n"
	first, err := FitToolResult(context.Background(), words{}, FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 1})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		req   FitRequest
		field string
	}{
		// An absent (zero) maxTokens is the default 8,000 since issue 16: TestFitDefaults.
		{"negative maxTokens", FitRequest{Content: content, MaxTokens: -1}, "maxTokens"},
		{"unknown mode", FitRequest{Content: content, MaxTokens: 10, Mode: "summary"}, "mode"},
		{"garbage cursor", FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 10, Cursor: "!!"}, "cursor"},
		{"cursor not JSON", FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 10, Cursor: base64.RawURLEncoding.EncodeToString([]byte("offset:100"))}, "cursor"},
		{"cursor for other content", FitRequest{Tool: ToolReadFile, Content: content + "d\n", MaxTokens: 10, Cursor: *first.Continuation}, "cursor"},
		{"cursor for another tool", FitRequest{Tool: ToolVCSLog, Content: content, MaxTokens: 10, Cursor: *first.Continuation}, "cursor"},
		{"cursor out of range", FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 10,
			Cursor: cursor{V: cursorVersion, Item: 9, Off: 99, Hash: fingerprint(ToolReadFile, content)}.encode()}, "cursor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FitToolResult(context.Background(), words{}, tt.req)
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != tt.field {
				t.Errorf("err = %v, want a ParamError on %q", err, tt.field)
			}
		})
	}
}

func TestFitToolResultEmpty(t *testing.T) {
	res, err := FitToolResult(context.Background(), words{}, FitRequest{Tool: ToolReadFile, MaxTokens: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Continuation != nil || res.Total != 0 || res.Content != "" {
		t.Errorf("empty output gave %+v", res)
	}
}

// runes is a fake Counter: one token per rune, so that no rune-sized piece
// can fit a budget of 0 and splitting can be tested at rune boundaries.
type runes struct{}

func (runes) Count(s string) int { return len([]rune(s)) }

func TestFitToolResultSplitsAtRunes(t *testing.T) {
	content := strings.Repeat("é世", 10) // one line of 20 runes, no break
	pages := pageAll(t, runes{}, ToolReadFile, content, 7)
	var got []string
	for _, p := range pages {
		got = append(got, p.Content)
	}
	want := []string{"é世é世é世é", "世é世é世é世", "é世é世é世"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if pages[0].Returned != 0 || pages[2].Returned != 1 {
		t.Errorf("Returned = %d, %d, %d; want 0, 0, 1", pages[0].Returned, pages[1].Returned, pages[2].Returned)
	}
}

func FuzzFitToolResultPaging(f *testing.F) {
	f.Add("a b\nc\n\nd e f g\n", "read_file", uint8(2))
	f.Add("a.go:1:x y\n--\nb.go:2:z\nb.go-3-q r s t\n--\n", "search_content", uint8(3))
	f.Add("diff --git a/x b/x\n@@ -1 +1 @@\n-a b c\n+d\n@@ -5 +5 @@\n-e\n", "vcs_diff", uint8(1))
	f.Add("commit abcdef1\n\n    x y z\n\ncommit 1234567\n", "vcs_log", uint8(4))
	f.Add("one two three four five six", "project_files", uint8(1))
	f.Fuzz(func(t *testing.T, content, tool string, max uint8) {
		maxTokens := int(max%16) + 1
		kind := itemKind(tool)
		items := splitItems(kind, content)
		pages := pageAll(t, words{}, tool, content, maxTokens)
		var rebuilt strings.Builder
		returned := 0
		pos := 0
		for i, p := range pages {
			if p.Tokens > maxTokens || p.Tokens != (words{}).Count(p.Content) {
				t.Fatalf("page %d: %d tokens (exact %d), max %d", i, p.Tokens, (words{}).Count(p.Content), maxTokens)
			}
			if p.Total != len(items) {
				t.Fatalf("Total %d, want %d", p.Total, len(items))
			}
			rebuilt.WriteString(p.Content)
			returned += p.Returned
			pos += len(p.Content)
			// Largest page: ending at an item boundary, one more item would not fit.
			if p.Continuation != nil && p.Returned > 0 {
				for _, it := range items {
					if it.start == pos {
						if n := (words{}).Count(content[pos-len(p.Content) : it.end]); n <= maxTokens {
							t.Fatalf("page %d stops at %d but the next item fits (%d tokens)", i, pos, n)
						}
					}
				}
			}
		}
		if rebuilt.String() != content {
			t.Fatalf("pages rebuild %q, want %q", rebuilt.String(), content)
		}
		if returned != len(items) {
			t.Fatalf("pages return %d items, want %d", returned, len(items))
		}
	})
}
