package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
)

// TestRunTrimCheck: `trim --check` prints the acode/checkConversation
// result and trims nothing; `--markers` marks placeholders (unmarked by
// default).
func TestRunTrimCheck(t *testing.T) {
	in := agentJSON(6, 40)
	tests := []struct {
		name   string
		args   []string
		within bool
		report string
	}{
		{"within", []string{"--check", "--max", "100000"}, true, "within budget"},
		{"over", []string{"--check", "--max", "2000", "--reserve", "500"}, false, "over by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runTrim(context.Background(), tt.args, strings.NewReader(in), &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var res struct {
				MaxInputTokens, CurrentTokens, AvailableTokens, UtilizationPercent int
				WithinBudget                                                       bool
				Level                                                              string
			}
			if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
				t.Fatalf("stdout is not the check result: %v\n%s", err, stdout.String())
			}
			if res.WithinBudget != tt.within || res.AvailableTokens != res.MaxInputTokens-res.CurrentTokens || res.CurrentTokens < 1000 {
				t.Errorf("check %+v", res)
			}
			if !strings.Contains(stderr.String(), "check: ") || !strings.Contains(stderr.String(), tt.report) {
				t.Errorf("report %q", stderr.String())
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := runTrim(context.Background(), []string{"--max", "2000", "--markers"}, strings.NewReader(in), &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), `"_truncated":true,"_originalTokens":`) {
		t.Errorf("--markers: exit %d\n%s", code, stdout.String())
	}
	stdout.Reset()
	if code := runTrim(context.Background(), []string{"--max", "2000"}, strings.NewReader(in), &stdout, &stderr); code != 0 ||
		strings.Contains(stdout.String(), "_truncated") || !strings.Contains(stdout.String(), "[content truncated") {
		t.Errorf("no markers by default: exit %d\n%s", code, stdout.String())
	}
}

// TestRunTrimTokenizerFile: --tokenizer-file counts with a tokenizer.json
// (the small one committed under testdata/tokenizer, so no npm is needed) —
// the counts of that file's tokenizer, not of the default model.
func TestRunTrimTokenizerFile(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "tokenizer", "small-bpe.json")
	in := `[{"role":"user","content":"Ünïcode 🚀 func main() { fmt.Println(\"héllo\") }"}]`
	var msgs []conversation.Message
	if err := json.Unmarshal([]byte(in), &msgs); err != nil {
		t.Fatal(err)
	}
	llama, err := tokenizer.ForFile(file)
	if err != nil {
		t.Fatal(err)
	}
	gpt, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	if conversation.ConversationTokens(llama, msgs) == conversation.ConversationTokens(gpt, msgs) {
		t.Fatal("the test text counts the same under the file's tokenizer and o200k_base")
	}
	var stdout, stderr bytes.Buffer
	if code := runTrim(context.Background(), []string{"--check", "--max", "1000", "--tokenizer-file", file}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var res struct{ CurrentTokens int }
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || res.CurrentTokens != conversation.ConversationTokens(llama, msgs) {
		t.Errorf("currentTokens %d, want %d (%v)", res.CurrentTokens, conversation.ConversationTokens(llama, msgs), err)
	}
	stdout.Reset()
	stderr.Reset()
	// A bad flag value: exit 2 naming the flag (docs/design.md "Command line").
	if code := runFit(context.Background(), []string{"--tokenizer-file", "missing.json"}, strings.NewReader("x\n"), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "--tokenizer-file") || !strings.Contains(stderr.String(), "missing.json") {
		t.Errorf("missing file: exit %d, %s", code, stderr.String())
	}
}
