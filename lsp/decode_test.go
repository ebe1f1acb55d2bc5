package lsp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

func TestDecodeParamsNamesThePath(t *testing.T) {
	tests := []struct {
		name   string
		target any
		raw    string
		want   string // the start of the message
	}{
		{"type error inside an array", new(packParams), `{"sources":[{"type":"reference","content":"x"},{"type":"reference","uri":5}]}`,
			`invalid params: sources[1].uri: expected a string, got number`},
		{"malformed time", new(packParams), `{"sources":[{"type":"tool_result","content":"x","timestamp":"yesterday"}]}`,
			`invalid params: sources[0].timestamp: "yesterday" is not an RFC 3339 time`},
		{"nested position", new(packParams), `{"sources":[{"type":"reference","uri":"file:///a","range":{"start":{"line":"a"}}}]}`,
			`invalid params: sources[0].range.start.line: expected an integer, got string`},
		{"map value", new(packParams), `{"budget":{"categories":{"tool_results":"all"}}}`,
			`invalid params: budget.categories.tool_results: expected an integer, got string`},
		{"top-level field", new(packParams), `{"query":5}`, `invalid params: query: expected a string, got number`},
		{"embedded token", new(packParams), `{"workDoneToken":{"a":1}}`, `invalid params: workDoneToken: `},
		{"conversation request", new(conversation.TrimRequest), `{"messages":[{"role":"user","content":"hi"}],"maxContextTokens":"many"}`,
			`invalid params: maxContextTokens: expected an integer, got string`},
		{"not an object", new(packParams), `[1]`, `invalid params: params: must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := rpc.DecodeParams(json.RawMessage(tt.raw), tt.target)
			if err == nil {
				t.Fatalf("decoded %s without an error", tt.raw)
			}
			if !strings.HasPrefix(err.Message, tt.want) {
				t.Errorf("message %q, want it to start with %q", err.Message, tt.want)
			}
		})
	}
}

func TestFieldPathOfValidParams(t *testing.T) {
	raw := json.RawMessage(`{"query":"q","sources":[{"type":"reference","uri":"file:///a","range":{"start":{"line":1,"character":0},"end":{"line":2,"character":0}},"timestamp":"2026-11-22T10:00:00Z"}]}`)
	if diff := cmp.Diff("", rpc.FieldPath(raw, reflect.TypeOf(new(packParams)))); diff != "" {
		t.Errorf("valid params blamed (-want +got):\n%s", diff)
	}
}

// FuzzDecodeParams checks that any params either decode or are answered
// -32602 with a message that names a field, and never panic.
func FuzzDecodeParams(f *testing.F) {
	for _, s := range []string{
		`{"sources":[{"type":"reference","uri":5}]}`,
		`{"budget":{"categories":{"x":"y"}},"search":{"maxResults":"z"}}`,
		`{"sources":[[]],"query":{}}`,
		`{"workDoneToken":[1,2]}`,
		`{}`, `null`, `"x"`, `{"sources":[{"timestamp":7}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := rpc.DecodeParams(json.RawMessage(raw), new(packParams))
		if err == nil {
			return
		}
		msg := strings.TrimPrefix(err.Message, "invalid params: ")
		if msg == err.Message {
			t.Fatalf("message %q does not start with %q", err.Message, "invalid params: ")
		}
		field, _, ok := strings.Cut(msg, ": ")
		if !ok || field == "" {
			t.Fatalf("message %q names no field", err.Message)
		}
	})
}
