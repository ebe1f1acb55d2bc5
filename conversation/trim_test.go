package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Builders of test conversations (costs under the words counter in
// comments: 4 per message, +name+arguments+10 per call).

func sys(text string) Message  { return Message{Role: RoleSystem, Content: TextContent(text)} }
func user(text string) Message { return Message{Role: RoleUser, Content: TextContent(text)} }
func asst(text string) Message { return Message{Role: RoleAssistant, Content: TextContent(text)} }

// call is an assistant step calling tools with the given ids (cost 4 + 12 per call).
func call(ids ...string) Message {
	m := Message{Role: RoleAssistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: id, Name: "run", Arguments: json.RawMessage(`"{}"`)})
	}
	return m
}

func tool(id, text string) Message {
	return Message{Role: RoleTool, ToolCallID: id, Content: TextContent(text)}
}

// out is a tool output of n words starting with label.
func out(label string, n int) string {
	return label + strings.Repeat(" w", n-1)
}

// shape summarises messages for comparisons: role, call ids, the first word
// of the content, or ph(age,tokens) for a placeholder.
func shape(msgs []Message) []string {
	var s []string
	for _, m := range msgs {
		e := m.Role
		for _, c := range m.ToolCalls {
			e += "[" + c.ID + "]"
		}
		if m.ToolCallID != "" {
			e += "(" + m.ToolCallID + ")"
		}
		text := m.Content.Text()
		var age, tokens int
		if _, err := fmt.Sscanf(text, "[content truncated - %d steps ago, %d tokens]", &age, &tokens); err == nil {
			e += fmt.Sprintf("=ph(%d,%d)", age, tokens)
		} else if f := strings.Fields(text); len(f) > 0 {
			e += "=" + f[0]
		}
		s = append(s, e)
	}
	return s
}

// agentSession is a system prompt, a task and eight tool steps: out1 (200
// words, 7 steps old), err2 (an error, 200 words, 6 old), small3 (50 words,
// 5 old), out4..out8 (200 words each), then a final answer.
func agentSession() []Message {
	msgs := []Message{sys("you are helpful"), user("task do it"),
		call("c1"), tool("c1", out("out1", 200)),
		call("c2"), tool("c2", out("err2", 198)+" error: failed"),
		call("c3"), tool("c3", out("small3", 50)),
	}
	for i := 4; i <= 8; i++ {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs, call(id), tool(id, out(fmt.Sprintf("out%d", i), 200)))
	}
	return append(msgs, asst("done"))
}

