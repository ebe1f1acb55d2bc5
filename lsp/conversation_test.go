package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// direct runs a conversation function on params decoded the way the server
// decodes them, and returns its result as JSON.
func direct[P any](t *testing.T, params string, fn func(*P) (any, error)) string {
	t.Helper()
	p := new(P)
	if err := json.Unmarshal([]byte(params), p); err != nil {
		t.Fatal(err)
	}
	res, err := fn(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConversationMethods(t *testing.T) {
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	gpt4o, _ := tokenizer.ForModel("gpt-4o")
	gpt4, _ := tokenizer.ForModel("gpt-4")

	var msgs []string
	for i := range 12 {
		msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"question %d %s"}`, i, strings.Repeat("words ", 30)),
			fmt.Sprintf(`{"role":"assistant","content":"answer %d %s"}`, i, strings.Repeat("more ", 30)))
	}
	trim := `{"messages":[{"role":"system","content":"be brief"},` + strings.Join(msgs, ",") + `],"maxContextTokens":900,"reservedOutputTokens":100}`
	trimGPT4 := strings.Replace(trim, `"maxContextTokens"`, `"model":"gpt-4","maxContextTokens"`, 1)
	output := strings.Repeat("src/file.go:12: match\n", 200)
	fit, _ := json.Marshal(map[string]any{"tool": "search_content", "content": output, "maxTokens": 300})
	history, _ := json.Marshal(map[string]any{"tool": "search_content", "content": output, "maxTokens": 300, "mode": "history"})

	tests := []struct {
		name, method, params, want string
	}{
		{"sectionBudget", methodSectionBudget, `{"contextLimit":128000}`,
			direct(t, `{"contextLimit":128000}`, func(p *conversation.SectionBudgetRequest) (any, error) { return conversation.SectionBudget(*p) })},
		{"sectionBudget with used", methodSectionBudget, `{"contextLimit":32000,"safety":0.5,"used":{"memory":900}}`,
			direct(t, `{"contextLimit":32000,"safety":0.5,"used":{"memory":900}}`, func(p *conversation.SectionBudgetRequest) (any, error) { return conversation.SectionBudget(*p) })},
		{"trimConversation", methodTrimConversation, trim,
			direct(t, trim, func(p *conversation.TrimRequest) (any, error) {
				return conversation.Trim(context.Background(), gpt4o, *p)
			})},
		{"trimConversation with a model", methodTrimConversation, trimGPT4,
			direct(t, trimGPT4, func(p *conversation.TrimRequest) (any, error) {
				return conversation.Trim(context.Background(), gpt4, *p)
			})},
		{"fitToolResult", methodFitToolResult, string(fit),
			direct(t, string(fit), func(p *conversation.FitRequest) (any, error) {
				return conversation.FitToolResult(context.Background(), gpt4o, *p)
			})},
		{"fitToolResult history", methodFitToolResult, string(history),
			direct(t, string(history), func(p *conversation.FitRequest) (any, error) {
				return conversation.FitToolResult(context.Background(), gpt4o, *p)
			})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(tt.method, json.RawMessage(tt.params))
			if m.Error != nil {
				t.Fatalf("error %d %s", m.Error.Code, m.Error.Message)
			}
			if !jsonEqual([]byte(tt.want), m.Result) {
				t.Errorf("result differs from the library's:\nwant %s\n got %s", tt.want, m.Result)
			}
		})
	}

	var stats conversation.UsageStats
	c.result(methodUsageStats, nil, &stats)
	if diff := cmp.Diff(2, stats.Requests); diff != "" {
		t.Errorf("usageStats counts the trims of the session (-want +got):\n%s", diff)
	}
}

func TestConversationErrors(t *testing.T) {
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	m := c.call(methodTrimConversation, json.RawMessage(`{"messages":[{"role":"system","content":"`+strings.Repeat("rules ", 500)+`"}],"maxContextTokens":100,"reservedOutputTokens":10}`))
	if m.Error == nil || m.Error.Code != -32803 {
		t.Fatalf("impossible trim: got %+v, want -32803", m)
	}
	d := errData(t, m.Error)
	if d["code"] != string(errcode.Budget) || d["currentTokens"] == nil || d["maxTokens"] == nil {
		t.Errorf("error data %v, want code %s with currentTokens and maxTokens", d, errcode.Budget)
	}
	m = c.call(methodSectionBudget, json.RawMessage(`{"contextLimit":1000,"ratios":{"memory":2}}`))
	if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "ratios.memory") {
		t.Errorf("bad ratio: got %+v, want -32602 naming ratios.memory", m)
	}
}
