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

// The worked examples of docs/conversation.md are checked here, so the doc
// cannot drift from the code.

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/conversation.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func atoiComma(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

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

var docResult = regexp.MustCompile("(?s)Result \\(example (\\w+)\\):\\s*```json\\n(\\{.*?\\})\\n```")

func TestDocsExamples(t *testing.T) {
	doc := readDoc(t)
	found := docResult.FindAllStringSubmatch(doc, -1)
	examples := docExamples()
	if len(found) != len(examples) {
		t.Fatalf("doc has %d example results, want %d", len(found), len(examples))
	}
	for _, m := range found {
		t.Run(m[1], func(t *testing.T) {
			req, ok := examples[m[1]]
			if !ok {
				t.Fatalf("no example %q", m[1])
			}
			tk, err := tokenizer.ForModel(req.Model)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Trim(context.Background(), tk, req)
			if err != nil {
				t.Fatal(err)
			}
			var want, got map[string]any
			if err := json.Unmarshal([]byte(m[2]), &want); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(res)
			_ = json.Unmarshal(b, &got)
			for k := range got {
				if _, ok := want[k]; !ok {
					delete(got, k)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("doc result (-doc +code):\n%s", diff)
			}
		})
	}
}

var docSectionRow = regexp.MustCompile(`(?m)^\| (\w+) \| (\d+) % \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$`)

func TestDocsSectionTable(t *testing.T) {
	rows := docSectionRow.FindAllStringSubmatch(readDoc(t), -1)
	if len(rows) != len(Sections) {
		t.Fatalf("doc table has %d sections, want %d", len(rows), len(Sections))
	}
	for i, limit := range []int{8192, 128000, 200000} {
		b, err := SectionBudget(SectionBudgetRequest{ContextLimit: limit})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if got, want := b.Sections[r[1]], atoiComma(t, r[3+i]); got != want {
				t.Errorf("%s at %d: code %d, doc %d", r[1], limit, got, want)
			}
			if got, want := b.Ratios[r[1]]*100, float64(atoiComma(t, r[2])); got < want-1e-9 || got > want+1e-9 {
				t.Errorf("%s ratio: code %v, doc %v", r[1], got, want)
			}
		}
	}
	// The "used" example under the table.
	b, err := SectionBudget(SectionBudgetRequest{ContextLimit: 8192, Used: map[string]int{"recentMessages": 6000}})
	if err != nil {
		t.Fatal(err)
	}
	if b.Available["recentMessages"] != 0 || b.Percent != 91.5 || b.Level != LevelCritical || len(b.Warnings) != 2 ||
		!strings.Contains(b.Warnings[0], "3707 over") {
		t.Errorf("used example: %+v", b)
	}
}

var docLimitRow = regexp.MustCompile(`(?m)^\| ([a-z0-9.-]+) \| ([\d,]+) \|$`)

func TestDocsContextLimits(t *testing.T) {
	rows := docLimitRow.FindAllStringSubmatch(readDoc(t), -1)
	got := map[string]int{}
	for _, r := range rows {
		got[r[1]] = atoiComma(t, r[2])
	}
	if diff := cmp.Diff(map[string]int(DefaultContextLimits()), got); diff != "" {
		t.Errorf("doc table of context limits (-code +doc):\n%s", diff)
	}
}

func TestDocsHistoryExamples(t *testing.T) {
	doc := readDoc(t)
	files := "cmd/acode-lsp/main.go\ncmd/acode-lsp/trim.go\nconversation/trim.go\nconversation/fit.go\nconversation/testdata/trim/a.txtar\ndocs/conversation.md\nREADME.md\ngo.mod\n"
	diff := "diff --git a/cart/service.go b/cart/service.go\n--- a/cart/service.go\n+++ b/cart/service.go\n@@ -10,6 +10,9 @@\n func Checkout() {\n+\tif len(c.Items) == 0 {\n+\t\treturn ErrEmpty\n+\t}\n-\told()\n" +
		"diff --git a/cart/service_test.go b/cart/service_test.go\n--- a/cart/service_test.go\n+++ b/cart/service_test.go\n@@ -1 +1,2 @@\n+// empty carts\n"
	search := "cart/service.go:12:func Checkout(ctx context.Context) error {\ncart/service.go:40:\treturn Checkout(ctx)\ncart/handler.go:7:\tcart.Checkout(ctx)\n"
	tests := []struct{ tool, content, pattern, docPrefix string }{
		{ToolProjectFiles, files, "", "Listed 8 files. By extension: .go (4), .md (2), .mod (1), .txtar (1). Top directories: conversation/ (3), ./ (2), cmd/ (2), docs/ (1). First: cmd/acode-lsp/main.go, "},
		{ToolSearchContent, search, "Checkout", "Found 3 matches for 'Checkout' in 2 files: cart/service.go (2), cart/handler.go (1)."},
		{ToolVCSDiff, diff, "", "Diff: 2 files, +4/-1 lines. Files: cart/service.go (+3/-1), cart/service_test.go (+1/-0)."},
	}
	c := realCounter(t)
	for _, tt := range tests {
		res, err := Compress(context.Background(), c, FitRequest{Tool: tt.tool, Content: tt.content, MaxTokens: 200, Pattern: tt.pattern})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Content, tt.docPrefix) {
			t.Errorf("%s summary %q, doc shows %q", tt.tool, res.Content, tt.docPrefix)
		}
		if !strings.Contains(doc, strings.TrimSuffix(tt.docPrefix, ", ")) {
			t.Errorf("doc does not show %q", tt.docPrefix)
		}
	}
}

