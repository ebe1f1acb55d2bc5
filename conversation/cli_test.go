package conversation

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTrimInputShapes(t *testing.T) {
	tests := []struct {
		name, in, want string
		req            TrimRequest
	}{
		{
			name: "array",
			in:   `[{"role":"system","content":"s"}, {"role":"user","content":"hi <3","x_id":7}]`,
			want: "[\n  {\"role\":\"system\",\"content\":\"s\"},\n  {\"role\":\"user\",\"content\":\"hi <3\",\"x_id\":7}\n]\n",
		},
		{
			name: "object with params and other keys",
			in:   `{"model":"gpt-4","session":{"id":"a b"},"messages":[{"role":"user","content":"q"}],"maxContextTokens":8192}`,
			want: "{\n  \"model\": \"gpt-4\",\n  \"session\": {\"id\":\"a b\"},\n  \"messages\": [\n    {\"role\":\"user\",\"content\":\"q\"}\n  ],\n  \"maxContextTokens\": 8192\n}\n",
			req:  TrimRequest{Model: "gpt-4", MaxContextTokens: 8192},
		},
		{
			name: "empty array",
			in:   `[]`,
			want: "[]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := ParseTrimInput([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if in.Request.Model != tt.req.Model || in.Request.MaxContextTokens != tt.req.MaxContextTokens {
				t.Errorf("params = %q %d, want %q %d", in.Request.Model, in.Request.MaxContextTokens, tt.req.Model, tt.req.MaxContextTokens)
			}
			got, err := in.Output(in.Request.Messages)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			again, err := ParseTrimInput(got)
			if err != nil {
				t.Fatalf("output does not parse back: %v", err)
			}
			if diff := cmp.Diff(shape(in.Request.Messages), shape(again.Request.Messages)); diff != "" {
				t.Errorf("re-read (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseTrimInputErrors(t *testing.T) {
	for _, in := range []string{``, `"text"`, `{"model":"x"}`, `[{"role":`, `{"messages":5}`} {
		if _, err := ParseTrimInput([]byte(in)); err == nil {
			t.Errorf("ParseTrimInput(%q) succeeded", in)
		}
	}
	var pe *ParamError
	if _, err := ParseTrimInput([]byte(`{"model":"x"}`)); !errors.As(err, &pe) || pe.Field != "messages" {
		t.Errorf("missing messages: err = %v, want a ParamError on messages", err)
	}
}

func TestReports(t *testing.T) {
	res, err := Trim(context.Background(), words{}, TrimRequest{Messages: agentSession(), MaxContextTokens: 1500})
	if err != nil {
		t.Fatal(err)
	}
	got := TrimReport(res, "heuristic", false)
	if want := "trim: ≈1632 → ≈1440 tokens (max 1500, heuristic), 1 tool output truncated, 0 messages dropped"; got != want {
		t.Errorf("TrimReport = %q, want %q", got, want)
	}
	fit, err := FitToolResult(context.Background(), words{}, FitRequest{Content: "a\nb\n", MaxTokens: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := FitReport(fit); !strings.HasPrefix(got, "fit: 1 tokens; 1 of 2 items on this page; continue with --cursor ") {
		t.Errorf("FitReport = %q", got)
	}
}
