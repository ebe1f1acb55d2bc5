package conversation

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// TestAgentSessionStaysInWindow is the done criterion: an agent
// runs 500 tool steps, trimming the conversation before every model call
// into a 128K window, and never overflows or splits a call from its result.
func TestAgentSessionStaysInWindow(t *testing.T) {
	c := realCounter(t)
	exact, err := tokenizer.ForModel("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	history := []Message{sys("You are a coding agent."), user("Refactor the cart package.")}
	req := TrimRequest{Model: "gpt-4o", ReservedOutputTokens: 8000}
	var log UsageLog
	for step := 1; step <= 500; step++ {
		lines := 5 + r.IntN(400)
		if step%50 == 0 {
			lines = 4000 // an occasional huge read
		}
		history = append(history, toolStep(fmt.Sprintf("c%d", step), "read_file", `{"path":"x.go"}`, genLines(r, lines))...)
		req.Messages = history
		res, err := Trim(context.Background(), c, req)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if res.FinalTokens > 120000 {
			t.Fatalf("step %d: %d tokens, over 128000 − 8000", step, res.FinalTokens)
		}
		if step%100 == 0 { // cross-check with the uncached tokenizer
			if got := ConversationTokens(exact, res.Messages); got != res.FinalTokens {
				t.Fatalf("step %d: FinalTokens %d, exact recount %d", step, res.FinalTokens, got)
			}
		}
		checkPairs(t, history, res.Messages)
		log.Record(res, 0)
		history = res.Messages // the agent continues from the trimmed list
	}
	if s := log.Stats(); s.Trimmed == 0 || s.AverageUtilization > 1 {
		t.Errorf("usage stats %+v", s)
	}
}

// TestPageLargeOutput is the other done criterion: a 50,000-line tool output
// paged under 8,000 tokens comes back whole, every line exactly once.
func TestPageLargeOutput(t *testing.T) {
	c := realCounter(t)
	content := genLines(rand.New(rand.NewPCG(1, 1)), 50000)
	pages := pageAll(t, c, ToolReadFile, content, 8000)
	var got strings.Builder
	returned := 0
	for i, p := range pages {
		if p.Tokens > 8000 || p.Tokens != c.Count(p.Content) {
			t.Fatalf("page %d: %d tokens (exact %d)", i, p.Tokens, c.Count(p.Content))
		}
		got.WriteString(p.Content)
		returned += p.Returned
	}
	if got.String() != content || returned != 50000 {
		t.Fatalf("%d pages rebuild %d bytes of %d, %d lines of 50000", len(pages), got.Len(), len(content), returned)
	}
	t.Logf("%d pages", len(pages))
}
