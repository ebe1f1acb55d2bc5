package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCompress(t *testing.T) {
	diff := "diff --git a/cart/service.go b/cart/service.go\n--- a/cart/service.go\n+++ b/cart/service.go\n@@ -1,3 +1,4 @@\n ctx\n-old\n+new\n+more\n" +
		"diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -9 +9 @@\n-x\n+y\n"
	log := "commit 1111111111111111\nAuthor: Ann <ann@x>\nDate: today\n\n    Fix checkout for empty carts\n\n" +
		"commit 2222222222222222\nAuthor: Bob <bob@x>\nDate: yesterday\n\n    Add cart service\n\n" +
		"commit 3333333333333333\nAuthor: Ann <ann@x>\nDate: before\n\n    Initial commit\n"
	tests := []struct {
		name string
		req  FitRequest
		want string
	}{
		{
			name: "file list",
			req:  FitRequest{Tool: ToolProjectFiles, Content: "go.mod\ncmd/main.go\ncmd/trim.go\ndocs/a.md\nREADME\n"},
			want: "Listed 5 files. By extension: .go (2), (none) (1), .md (1), .mod (1). Top directories: ./ (2), cmd/ (2), docs/ (1). " +
				"First: go.mod, cmd/main.go, cmd/trim.go, docs/a.md, README.",
		},
		{
			name: "search results per file",
			req:  FitRequest{Tool: ToolSearchContent, Content: "a.go:1:x\na.go-2-ctx\na.go:3:y\n--\nb.go:7:z\n"},
			// Issue 16: matches are counted like returned (two grep -C blocks).
			want: "Found 2 matches (3 matching lines) in 2 files: a.go (1), b.go (1).",
		},
		{
			name: "search results with headings",
			req:  FitRequest{Tool: ToolSearchContent, Content: "a.go\n1:x\n3:y\n\nb.go\n7:z\n"},
			want: "Found 2 matches (3 matching lines) in 2 files: a.go (1), b.go (1).",
		},
		{
			name: "search lines with the pattern",
			req:  FitRequest{Tool: ToolSearchContent, Pattern: "Checkout", Content: "a.go:1:Checkout()\na.go:9:x.Checkout\nb.go:7:Checkout\n"},
			want: "Found 3 matches for 'Checkout' in 2 files: a.go (2), b.go (1).",
		},
		{
			name: "file read with key sections",
			req: FitRequest{Tool: ToolReadFile, Path: "cart/service.go", Content: "package cart\n\nfunc A() {}\n",
				Outline: func(_ context.Context, path, content string) []string { return []string{"func A", "type B"} }},
			want: "Read cart/service.go: 3 lines, 26 bytes. Key sections: func A, type B.\npackage cart\n\nfunc A() {}",
		},
		{
			name: "short file read",
			req:  FitRequest{Tool: ToolReadFile, Path: "cart/service.go", Content: "package cart\n\nfunc A() {}\n"},
			want: "Read cart/service.go: 3 lines, 26 bytes.\npackage cart\n\nfunc A() {}",
		},
		{
			name: "diff",
			req:  FitRequest{Tool: ToolVCSDiff, Content: diff},
			want: "Diff: 2 files, +3/-2 lines. Files: cart/service.go (+2/-1), README.md (+1/-1).",
		},
		{
			name: "log",
			req:  FitRequest{Tool: ToolVCSLog, Content: log},
			want: "Log: 3 commits. Newest: 1111111111 Fix checkout for empty carts. Oldest: 3333333333 Initial commit. Authors: Ann (2), Bob (1).",
		},
		{
			name: "oneline log",
			req:  FitRequest{Tool: ToolVCSLog, Content: "abc1234 Fix it\ndef5678 Start\n"},
			want: "Log: 2 commits. Newest: abc1234 Fix it. Oldest: def5678 Start.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.MaxTokens = 1000
			tt.req.Mode = ModeHistory
			got, err := FitToolResult(context.Background(), words{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Content); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got.Continuation != nil || got.Tokens != (words{}).Count(got.Content) {
				t.Errorf("Continuation %v, Tokens %d", got.Continuation, got.Tokens)
			}
		})
	}
}