func TestTrimPasses(t *testing.T) {
	base := agentSession()
	total := ConversationTokens(words{}, base)
	ph := MessageOverhead + 8               // a placeholder message: 8 words
	save200 := (MessageOverhead + 200) - ph // placeholder for a 200-word output
	save50 := (MessageOverhead + 50) - ph   // … for small3
	tests := []struct {
		name    string
		req     TrimRequest
		want    []string
		final   int
		dropped int
		trunc   bool
		phCount int
	}{
		{
			name:  "fits: unchanged",
			req:   TrimRequest{MaxContextTokens: total + 100, ReservedOutputTokens: 100},
			want:  shape(base),
			final: total,
		},
		{
			name: "pass 1 only: old output truncated, error and small kept, recent untouched",
			req:  TrimRequest{MaxContextTokens: total - save200 + 10, ReservedOutputTokens: 10},
			want: []string{"system=you", "user=task",
				"assistant[c1]", "tool(c1)=ph(7,200)",
				"assistant[c2]", "tool(c2)=err2",
				"assistant[c3]", "tool(c3)=small3",
				"assistant[c4]", "tool(c4)=out4", "assistant[c5]", "tool(c5)=out5", "assistant[c6]", "tool(c6)=out6",
				"assistant[c7]", "tool(c7)=out7", "assistant[c8]", "tool(c8)=out8", "assistant=done"},
			final: total - save200, trunc: true, phCount: 1,
		},
		{
			name: "pass 1 in full even when one truncation would do",
			req: TrimRequest{MaxContextTokens: total - 1, ReservedOutputTokens: 0,
				MaxAge: ptr(2), SmallOutputThreshold: ptr(10)},
			want: []string{"system=you", "user=task",
				"assistant[c1]", "tool(c1)=ph(7,200)",
				"assistant[c2]", "tool(c2)=err2",
				"assistant[c3]", "tool(c3)=ph(5,50)",
				"assistant[c4]", "tool(c4)=ph(4,200)", "assistant[c5]", "tool(c5)=ph(3,200)", "assistant[c6]", "tool(c6)=out6",
				"assistant[c7]", "tool(c7)=out7", "assistant[c8]", "tool(c8)=out8", "assistant=done"},
			final: total - 3*save200 - save50, trunc: true, phCount: 4,
		},
		{
			name: "preserveErrors false truncates old errors in pass 1",
			req:  TrimRequest{MaxContextTokens: total - 1, PreserveErrors: ptr(false)},
			want: []string{"system=you", "user=task",
				"assistant[c1]", "tool(c1)=ph(7,200)",
				"assistant[c2]", "tool(c2)=ph(6,200)",
				"assistant[c3]", "tool(c3)=small3",
				"assistant[c4]", "tool(c4)=out4", "assistant[c5]", "tool(c5)=out5", "assistant[c6]", "tool(c6)=out6",
				"assistant[c7]", "tool(c7)=out7", "assistant[c8]", "tool(c8)=out8", "assistant=done"},
			final: total - 2*save200, trunc: true, phCount: 2,
		},
		{
			name: "pass 2: oldest remaining outputs first, errors included, stops when it fits",
			req:  TrimRequest{MaxContextTokens: total - 2*save200 - save50},
			want: []string{"system=you", "user=task",
				"assistant[c1]", "tool(c1)=ph(7,200)",
				"assistant[c2]", "tool(c2)=ph(6,200)",
				"assistant[c3]", "tool(c3)=ph(5,50)",
				"assistant[c4]", "tool(c4)=out4", "assistant[c5]", "tool(c5)=out5", "assistant[c6]", "tool(c6)=out6",
				"assistant[c7]", "tool(c7)=out7", "assistant[c8]", "tool(c8)=out8", "assistant=done"},
			final: total - 2*save200 - save50, trunc: true, phCount: 3,
		},
		{
			name: "pass 3: drops oldest units, keeps system and the last 4 turns",
			req:  TrimRequest{MaxContextTokens: total - 7*save200 - save50 - 7 - 16 - ph - 16 - ph},
			want: []string{"system=you",
				"assistant[c3]", "tool(c3)=ph(5,50)",
				"assistant[c4]", "tool(c4)=ph(4,200)", "assistant[c5]", "tool(c5)=ph(3,200)", "assistant[c6]", "tool(c6)=ph(2,200)",
				"assistant[c7]", "tool(c7)=ph(1,200)", "assistant[c8]", "tool(c8)=ph(0,200)", "assistant=done"},
			final: total - 7*save200 - save50 - 7 - 16 - ph - 16 - ph, dropped: 5, trunc: true, phCount: 6,
		},
		{
			name: "pass 3 with preserveRecentTurns 1",
			req:  TrimRequest{MaxContextTokens: 7 + 3 + 16 + ph + 4 + 1, PreserveRecentTurns: ptr(1)},
			want: []string{"system=you", "assistant[c8]", "tool(c8)=ph(0,200)", "assistant=done"},
			// The last turn is the final answer alone; c8 is the newest droppable unit and still fits.
			final: 7 + 3 + 16 + ph + 4 + 1, dropped: 15, trunc: true, phCount: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Messages = base
			got, err := Trim(context.Background(), words{}, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, shape(got.Messages)); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if got.FinalTokens != tt.final || got.FinalTokens != ConversationTokens(words{}, got.Messages) {
				t.Errorf("FinalTokens = %d, want %d (exact %d)", got.FinalTokens, tt.final, ConversationTokens(words{}, got.Messages))
			}
			if got.OriginalTokens != total || got.DroppedCount != tt.dropped || got.Truncated != tt.trunc || got.Placeholders != tt.phCount {
				t.Errorf("Original, Dropped, Truncated, Placeholders = %d, %d, %v, %d; want %d, %d, %v, %d",
					got.OriginalTokens, got.DroppedCount, got.Truncated, got.Placeholders, total, tt.dropped, tt.trunc, tt.phCount)
			}
			if got.FinalTokens > got.MaxTokens {
				t.Errorf("FinalTokens %d over MaxTokens %d", got.FinalTokens, got.MaxTokens)
			}
		})
	}
}

