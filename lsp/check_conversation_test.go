package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
)

// TestCheckConversationMethod: acode/checkConversation answers what
// conversation.CheckConversation computes, with the configured thresholds.
func TestCheckConversationMethod(t *testing.T) {
	root := tempRoot(t)
	writeConfig(t, root, "context:\n  budget:\n    warnings: {warning_percent: 10, critical_percent: 95, min_remaining_tokens: 0}\n")
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	params := `{"messages":[{"role":"system","content":"` + strings.Repeat("rules ", 100) + `"},{"role":"user","content":"hi"}],"maxContextTokens":1000,"reservedOutputTokens":100}`
	var got conversation.CheckResult
	c.result(methodCheckConversation, json.RawMessage(params), &got)
	var req conversation.CheckRequest
	if err := json.Unmarshal([]byte(params), &req); err != nil {
		t.Fatal(err)
	}
	tok, _ := tokenizer.ForModel("gpt-4o")
	want := conversation.ConversationTokens(tok, req.Messages)
	if got.CurrentTokens != want || got.MaxInputTokens != 900 || !got.WithinBudget || got.Level != "warning" ||
		got.Thresholds.WarningPercent != 10 || got.Hints.MaxTokens != min(200, 900-want) || got.Hints.Remaining != 900-want {
		t.Errorf("check %+v, want %d current tokens at warning (config thresholds)", got, want)
	}
	// acode/sectionBudget uses the same configured thresholds.
	var sb conversation.SectionBudgetResult
	c.result(methodSectionBudget, json.RawMessage(`{"contextLimit":128000,"used":{"memory":20000}}`), &sb)
	if sb.Level != "warning" || sb.Thresholds.WarningPercent != 10 {
		t.Errorf("sectionBudget at 19.5%%: level %s thresholds %+v, want warning from the config's 10%%", sb.Level, sb.Thresholds)
	}
	// Per-request thresholds win over the config.
	c.result(methodCheckConversation, json.RawMessage(strings.Replace(params, `"maxContextTokens"`, `"thresholds":{"warningPercent":50},"maxContextTokens"`, 1)), &got)
	if got.Level != "normal" || got.Thresholds.WarningPercent != 50 || got.Thresholds.CriticalPercent != 95 {
		t.Errorf("per-request thresholds: %+v", got)
	}
	m := c.call(methodCheckConversation, json.RawMessage(`{"messages":[],"maxContextTokens":100,"thresholds":{"criticalPercent":5}}`))
	if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "thresholds.criticalPercent") {
		t.Errorf("bad thresholds: %+v", m)
	}
}

// TestSessionAcrossRequests: a session id ties sectionBudget, fit pages,
// history entries and trims together; acode/usageStats shows the session
// and the history of its section usage; debug logs carry counts only.
func TestSessionAcrossRequests(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	c := startServer(t, Options{Logger: zap.New(core)}, nil)
	c.initialize(nil, nil)
	const id = "session-7f3a"
	var sb conversation.SectionBudgetResult
	c.result(methodSectionBudget, json.RawMessage(`{"model":"gpt-4o","sessionId":"`+id+`","used":{"systemPrompt":2000}}`), &sb)
	if sb.Hints.MaxTokens != 8000 || sb.SessionID != id {
		t.Fatalf("first sectionBudget %+v", sb.Hints)
	}
	output := strings.Repeat("cart/service.go:12: secret-looking match text\n", 2000)
	var page conversation.FitResult
	fit, _ := json.Marshal(map[string]any{"tool": "search_content", "content": output, "sessionId": id})
	c.result(methodFitToolResult, json.RawMessage(fit), &page)
	if page.MaxTokens != 8000 || page.Tokens > 8000 || page.Continuation == nil {
		t.Errorf("default page: %d of max %d", page.Tokens, page.MaxTokens)
	}
	var entry conversation.FitResult
	hist, _ := json.Marshal(map[string]any{"tool": "search_content", "content": output, "mode": "history", "pattern": "match", "sessionId": id})
	c.result(methodFitToolResult, json.RawMessage(hist), &entry)
	c.result(methodFitToolResult, json.RawMessage(hist), &entry) // the second entry sees the first in the session's history
	if entry.HistoryTokens == nil || *entry.HistoryTokens != 2*entry.Tokens || !strings.Contains(entry.Content, "for 'match'") {
		t.Errorf("history entry %+v", entry)
	}
	c.result(methodSectionBudget, json.RawMessage(`{"model":"gpt-4o","sessionId":"`+id+`"}`), &sb)
	wantTools := 10240 - page.Tokens
	if sb.Used["systemPrompt"] != 2000 || sb.Used["retrievedContext"] != page.Tokens || sb.Used["conversationSummary"] != 2*entry.Tokens ||
		sb.Hints.MaxTokens != min(8000, wantTools) {
		t.Errorf("second sectionBudget: used %v hints %d", sb.Used, sb.Hints.MaxTokens)
	}
	var st conversation.UsageStats
	c.result(methodUsageStats, nil, &st)
	if len(st.Sessions) != 1 || st.Sessions[0].SessionID != id || st.Sessions[0].Sections["retrievedContext"].Remaining != wantTools ||
		len(st.SectionHistory) != 5 || st.SectionHistory[4].Method != conversation.MethodSectionBudget {
		t.Errorf("usage stats sessions %+v history %d", st.Sessions, len(st.SectionHistory))
	}
	var n int
	for _, e := range logs.FilterMessage("section usage").All() {
		n++
		for _, f := range e.Context {
			if strings.Contains(f.String, id) || strings.Contains(f.String, "secret") || strings.Contains(f.String, "cart/") {
				t.Errorf("debug log carries a request value: %v", e.Context)
			}
		}
	}
	if n != 5 {
		t.Errorf("%d section-usage debug lines, want 5", n)
	}
}

