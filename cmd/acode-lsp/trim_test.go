package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// agentJSON is an agent conversation: a system prompt and steps tool calls
// with outputs of lines lines each.
func agentJSON(steps, lines int) string {
	var msgs []string
	msgs = append(msgs, `{"role":"system","content":"You are a coding agent."}`, `{"role":"user","content":"Fix the build."}`)
	for s := 1; s <= steps; s++ {
		var out strings.Builder
		for l := 0; l < lines; l++ {
			fmt.Fprintf(&out, "step %d line %d: func handler(w http.ResponseWriter) { return nil }\n", s, l)
		}
		body, _ := json.Marshal(out.String())
		msgs = append(msgs,
			fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"f%d.go\"}"}}]}`, s, s),
			fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":%s}`, s, body))
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

func TestRunTrim(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		stdin      string
		code       int
		stdoutHas  string
		stderrHas  string
		checkShape func(t *testing.T, out string)
	}{
		{
			name: "fits unchanged", args: []string{"--max", "1000"},
			stdin: `[{"role":"user","content":"hi"}]`, code: 0,
			stdoutHas: `{"role":"user","content":"hi"}`, stderrHas: "fits unchanged",
		},
		{
			name: "trims an agent session", args: []string{"--max", "3000", "--reserve", "500"},
			stdin: agentJSON(20, 10), code: 0,
			stderrHas: "tool outputs truncated",
			checkShape: func(t *testing.T, out string) {
				var msgs []map[string]any
				if err := json.Unmarshal([]byte(out), &msgs); err != nil {
					t.Fatalf("stdout is not a message array: %v", err)
				}
				if msgs[0]["role"] != "system" {
					t.Errorf("system message lost: %v", msgs[0])
				}
			},
		},
		{
			name: "object in, object out, params from the input", args: nil,
			stdin: `{"maxContextTokens":100,"messages":[{"role":"user","content":"hi"}],"trace":"x"}`, code: 0,
			stdoutHas: `"trace": "x"`, stderrHas: "max 100",
		},
		{
			name: "flags win over the input", args: []string{"--max", "50"},
			stdin: `{"maxContextTokens":100,"messages":[{"role":"user","content":"hi"}]}`, code: 0,
			stderrHas: "max 50",
		},
		{
			name: "json result", args: []string{"--max", "1000", "--json"},
			stdin: `[{"role":"user","content":"hi"}]`, code: 0,
			stdoutHas: `"finalTokens": 8`,
		},
		{
			name: "unknown model is approximate", args: []string{"--max", "1000", "--model", "my-local-model"},
			stdin: `[{"role":"user","content":"hello there"}]`, code: 0,
			stderrHas: "≈",
		},
		{
			name: "overflow exits 3", args: []string{"--max", "20"},
			stdin: `[{"role":"system","content":"` + strings.Repeat("rule ", 50) + `"}]`, code: 3,
			stderrHas: "ACODE-CTX-003",
		},
		{name: "no max, no model window", args: []string{"--model", "my-local-model"}, stdin: `[]`, code: 1, stderrHas: "maxContextTokens"},
		{name: "max from the model's window", args: []string{"--model", "gpt-4"}, stdin: `[]`, code: 0, stderrHas: "max 8192"},
		{name: "bad JSON", args: []string{"--max", "10"}, stdin: `[{"role":`, code: 1, stderrHas: "acode-lsp trim:"},
		{name: "unknown role", args: []string{"--max", "10"}, stdin: `[{"role":"robot","content":"x"}]`, code: 1, stderrHas: "messages[0].role"},
		{name: "bad flag", args: []string{"--bogus"}, stdin: `[]`, code: 2, stderrHas: "unknown flag --bogus"},
		{name: "stray argument", args: []string{"conv.json"}, stdin: `[]`, code: 2, stderrHas: "unexpected argument"},
		{name: "help", args: []string{"-h"}, stdin: ``, code: 0, stdoutHas: "usage: acode-lsp trim"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runTrim(context.Background(), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdoutHas) {
				t.Errorf("stdout %q does not contain %q", stdout.String(), tt.stdoutHas)
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.stderrHas)
			}
			if tt.code != 0 && stdout.Len() > 0 {
				t.Errorf("stdout on failure: %q", stdout.String())
			}
			if tt.checkShape != nil {
				tt.checkShape(t, stdout.String())
			}
		})
	}
}

func TestRunTrimRoundTripsUnchanged(t *testing.T) {
	in := `[{"role":"user","content":"a <b> & c","metadata":{"k":[1,2]}},{"role":"assistant","content":"ok","refusal":null}]`
	var stdout, stderr bytes.Buffer
	if code := runTrim(context.Background(), []string{"--max", "1000"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var want, got any
	_ = json.Unmarshal([]byte(in), &want)
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