func TestTrimChatTurns(t *testing.T) {
	// A plain chat: a turn is a user message and the reply.
	msgs := []Message{sys("s")}
	for i := 1; i <= 6; i++ {
		msgs = append(msgs, user(fmt.Sprintf("u%d x x x", i)), asst(fmt.Sprintf("a%d y y y", i)))
	}
	msgs = append(msgs, user("u7 now"))
	total := ConversationTokens(words{}, msgs)
	got, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: total - 1, PreserveRecentTurns: ptr(2)})
	if err != nil {
		t.Fatal(err)
	}
	// Dropping u1 is enough: messages go one by one, oldest first.
	want := []string{"system=s", "assistant=a1", "user=u2", "assistant=a2", "user=u3", "assistant=a3", "user=u4", "assistant=a4",
		"user=u5", "assistant=a5", "user=u6", "assistant=a6", "user=u7"}
	if diff := cmp.Diff(want, shape(got.Messages)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Far too small: everything but the system message and the last two
	// turns (u6 a6, u7) goes, and then it overflows.
	_, err = Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: 20, PreserveRecentTurns: ptr(2)})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want *Error", err)
	}
	kept := 3 + 5 + (4 + 4) + (4 + 4) + (4 + 2)
	if diff := cmp.Diff(map[string]any{"code": string(errcode.Budget), "currentTokens": kept, "maxTokens": 20}, e.Data); diff != "" {
		t.Errorf("Data (-want +got):\n%s", diff)
	}
}

func TestTrimKeepsToolCallsWithResults(t *testing.T) {
	// Parallel calls with results out of order and a user message between
	// a call and its second result: they still go together.
	msgs := []Message{
		sys("s"), user("q1"),
		call("a", "b"), tool("b", out("rb", 30)), user("interrupt"), tool("a", out("ra", 30)),
		asst("answer1"),
		user("q2"), call("c"), tool("c", out("rc", 30)), asst("answer2"),
	}
	total := ConversationTokens(words{}, msgs)
	got, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: total - 60, PreserveRecentTurns: ptr(1)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range shape(got.Messages) {
		if strings.HasPrefix(s, "tool(a)") || strings.HasPrefix(s, "tool(b)") || strings.HasPrefix(s, "assistant[a][b]") {
			if !strings.Contains(strings.Join(shape(got.Messages), " "), "assistant[a][b]") {
				t.Fatalf("tool result kept without its call: %q", shape(got.Messages))
			}
		}
	}
	checkPairs(t, msgs, got.Messages)
}

func TestTrimPlaceholderOnlyWhenCheaper(t *testing.T) {
	msgs := []Message{sys("s"), call("c1"), tool("c1", "ok fine"), call("c2"), tool("c2", out("big", 100)), asst("done")}
	total := ConversationTokens(words{}, msgs)
	got, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: total - 50})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"system=s", "assistant[c1]", "tool(c1)=ok", "assistant[c2]", "tool(c2)=ph(0,100)", "assistant=done"}
	if diff := cmp.Diff(want, shape(got.Messages)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestTrimOverflow(t *testing.T) {
	tests := []struct {
		name    string
		msgs    []Message
		max     int
		current int
	}{
		{"system prompt too large", []Message{sys(out("rules", 500)), user("hi")}, 300, 3 + 504 + 5},
		{"last turns too large", []Message{sys("s"), user(out("huge", 400))}, 300, 3 + 5 + 404},
		{"empty list under the list overhead", nil, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Trim(context.Background(), words{}, TrimRequest{Messages: tt.msgs, MaxContextTokens: tt.max})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Code != errcode.Budget || e.Data["currentTokens"] != tt.current || e.Data["maxTokens"] != tt.max {
				t.Errorf("Code, Data = %s, %v; want %s, current %d max %d", e.Code, e.Data, errcode.Budget, tt.current, tt.max)
			}
			for _, hint := range []string{"system prompt", "preserveRecentTurns", "new session"} {
				if !strings.Contains(e.Message, hint) {
					t.Errorf("message %q does not mention %q", e.Message, hint)
				}
			}
		})
	}
}