// TestDocsPresetsAndHints checks the numbers of the presets, hints and
// thresholds sections against the code.
func TestDocsPresetsAndHints(t *testing.T) {
	doc := readDoc(t)
	var want []string
	for _, m := range []string{"gpt-4o", "o3"} {
		res, err := SectionBudget(SectionBudgetRequest{Model: m, Preset: PresetTiers})
		if err != nil {
			t.Fatal(err)
		}
		s := res.Sections
		if m == "o3" {
			want = append(want, fmt.Sprintf("total %s = system %s, history %s, toolResults %s,\nuserMessage %s, response %s",
				thousands(res.Total), thousands(s[TierSystem]), thousands(s[TierHistory]), thousands(s[TierToolResults]), thousands(s[TierUserMessage]), thousands(s[TierResponse])))
		} else {
			want = append(want, fmt.Sprintf("(gpt-4o: %s, %s,\n%s, %s, %s)", thousands(s[TierSystem]), thousands(s[TierHistory]), thousands(s[TierToolResults]), thousands(s[TierUserMessage]), thousands(s[TierResponse])))
		}
	}
	var mem []string
	for _, l := range []int{8192, 128000, 200000} {
		res, err := SectionBudget(SectionBudgetRequest{ContextLimit: l, Preset: PresetCompressor})
		if err != nil {
			t.Fatal(err)
		}
		mem = append(mem, fmt.Sprintf("%s → %s", thousands(l), thousands(res.Memory)))
	}
	want = append(want, "("+strings.Join(mem, "; ")+" — checked")
	b, err := SectionBudget(SectionBudgetRequest{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	hints, _ := json.Marshal(b.Hints.Tools[ToolProjectFiles])
	want = append(want, b.Hints.Text, string(hints), fmt.Sprintf(`"hints":{"maxTokens":%d,"remaining":%d,"section":"%s"`, b.Hints.MaxTokens, b.Hints.Remaining, b.Hints.Section))
	th, err := SectionBudget(SectionBudgetRequest{ContextLimit: 32000, Used: map[string]int{SectionRecentMessages: 5601}})
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, strings.SplitN(th.Warnings[0], ":", 2)[0])
	flat := strings.Join(strings.Fields(doc), " ")
	for _, w := range want {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Errorf("docs/conversation.md does not show %q", w)
		}
	}
}