func TestCompressWithinMaxTokens(t *testing.T) {
	var files, lines []string
	for i := 0; i < 3000; i++ {
		files = append(files, fmt.Sprintf("pkg%d/sub/file%d.%s", i%37, i, []string{"go", "md", "ts", "json"}[i%4]))
		lines = append(lines, fmt.Sprintf("line %d of the file with some words", i+1))
	}
	long := strings.Repeat("x ", 5000)
	tests := []struct {
		name, tool, content string
	}{
		{"many files", ToolProjectFiles, strings.Join(files, "\n")},
		{"long file", ToolReadFile, strings.Join(lines, "\n")},
		{"generic one huge line", "shell", long},
	}
	for _, tt := range tests {
		for _, max := range []int{1, 5, 20, 60, 400} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, max), func(t *testing.T) {
				got, err := Compress(context.Background(), words{}, FitRequest{Tool: tt.tool, Content: tt.content, MaxTokens: max})
				if err != nil {
					t.Fatal(err)
				}
				if got.Tokens > max || got.Tokens != (words{}).Count(got.Content) {
					t.Errorf("summary of %d tokens (exact %d) for max %d: %q", got.Tokens, (words{}).Count(got.Content), max, got.Content)
				}
				if max >= 60 && !strings.Contains(got.Content, "3000") && tt.tool != "shell" {
					t.Errorf("summary lost the count: %q", got.Content)
				}
			})
		}
	}
	// More room means more detail.
	small, _ := Compress(context.Background(), words{}, FitRequest{Tool: ToolReadFile, Content: strings.Join(lines, "\n"), MaxTokens: 60})
	large, _ := Compress(context.Background(), words{}, FitRequest{Tool: ToolReadFile, Content: strings.Join(lines, "\n"), MaxTokens: 400})
	if !strings.Contains(large.Content, "First lines:") || len(large.Content) <= len(small.Content) {
		t.Errorf("400 tokens gave %q, 60 gave %q", large.Content, small.Content)
	}
}

func TestCompressInvalid(t *testing.T) {
	// An absent maxTokens is the default 8,000 since issue 16; a negative one is an error.
	for field, req := range map[string]FitRequest{
		"maxTokens":     {Tool: ToolReadFile, Content: "x", MaxTokens: -1},
		"maxChars":      {Tool: ToolReadFile, Content: "x", MaxChars: ptr(-1)},
		"historyCap":    {Tool: ToolReadFile, Content: "x", HistoryCap: -5},
		"historyTokens": {Tool: ToolReadFile, Content: "x", HistoryTokens: ptr(-5)},
	} {
		_, err := Compress(context.Background(), words{}, req)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Field != field {
			t.Errorf("err = %v, want a ParamError on %s", err, field)
		}
	}
}

func FuzzCompress(f *testing.F) {
	f.Add("a.go\nb/c.md\n", ToolProjectFiles, uint8(5))
	f.Add("a.go:1:x\n--\nb.go-2-y\n", ToolSearchContent, uint8(3))
	f.Add("a\n1:x\n\nb\n2-y\n", ToolSearchContent, uint8(9))
	f.Add("diff --git\n+++ \n+x\n-y\n--- a\n", ToolVCSDiff, uint8(4))
	f.Add("commit 1234567\nAuthor: <x>\n    s\ncommit abcdefg", ToolVCSLog, uint8(2))
	f.Add("one\ntwo\nthree\n", ToolReadFile, uint8(1))
	f.Fuzz(func(t *testing.T, content, tool string, max uint8) {
		maxTokens := int(max%40) + 1
		res, err := Compress(context.Background(), words{}, FitRequest{Tool: tool, Content: content, MaxTokens: maxTokens, Path: "p"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Tokens > maxTokens || res.Tokens != (words{}).Count(res.Content) {
			t.Fatalf("summary of %d tokens (exact %d) for max %d", res.Tokens, (words{}).Count(res.Content), maxTokens)
		}
		if res.Total != len(splitItems(itemKind(tool), content)) || res.Continuation != nil {
			t.Fatalf("Total %d, Continuation %v", res.Total, res.Continuation)
		}
		if n := utf8.RuneCountInString(res.Content); n > DefaultHistoryEntryChars {
			t.Fatalf("summary of %d characters, over the default %d", n, DefaultHistoryEntryChars)
		}
	})
}
