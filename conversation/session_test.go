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

// TestAgentLoopWithDefaults is issue 16's done criterion: the 500-step
// agent session driven only by the server's numbers — the check-only
// request before every model call, its hints for the size of each tool
// result and for the response reserve, the default page and history sizes
// — with no budget passed by hand (only the model's name). The
// conversation never leaves the 128K window, no page exceeds its hint,
// and the session's section usage is tracked throughout.
func TestAgentLoopWithDefaults(t *testing.T) {
	c := realCounter(t)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(16, 16))
	const model, id = "gpt-4o", "loop"
	var sessions Sessions
	history := []Message{sys("You are a coding agent."), user("Refactor the cart package.")}
	trims, summaries, pages := 0, 0, 0
	for step := 1; step <= 500; step++ {
		chk, err := CheckConversation(ctx, c, CheckRequest{Messages: history, Model: model, SessionID: id})
		if err != nil {
			t.Fatalf("step %d: check: %v", step, err)
		}
		sessions.RecordConversation(id, chk.CurrentTokens, false)
		// Trim when the hints say so (over, critical, or no room for a
		// full-size tool result), keeping the room they ask for.
		if chk.Hints.TrimNeeded {
			res, err := Trim(ctx, c, TrimRequest{Messages: history, Model: model, ReservedOutputTokens: chk.Hints.TrimReservedOutputTokens, SessionID: id})
			if err != nil {
				t.Fatalf("step %d: trim: %v", step, err)
			}
			sessions.RecordConversation(id, res.FinalTokens, true)
			checkPairs(t, history, res.Messages)
			history = res.Messages
			if !res.Truncated {
				t.Fatalf("step %d: a trim at level critical changed nothing", step)
			}
			trims++
			if chk, err = CheckConversation(ctx, c, CheckRequest{Messages: history, Model: model, SessionID: id}); err != nil {
				t.Fatal(err)
			}
			if chk.CurrentTokens != res.FinalTokens || chk.Hints.MaxTokens != DefaultToolTokens || chk.Hints.TrimNeeded {
				t.Fatalf("step %d: after the trim the check says %d tokens (trim %d), hints %+v", step, chk.CurrentTokens, res.FinalTokens, chk.Hints)
			}
		}
		if chk.Hints.TrimReservedOutputTokens != 19200+DefaultToolTokens || chk.Hints.MaxTokens != DefaultToolTokens {
			t.Fatalf("step %d: hints %+v", step, chk.Hints)
		}
		lines := 5 + r.IntN(400)
		if step%50 == 0 {
			lines = 4000 // an occasional huge read
		}
		output := genLines(r, lines)
		var shown string
		if chk.Hints.MaxTokens > 0 {
			page, err := FitToolResult(ctx, c, FitRequest{Tool: ToolReadFile, Content: output, MaxTokens: chk.Hints.MaxTokens, SessionID: id})
			if err != nil {
				t.Fatalf("step %d: fit: %v", step, err)
			}
			if page.Tokens > chk.Hints.MaxTokens {
				t.Fatalf("step %d: page of %d tokens over the hint %d", step, page.Tokens, chk.Hints.MaxTokens)
			}
			sessions.RecordFit(id, page, ModePage)
			shown, pages = page.Content, pages+1
		}
		if step%10 == 0 || shown == "" { // the work log keeps a summary, with the defaults
			n, _ := sessions.HistoryTokens(id)
			sum, err := FitToolResult(ctx, c, FitRequest{Tool: ToolReadFile, Content: output, Mode: ModeHistory, Path: "cart/x.go", HistoryTokens: &n})
			if err != nil {
				t.Fatalf("step %d: history: %v", step, err)
			}
			if len([]rune(sum.Content)) > DefaultHistoryEntryChars || *sum.HistoryTokens != n+sum.Tokens {
				t.Fatalf("step %d: history entry %q, history %d", step, sum.Content, *sum.HistoryTokens)
			}
			sessions.RecordFit(id, sum, ModeHistory)
			summaries++
			if shown == "" {
				shown = sum.Content
			}
		}
		history = append(history, toolStep(fmt.Sprintf("c%d", step), "read_file", `{"path":"x.go"}`, shown)...)
		if n := ConversationTokens(c, history); n > 128000 {
			t.Fatalf("step %d: %d tokens, over the 128K window", step, n)
		}
	}
	users, hist := sessions.Usage()
	if trims == 0 || pages != 500 || summaries != 50 || len(users) != 1 || users[0].Calls < 1000 || len(hist) != SectionHistorySize {
		t.Errorf("%d trims, %d pages, %d summaries; sessions %+v; %d snapshots", trims, pages, summaries, users, len(hist))
	}
	t.Logf("%d trims, %d pages, %d history summaries", trims, pages, summaries)
}
