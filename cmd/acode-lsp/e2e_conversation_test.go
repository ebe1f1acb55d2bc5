package main_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sectionPercents are docs/design.md's default section shares, in percent.
var sectionPercents = map[string]int{"systemPrompt": 15, "goal": 5, "memory": 10, "workingState": 5,
	"conversationSummary": 15, "retrievedContext": 10, "recentMessages": 35, "scaffoldingReminder": 5}

// TestE2ESectionBudget: the errors are in testdata/sessions/errors/section-budget.txtar.
func TestE2ESectionBudget(t *testing.T) {
	e, _ := session(t, nil)
	type result map[string]json.RawMessage
	get := func(params any) result {
		t.Helper()
		var r result
		e.Result("acode/sectionBudget", params, &r)
		return r
	}
	intOf := func(raw json.RawMessage) int {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			t.Errorf("%s is not an integer", raw)
		}
		return n
	}
	for _, limit := range []int{128000, 200000, 8192} {
		t.Run(fmt.Sprintf("contextLimit %d", limit), func(t *testing.T) {
			r := get(map[string]any{"contextLimit": limit, "safety": 0.8})
			total := limit * 8 / 10
			got, want := map[string]int{}, map[string]int{}
			for name, pct := range sectionPercents {
				want[name] = total * pct / 100
				got[name] = intOf(r[name])
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sections of floor(%d·0.8) (-want +got):\n%s", limit, diff)
			}
		})
	}
	t.Run("used, available and level", func(t *testing.T) {
		total := 102400
		tests := []struct {
			used  int
			level string
		}{
			{600, "normal"}, {total*8/10 - 1, "normal"}, {total * 8 / 10, "warning"}, {total * 9 / 10, "warning"},
			{total*9/10 + 1, "critical"},
		}
		for _, tt := range tests {
			memory := 500
			r := get(map[string]any{"contextLimit": 128000, "safety": 0.8,
				"used": map[string]any{"memory": memory, "recentMessages": tt.used - memory}})
			var level string
			_ = json.Unmarshal(r["level"], &level)
			if level != tt.level {
				t.Errorf("used %d of %d: level %q, want %q", tt.used, total, level, tt.level)
			}
			var avail map[string]int
			if err := json.Unmarshal(r["available"], &avail); err != nil {
				t.Fatalf("available = %s: %v", r["available"], err)
			}
			if want := total*10/100 - memory; avail["memory"] != want {
				t.Errorf("available.memory = %d, want %d", avail["memory"], want)
			}
		}
	})
}

// chatMessage is a message of acode/trimConversation.
type chatMessage map[string]any

// messageCost is docs/design.md's cost of a message: content tokens + 4, +10
// and the name and arguments of each tool call, 1,000 per image.
func messageCost(t *testing.T, m chatMessage) int {
	n := 4
	switch c := m["content"].(type) {
	case string:
		n += count(t, "o200k_base", c)
	case []any:
		for _, p := range c {
			part := p.(map[string]any)
			if part["type"] == "image" || part["type"] == "image_url" {
				n += 1000
			} else if s, ok := part["text"].(string); ok {
				n += count(t, "o200k_base", s)
			}
		}
	}
	calls, _ := m["tool_calls"].([]any)
	for _, c := range calls {
		fn := c.(map[string]any)["function"].(map[string]any)
		n += 10 + count(t, "o200k_base", fn["name"].(string)) + count(t, "o200k_base", fn["arguments"].(string))
	}
	return n
}

// listCost is the cost of a message list: its messages + 3.
func listCost(t *testing.T, msgs []chatMessage) int {
	n := 3
	for _, m := range msgs {
		n += messageCost(t, m)
	}
	return n
}

