package conversation

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// BenchmarkTrim500 trims a 500-message, ~400K-token agent session to a 100K
// window with a warm cache (message counts cached by content), the issue's
// speed target (≤ 50 ms).
func BenchmarkTrim500(b *testing.B) {
	c := realCounter(b)
	msgs := agentTranscript(42, 245, 192)
	orig := ConversationTokens(c, msgs) // warms the cache
	req := TrimRequest{Messages: msgs, MaxContextTokens: 100000}
	for b.Loop() {
		res, err := Trim(context.Background(), c, req)
		if err != nil || res.FinalTokens > 100000 {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(msgs)), "messages")
	b.ReportMetric(float64(orig), "tokens")
}

// BenchmarkTrim500Cold is the same trim with an empty cache every time.
func BenchmarkTrim500Cold(b *testing.B) {
	tk, err := tokenizer.ForModel("gpt-4o")
	if err != nil {
		b.Fatal(err)
	}
	msgs := agentTranscript(42, 245, 192)
	req := TrimRequest{Messages: msgs, MaxContextTokens: 100000}
	for b.Loop() {
		if _, err := Trim(context.Background(), tokenizer.NewCached(tk, 0), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFitPage pages into a 50,000-line output at 8,000 tokens a page
// (one page per iteration, cycling through the output, warm cache).
func BenchmarkFitPage(b *testing.B) {
	c := realCounter(b)
	content := genLines(rand.New(rand.NewPCG(1, 1)), 50000)
	pageAll(b, c, ToolReadFile, content, 8000) // warm
	cur := ""
	for b.Loop() {
		res, err := FitToolResult(context.Background(), c, FitRequest{Tool: ToolReadFile, Content: content, MaxTokens: 8000, Cursor: cur})
		if err != nil {
			b.Fatal(err)
		}
		cur = ""
		if res.Continuation != nil {
			cur = *res.Continuation
		}
	}
}

// BenchmarkCheck500 checks the 500-message session of BenchmarkTrim500
// against a 128K window (acode/checkConversation) with a warm cache: the
// call an agent makes before every model call.
func BenchmarkCheck500(b *testing.B) {
	c := realCounter(b)
	msgs := agentTranscript(42, 245, 192)
	ConversationTokens(c, msgs) // warms the cache
	req := CheckRequest{Messages: msgs, Model: "gpt-4o"}
	for b.Loop() {
		if _, err := CheckConversation(context.Background(), c, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHistory50K summarises a 50,000-line read_file output for the
// work log with the defaults (500 characters).
func BenchmarkHistory50K(b *testing.B) {
	c := realCounter(b)
	content := genLines(rand.New(rand.NewPCG(1, 1)), 50000)
	req := FitRequest{Tool: ToolReadFile, Content: content, Mode: ModeHistory, Path: "x.go"}
	for b.Loop() {
		if _, err := FitToolResult(context.Background(), c, req); err != nil {
			b.Fatal(err)
		}
	}
}
