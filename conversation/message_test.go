package conversation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// words is a fake Counter: one token per whitespace-separated word.
type words struct{}

func (words) Count(s string) int { return len(strings.Fields(s)) }

func compactJSON(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func marshalNoHTML(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestMessageRoundTrip(t *testing.T) {
	tests := []struct{ name, in string }{
		{"string content", `{"role":"user","content":"hi <b> & \"you\"\n"}`},
		{"unknown fields keep their order", `{"x_meta":{"a":[1,2]},"role":"assistant","content":"ok","refusal":null,"annotations":[]}`},
		{"null content and tool calls", `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]}`},
		{"tool result", `{"role":"tool","tool_call_id":"call_1","name":"read_file","content":"package a"}`},
		{"parts", `{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA","detail":"low"}},{"type":"image"}]}`},
		{"no content", `{"role":"assistant","tool_calls":[]}`},
		{"object arguments", `{"role":"assistant","content":"","tool_calls":[{"id":"1","function":{"name":"read","arguments":{}}}]}`},
		{"unicode", `{"role":"user","content":"héllo 世界 🎉 \u2028"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Message
			if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
				t.Fatal(err)
			}
			got := marshalNoHTML(t, m)
			// Re-decode both and compare as generic JSON (escapes may differ).
			var want, have any
			if err := json.Unmarshal([]byte(tt.in), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(got), &have); err != nil {
				t.Fatalf("re-decode %s: %v", got, err)
			}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			// Key order is kept too.
			if keysOf(t, tt.in) != keysOf(t, got) {
				t.Errorf("key order %s, want %s", keysOf(t, got), keysOf(t, tt.in))
			}
		})
	}
}

func keysOf(t *testing.T, s string) string {
	t.Helper()
	keys, _, err := decodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(keys, ",")
}

func TestMessageDecodeErrors(t *testing.T) {
	tests := []struct{ name, in, field string }{
		{"content number", `{"role":"user","content":42}`, "messages[1].content"},
		{"role number", `{"role":7,"content":"x"}`, "messages[1].role"},
		{"part without type", `{"role":"user","content":[{"text":"x"}]}`, "messages[1].content"},
		{"part not an object", `{"role":"user","content":["x"]}`, "messages[1].content"},
		{"tool calls object", `{"role":"assistant","tool_calls":{}}`, "messages[1].tool_calls"},
		{"tool call id number", `{"role":"tool","tool_call_id":1,"content":"x"}`, "messages[1].tool_call_id"},
		{"name number", `{"role":"user","name":1,"content":"x"}`, "messages[1].name"},
		{"the first bad field is named", `{"name":1,"role":7,"content":"x"}`, "messages[1].name"},
		{"nulls are fine, the role is not", `{"role":null,"tool_calls":null,"tool_call_id":null,"name":null,"content":"x"}`, "messages[1].role"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var msgs []Message
			if err := json.Unmarshal([]byte(`[{"role":"user","content":"ok"},`+tt.in+`]`), &msgs); err != nil {
				t.Fatalf("decoding failed instead of being reported by Trim: %v", err)
			}
			_, err := Trim(context.Background(), words{}, TrimRequest{Messages: msgs, MaxContextTokens: 100})
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Field != tt.field {
				t.Errorf("err = %v, want a ParamError on %q", err, tt.field)
			}
		})
	}
	var m Message
	if err := json.Unmarshal([]byte(`"not an object"`), &m); err == nil {
		t.Error("a message that is not an object decoded")
	}
}

func TestBuiltMessageEncoding(t *testing.T) {
	msgs := []Message{
		{Role: RoleUser, Content: TextContent("hi")},
		{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "read_file", Arguments: json.RawMessage(`"{}"`)}}},
		{Role: RoleTool, ToolCallID: "c1", Content: PartsContent(Part{Type: "text", Text: "x"})},
	}
	got := marshalNoHTML(t, msgs)
	want := `[{"role":"user","content":"hi"},` +
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}]},` +
		`{"role":"tool","content":[{"type":"text","text":"x"}],"tool_call_id":"c1"}]`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMessageTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"string", `{"role":"user","content":"one two three"}`, 4 + 3},
		{"empty", `{"role":"user","content":""}`, 4},
		{"null", `{"role":"assistant","content":null}`, 4},
		{"text parts", `{"role":"user","content":[{"type":"text","text":"a b"},{"type":"text","text":"c"}]}`, 4 + 3},
		{"image parts", `{"role":"user","content":[{"type":"text","text":"see"},{"type":"image"},{"type":"image_url","image_url":{"url":"u"}}]}`, 4 + 1 + 2000},
		{"other part counts its JSON", `{"role":"user","content":[{"type":"input_audio", "input_audio": {"data": "x"}}]}`, 4 + 4},
		{"tool call string arguments", `{"role":"assistant","content":"","tool_calls":[{"id":"1","function":{"name":"read_file","arguments":"{\"path\": \"a.go\"}"}}]}`, 4 + (1 + 2 + 10)},
		{"two tool calls, object arguments", `{"role":"assistant","content":"go","tool_calls":[` +
			`{"id":"1","function":{"name":"a","arguments":{"x": 1}}},{"id":"2","function":{"name":"b c","arguments":""}}]}`, 4 + 1 + (1 + 1 + 10) + (2 + 0 + 10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Message
			if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
				t.Fatal(err)
			}
			if got := MessageTokens(words{}, m); got != tt.want {
				t.Errorf("MessageTokens = %d, want %d", got, tt.want)
			}
		})
	}
	list := []Message{{Role: RoleUser, Content: TextContent("a b")}, {Role: RoleAssistant, Content: TextContent("c")}}
	if got, want := ConversationTokens(words{}, list), 3+(4+2)+(4+1); got != want {
		t.Errorf("ConversationTokens = %d, want %d", got, want)
	}
	if got := ConversationTokens(words{}, nil); got != ListOverhead {
		t.Errorf("ConversationTokens(nil) = %d, want %d", got, ListOverhead)
	}
}