func TestE2ETrimConversation(t *testing.T) {
	e, _ := session(t, nil)
	type trimResult struct {
		Messages       []chatMessage `json:"messages"`
		Truncated      bool          `json:"truncated"`
		DroppedCount   int           `json:"droppedCount"`
		OriginalTokens int           `json:"originalTokens"`
		FinalTokens    int           `json:"finalTokens"`
	}
	toolOutput := strings.Repeat("cart/service.go\ncart/model.go\nweb/src/checkout.ts\n", 40)
	conversation := []chatMessage{
		{"role": "system", "content": "You are terse."},
		{"role": "user", "content": "list the files"},
		{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": "project_files", "arguments": `{"dir":"."}`}}}},
		{"role": "tool", "tool_call_id": "c1", "content": toolOutput},
		{"role": "assistant", "content": "There are 120 files."},
		{"role": "user", "content": []any{map[string]any{"type": "text", "text": "what is in this screenshot?"}, map[string]any{"type": "image"}}},
	}
	// Seven more steps (assistant turns with tool calls), with small outputs.
	for i := 0; i < 7; i++ {
		id := fmt.Sprintf("r%d", i)
		conversation = append(conversation,
			chatMessage{"role": "assistant", "content": fmt.Sprintf("step %d", i), "tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"cart/f%d.go"}`, i)}}}},
			chatMessage{"role": "tool", "tool_call_id": id, "content": fmt.Sprintf("package cart // f%d", i)})
	}
	conversation = append(conversation, chatMessage{"role": "assistant", "content": "Done."}, chatMessage{"role": "user", "content": "thanks"})
	original := listCost(t, conversation)

	t.Run("fits", func(t *testing.T) {
		e := e.In(t)
		var r trimResult
		e.Result("acode/trimConversation", map[string]any{"messages": conversation, "model": "gpt-4o",
			"maxContextTokens": original + 100, "reservedOutputTokens": 100}, &r)
		wantMsgs, _ := json.Marshal(conversation)
		gotMsgs, _ := json.Marshal(r.Messages)
		if diff := cmp.Diff(string(wantMsgs), string(gotMsgs)); diff != "" {
			t.Errorf("messages changed though they fit (-want +got):\n%s", diff)
		}
		r.Messages = nil
		want := trimResult{OriginalTokens: original, FinalTokens: original}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("old tool output becomes a placeholder", func(t *testing.T) {
		e := e.In(t)
		var r trimResult
		e.Result("acode/trimConversation", map[string]any{"messages": conversation, "model": "gpt-4o",
			"maxContextTokens": original - 200, "reservedOutputTokens": 0, "maxAge": 5, "preserveRecentTurns": 4}, &r)
		if !r.Truncated || r.OriginalTokens != original {
			t.Errorf("truncated %v, originalTokens %d; want true, %d", r.Truncated, r.OriginalTokens, original)
		}
		if got := listCost(t, r.Messages); r.FinalTokens != got || got > original-200 {
			t.Errorf("finalTokens %d, the returned messages cost %d, the limit is %d", r.FinalTokens, got, original-200)
		}
		// Pass 1 is enough: only the output older than maxAge steps goes,
		// the small ones stay.
		want := make([]chatMessage, len(conversation))
		copy(want, conversation)
		want[3] = chatMessage{"role": "tool", "tool_call_id": "c1",
			"content": fmt.Sprintf("[content truncated - %d steps ago, %d tokens]", 7, count(t, "o200k_base", toolOutput))}
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(r.Messages)
		if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
			t.Errorf("messages (-want +got):\n%s", diff)
		}
		if r.DroppedCount != 0 {
			t.Errorf("droppedCount = %d, want 0", r.DroppedCount)
		}
	})
	t.Run("cannot fit", func(t *testing.T) {
		e := e.In(t)
		// System messages are never dropped.
		long := append([]chatMessage{{"role": "system", "content": strings.Repeat("Always answer in full sentences. ", 20)}}, conversation[1:]...)
		err := e.CallError("acode/trimConversation", map[string]any{"messages": long, "model": "gpt-4o",
			"maxContextTokens": 100, "reservedOutputTokens": 10})
		var data struct {
			Code          string `json:"code"`
			CurrentTokens *int   `json:"currentTokens"`
			MaxTokens     *int   `json:"maxTokens"`
		}
		_ = json.Unmarshal(err.Data, &data)
		if err.Code != -32803 || data.Code != "ACODE-CTX-003" || data.CurrentTokens == nil || data.MaxTokens == nil || *data.MaxTokens != 90 || *data.CurrentTokens <= 90 {
			t.Errorf("error %d %s, want -32803 with data {code ACODE-CTX-003, currentTokens > 90, maxTokens 90}", err.Code, err.Data)
		}
	})
}

func TestE2EFitToolResult(t *testing.T) {
	e, _ := session(t, nil)
	type fitResult struct {
		Content      string  `json:"content"`
		Tokens       int     `json:"tokens"`
		Returned     int     `json:"returned"`
		Total        int     `json:"total"`
		Continuation *string `json:"continuation"`
		Note         string  `json:"note"`
	}
	var lines []string
	for i := 1; i <= 80; i++ {
		lines = append(lines, fmt.Sprintf("cart/service.go:%d: CheckoutService", i))
	}
	output := strings.Join(lines, "\n") + "\n"

	t.Run("pages", func(t *testing.T) {
		e := e.In(t)
		var pages []string
		returned := 0
		var cursor any
		for n := 0; ; n++ {
			if n > 40 {
				t.Fatal("more than 40 pages")
			}
			params := map[string]any{"tool": "search_content", "content": output, "maxTokens": 60}
			if cursor != nil {
				params["cursor"] = cursor
			}
			var raw json.RawMessage
			e.Result("acode/fitToolResult", params, &raw)
			for _, k := range []string{"content", "tokens", "returned", "total", "continuation", "note"} {
				if _, ok := object(t, raw)[k]; !ok {
					t.Errorf("page %d has no %q", n, k)
				}
			}
			var r fitResult
			_ = json.Unmarshal(raw, &r)
			if r.Tokens != count(t, "o200k_base", r.Content) || r.Tokens > 60 {
				t.Errorf("page %d: tokens %d, content counts %d, maxTokens 60", n, r.Tokens, count(t, "o200k_base", r.Content))
			}
			if r.Total != 80 || r.Returned != strings.Count(r.Content, "\n") {
				t.Errorf("page %d: returned %d of %d, content has %d lines", n, r.Returned, r.Total, strings.Count(r.Content, "\n"))
			}
			returned += r.Returned
			pages = append(pages, r.Content)
			if r.Continuation == nil {
				break
			}
			// The largest leading page: one more item would not fit.
			next := lines[returned]
			if count(t, "o200k_base", r.Content+next+"\n") <= 60 {
				t.Errorf("page %d stops before %q, which fits", n, next)
			}
			if !strings.Contains(r.Note, *r.Continuation) {
				t.Errorf("note %q does not give the cursor", r.Note)
			}
			cursor = *r.Continuation
		}
		if diff := cmp.Diff(output, strings.Join(pages, "")); diff != "" {
			t.Errorf("pages joined (-want +got):\n%s", diff)
		}
	})
	t.Run("history", func(t *testing.T) {
		e := e.In(t)
		var r fitResult
		e.Result("acode/fitToolResult", map[string]any{"tool": "search_content", "content": output, "maxTokens": 40, "mode": "history"}, &r)
		if r.Tokens != count(t, "o200k_base", r.Content) || r.Tokens > 40 {
			t.Errorf("tokens %d, content counts %d, maxTokens 40", r.Tokens, count(t, "o200k_base", r.Content))
		}
		if !strings.Contains(r.Content, "cart/service.go") || !strings.Contains(r.Content, "80") {
			t.Errorf("history %q: want the match count per file (cart/service.go: 80)", r.Content)
		}
	})
}

func TestE2ETrimDropsWholeToolExchanges(t *testing.T) {
	e, _ := session(t, nil)
	msgs := []chatMessage{{"role": "system", "content": "You are terse."}}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("call%d", i)
		msgs = append(msgs,
			chatMessage{"role": "user", "content": fmt.Sprintf("question %d about the checkout service and its carts", i)},
			chatMessage{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"cart/f%d.go"}`, i)}}}},
			chatMessage{"role": "tool", "tool_call_id": id, "content": fmt.Sprintf("package cart // file %d, short", i)},
			chatMessage{"role": "assistant", "content": fmt.Sprintf("answer %d: the cart is fine", i)})
	}
	original := listCost(t, msgs)
	limit := original / 3
	var r struct {
		Messages       []chatMessage `json:"messages"`
		Truncated      bool          `json:"truncated"`
		DroppedCount   int           `json:"droppedCount"`
		OriginalTokens int           `json:"originalTokens"`
		FinalTokens    int           `json:"finalTokens"`
	}
	e.Result("acode/trimConversation", map[string]any{"messages": msgs, "model": "gpt-4o", "maxContextTokens": limit,
		"reservedOutputTokens": 0, "preserveRecentTurns": 2}, &r)
	if !r.Truncated || r.OriginalTokens != original || r.FinalTokens != listCost(t, r.Messages) || r.FinalTokens > limit {
		t.Errorf("truncated %v, tokens %d → %d (messages cost %d), limit %d", r.Truncated, r.OriginalTokens, r.FinalTokens, listCost(t, r.Messages), limit)
	}
	if r.DroppedCount == 0 || len(r.Messages) != len(msgs)-r.DroppedCount {
		t.Errorf("droppedCount %d, %d of %d messages left", r.DroppedCount, len(r.Messages), len(msgs))
	}
	if len(r.Messages) == 0 || r.Messages[0]["role"] != "system" {
		t.Errorf("the system message was dropped")
	}
	calls, results := map[string]bool{}, map[string]bool{}
	for _, m := range r.Messages {
		if id, ok := m["tool_call_id"].(string); ok {
			results[id] = true
		}
		list, _ := m["tool_calls"].([]any)
		for _, c := range list {
			calls[c.(map[string]any)["id"].(string)] = true
		}
	}
	if diff := cmp.Diff(calls, results); diff != "" {
		t.Errorf("a tool call was split from its result (calls -, results +):\n%s", diff)
	}
	tail := msgs[len(msgs)-8:] // the last two turns (user … assistant)
	gotTail, _ := json.Marshal(r.Messages[len(r.Messages)-len(tail):])
	wantTail, _ := json.Marshal(tail)
	if diff := cmp.Diff(string(wantTail), string(gotTail)); diff != "" {
		t.Errorf("the last 2 turns were not preserved (-want +got):\n%s", diff)
	}
}