func TestTrimInvalid(t *testing.T) {
	msgs := []Message{user("x")}
	tests := []struct {
		name  string
		req   TrimRequest
		field string
	}{
		{"no max", TrimRequest{Messages: msgs}, "maxContextTokens"},
		{"negative max", TrimRequest{Messages: msgs, MaxContextTokens: -5}, "maxContextTokens"},
		{"unknown model", TrimRequest{Messages: msgs, Model: "my-model"}, "maxContextTokens"},
		{"negative reserve", TrimRequest{Messages: msgs, MaxContextTokens: 100, ReservedOutputTokens: -1}, "reservedOutputTokens"},
		{"reserve takes all", TrimRequest{Messages: msgs, MaxContextTokens: 100, ReservedOutputTokens: 100}, "reservedOutputTokens"},
		{"negative turns", TrimRequest{Messages: msgs, MaxContextTokens: 100, PreserveRecentTurns: ptr(-1)}, "preserveRecentTurns"},
		{"negative age", TrimRequest{Messages: msgs, MaxContextTokens: 100, MaxAge: ptr(-1)}, "maxAge"},
		{"negative threshold", TrimRequest{Messages: msgs, MaxContextTokens: 100, SmallOutputThreshold: ptr(-1)}, "smallOutputThreshold"},
		{"unknown role", TrimRequest{Messages: []Message{user("a"), {Role: "robot"}}, MaxContextTokens: 100}, "messages[1].role"},
		{"missing role", TrimRequest{Messages: []Message{{Content: TextContent("a")}}, MaxContextTokens: 100}, "messages[0].role"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Trim(context.Background(), words{}, tt.req)
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != tt.field {
				t.Errorf("err = %v, want a ParamError on %q", err, tt.field)
			}
		})
	}
}

func TestTrimModelLimit(t *testing.T) {
	msgs := []Message{user(out("x", 10))}
	got, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, Model: "gpt-4-0613", ReservedOutputTokens: 192})
	if err != nil {
		t.Fatal(err)
	}
	if got.MaxTokens != 8000 {
		t.Errorf("MaxTokens = %d, want 8192 − 192", got.MaxTokens)
	}
	limits := ContextLimits{"local": 50}
	_, err = Trim(context.Background(), words{}, TrimRequest{Messages: []Message{sys(out("x", 60))}, Model: "local", Limits: limits})
	var e *Error
	if !errors.As(err, &e) || e.Data["maxTokens"] != 50 {
		t.Errorf("err = %v, want ACODE-CTX-003 with maxTokens 50 from the override", err)
	}
}

func TestTrimCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Trim(ctx, words{}, TrimRequest{Messages: agentSession(), MaxContextTokens: 100})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestContainsErrorWord(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"all good", false}, {"ERROR: x", true}, {"an Exception", true}, {"Build FAILED", true},
		{"fatal: not a git repository", true}, {"cannot find package", true}, {"Unable To open", true},
		{"unable", false}, {"fail", false}, {"", false}, {"errorless", true}, {"éèError", true},
	}
	for _, tt := range tests {
		if got := containsErrorWord(tt.s); got != tt.want {
			t.Errorf("containsErrorWord(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// checkPairs fails when out keeps an assistant tool call without one of its
// results (present in in) or a tool result without its call.
func checkPairs(t *testing.T, in, out []Message) {
	t.Helper()
	inResults := map[string]int{}
	for _, m := range in {
		if m.Role == RoleTool {
			inResults[m.ToolCallID]++
		}
	}
	calls, results := map[string]bool{}, map[string]int{}
	for _, m := range out {
		for _, c := range m.ToolCalls {
			calls[c.ID] = true
		}
		if m.Role == RoleTool {
			results[m.ToolCallID]++
		}
	}
	for id := range calls {
		if results[id] != inResults[id] {
			t.Errorf("call %s kept with %d of its %d results", id, results[id], inResults[id])
		}
	}
	for id := range results {
		if !calls[id] {
			t.Errorf("result of %s kept without its call", id)
		}
	}
}
