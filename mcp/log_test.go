package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestFailedToolsLoggedAtError (seed 001 NFR-016-57): a count, trim, fit
// or pack that fails is logged at error level with the tool and the kind of
// failure (the ACODE-* code or "invalid params"), never the values the call
// carried.
func TestFailedToolsLoggedAtError(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sampleFiles)
	core, logs := observer.New(zap.DebugLevel)
	cs, _ := connect(t, Options{Root: root, Logger: zap.New(core), Tools: AllTools}, nil)
	const canary = "CANARY-5d0e-secret"
	tests := []struct {
		tool string
		args map[string]any
		kind string
	}{
		{"count_tokens", map[string]any{"text": canary, "path": "main.go"}, "invalid params"},
		{"count_tokens", map[string]any{"path": ".env"}, "ACODE-CTX-002"},
		{"fit_tool_result", map[string]any{"tool": canary, "content": canary, "maxTokens": 0}, "invalid params"},
		{"trim_conversation", map[string]any{"messages": []any{map[string]any{"role": canary, "content": canary}}, "maxContextTokens": 100}, "invalid params"},
		{"pack_context", map[string]any{"query": canary, "budget": canary}, "invalid params"},
	}
	for _, tt := range tests {
		before := len(logs.FilterMessage("tool failed").All())
		if r := callTool(t, cs, tt.tool, tt.args); !r.isError {
			t.Fatalf("%s %v: not an error: %.200s", tt.tool, tt.args, r.text)
		}
		failed := logs.FilterMessage("tool failed").All()
		if len(failed) != before+1 {
			t.Fatalf("%s: %d new tool failed entries, want 1", tt.tool, len(failed)-before)
		}
		e := failed[len(failed)-1]
		if e.Level != zapcore.ErrorLevel {
			t.Errorf("%s failed: logged at %s, want error", tt.tool, e.Level)
		}
		m := e.ContextMap()
		if m["tool"] != tt.tool || m["kind"] != tt.kind {
			t.Errorf("%s failed: tool %v kind %v, want %s %s", tt.tool, m["tool"], m["kind"], tt.tool, tt.kind)
		}
	}
	for _, e := range logs.All() {
		data, _ := json.Marshal(e.ContextMap())
		if strings.Contains(e.Message+string(data), canary) {
			t.Errorf("log echoes a request value: %s %s", e.Message, data)
		}
	}
}
