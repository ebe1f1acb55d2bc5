package conversation

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/google/go-cmp/cmp"
)

// fill is text of exactly n tokens under o200k_base and cl100k_base.
func fill(n int) string {
	if n == 0 {
		return ""
	}
	return "a" + strings.Repeat(" a", n-1)
}

// docStep is one tool step of the worked examples: a read_file call (23
// tokens) and its output.
func docStep(i int, output string) []Message {
	id := fmt.Sprintf("call_%d", i)
	return []Message{
		{Role: RoleAssistant, Content: Content{kind: contentNull}, ToolCalls: []ToolCall{{ID: id, Name: "read_file", Arguments: json.RawMessage(`"{\"path\":\"cart/service.go\"}"`)}}},
		{Role: RoleTool, ToolCallID: id, Content: TextContent(output)},
	}
}

// docExamples are the worked trims of docs/conversation.md.
func docExamples() map[string]TrimRequest {
	// 8K: gpt-4, ten 900-token reads, step 3 failed.
	small := []Message{sys(fill(600)), user(fill(50))}
	for i := 1; i <= 10; i++ {
		out := fill(900)
		if i == 3 {
			out = "error: cannot open cart/legacy.go " + fill(890)
		}
		small = append(small, docStep(i, out)...)
	}
	// 128K: gpt-4o, 150 steps of 1,000-token outputs.
	mid := []Message{sys(fill(2000)), user(fill(100))}
	for i := 1; i <= 150; i++ {
		mid = append(mid, docStep(i, fill(1000))...)
	}
	// 200K: o3, 120 chat turns with pasted 1,500-token logs and 300-token answers.
	large := []Message{sys(fill(3000))}
	for i := 1; i <= 120; i++ {
		large = append(large, user(fill(1500)), asst(fill(300)))
	}
	return map[string]TrimRequest{
		"8K":   {Model: "gpt-4", Messages: small, MaxContextTokens: 8192, ReservedOutputTokens: 1024},
		"128K": {Model: "gpt-4o", Messages: mid, MaxContextTokens: 128000, ReservedOutputTokens: 8000},
		"200K": {Model: "o3", Messages: large, MaxContextTokens: 200000, ReservedOutputTokens: 16000},
	}
}

func TestDocsExamples(t *testing.T) {
	for name, req := range docExamples() {
		tk, err := tokenizer.ForModel(req.Model)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Trim(context.Background(), tk, req)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s: msgs %d original %d final %d max %d placeholders %d dropped %d\n", name, len(req.Messages), res.OriginalTokens, res.FinalTokens, res.MaxTokens, res.Placeholders, res.DroppedCount)
		_ = cmp.Diff
		_ = os.ReadFile
		_ = regexp.MustCompile
		_ = strconv.Itoa
	}
}