// TestReadFileSummaryOutline: the server's read_file history summary lists
// the file's top-level declarations from the chunker.
func TestReadFileSummaryOutline(t *testing.T) {
	src := "package cart\n\nimport \"fmt\"\n\n// Cart holds items.\ntype Cart struct{ items []string }\n\n" +
		"// Checkout pays.\nfunc (c *Cart) Checkout() error { return fmt.Errorf(\"empty\") }\n\nfunc New() *Cart { return &Cart{} }\n"
	if got := FileOutline(context.Background(), filepath.Join("cart", "cart.go"), src); strings.Join(got, "|") != "struct Cart|method (*Cart).Checkout|function New" {
		t.Errorf("outline %q", got)
	}
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	var res conversation.FitResult
	p, _ := json.Marshal(map[string]any{"tool": "read_file", "path": "cart/cart.go", "content": src, "mode": "history"})
	c.result(methodFitToolResult, json.RawMessage(p), &res)
	if !strings.HasPrefix(res.Content, "Read cart/cart.go: 11 lines, 203 bytes. Key sections: struct Cart, method (*Cart).Checkout, function New.\n") {
		t.Errorf("summary %q", res.Content)
	}
	if got := FileOutline(context.Background(), "notes.unknownext", src); got != nil {
		t.Errorf("no grammar: %q", got)
	}
}

// smallBPEJSON is a small byte-level BPE tokenizer.json committed under
// testdata (testdata/tokenizer/README.md): the test needs a file, not npm.
// That such files count exactly as the built-in encodings do is
// budget/tokenizer's TestForFileMatchesEmbedded.
var smallBPEJSON = filepath.Join("..", "testdata", "tokenizer", "small-bpe.json")

// TestConversationTokenizerFile: a request may count with a tokenizer.json
// (tokenizerFile, absolute or relative to the workspace root); the counts
// are those of that file's tokenizer; a missing or unsupported file
// is -32602 naming tokenizerFile.
func TestConversationTokenizerFile(t *testing.T) {
	abs, err := filepath.Abs(smallBPEJSON)
	if err != nil {
		t.Fatal(err)
	}
	root := tempRoot(t)
	if err := os.MkdirAll(filepath.Join(root, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A request's tokenizerFile must lie inside the workspace (or the
	// user's configuration directory, issue 21): copy the file in.
	data, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "models", "tokenizer.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := abs
	abs = filepath.Join(root, "models", "tokenizer.json")
	writeFiles(t, root, map[string]string{"models/bad.json": `{"model":{"type":"WordPiece","vocab":{}}}`})
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	fileTok, err := tokenizer.ForFile(abs)
	if err != nil {
		t.Fatal(err)
	}
	msgs := `[{"role":"system","content":"Ünïcode, émojis 🚀 and code: func main() { fmt.Println(\"héllo\") }"},{"role":"user","content":"` + strings.Repeat("tokenize this sentence, please; ", 40) + `"}]`
	var req conversation.CheckRequest
	if err := json.Unmarshal([]byte(`{"messages":`+msgs+`}`), &req); err != nil {
		t.Fatal(err)
	}
	want := conversation.ConversationTokens(fileTok, req.Messages)
	gpt := conversation.ConversationTokens(mustTokenizer(t, "gpt-4o"), req.Messages)
	if want == gpt {
		t.Fatalf("the test text counts the same under both tokenizers (%d)", want)
	}
	for _, file := range []string{abs, "models/tokenizer.json"} {
		var got conversation.CheckResult
		fileJSON, _ := json.Marshal(file)
		c.result(methodCheckConversation, json.RawMessage(`{"messages":`+msgs+`,"maxContextTokens":100000,"tokenizerFile":`+string(fileJSON)+`}`), &got)
		if got.CurrentTokens != want {
			t.Errorf("%s: %d tokens, want %d (the file's tokenizer; gpt-4o counts %d)", file, got.CurrentTokens, want, gpt)
		}
	}
	var tr conversation.TrimResult
	c.result(methodTrimConversation, json.RawMessage(`{"messages":`+msgs+`,"maxContextTokens":100000,"tokenizerFile":"models/tokenizer.json"}`), &tr)
	if tr.OriginalTokens != want {
		t.Errorf("trim: %d tokens, want %d", tr.OriginalTokens, want)
	}
	var fit conversation.FitResult
	c.result(methodFitToolResult, json.RawMessage(`{"tool":"read_file","content":"a line\nanother line\n","tokenizerFile":"models/tokenizer.json"}`), &fit)
	if fit.Tokens != fileTok.Count("a line\nanother line\n") {
		t.Errorf("fit: %d tokens, want %d", fit.Tokens, fileTok.Count("a line\nanother line\n"))
	}
	for _, tt := range []struct{ file, says string }{
		{"models/missing.json", "not a readable file"},
		{"models", "not a readable file"},
		{"models/bad.json", "WordPiece"},
		{outside, "outside the workspace"},
	} {
		m := c.call(methodCheckConversation, json.RawMessage(`{"messages":[],"maxContextTokens":100,"tokenizerFile":`+strconv.Quote(tt.file)+`}`))
		if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "tokenizerFile") || !strings.Contains(m.Error.Message, tt.says) {
			t.Errorf("%s: %+v, want -32602 on tokenizerFile saying %q", tt.file, m.Error, tt.says)
		}
	}
}

func mustTokenizer(t *testing.T, model string) tokenizer.Tokenizer {
	t.Helper()
	tk, err := tokenizer.ForModel(model)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}
