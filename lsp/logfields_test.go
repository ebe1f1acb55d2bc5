package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// TestLogsCarryNoRequestValues: failed requests are logged at debug level
// with the field path and sizes, never the values the client sent.
func TestLogsCarryNoRequestValues(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	c := startServer(t, Options{Logger: zap.New(core)}, nil)
	c.initialize(nil, nil)
	const canary = "CANARY-7f3a-secret"
	for _, params := range []string{
		`{"search":{"pattern":"(` + canary + `","regex":true}}`,
		`{"sources":[{"type":"reference","uri":"https://` + canary + `/x.go"}]}`,
		`{"sources":[{"type":"` + canary + `"}]}`,
		`{"sources":[{"type":"reference","uri":"file:///x.go","timestamp":"` + canary + `"}]}`,
	} {
		m := c.call(methodPackContext, json.RawMessage(params))
		if m.Error == nil || m.Error.Code != -32602 {
			t.Fatalf("%s: want -32602, got %+v", params, m)
		}
	}
	c.call(methodCountTokens, json.RawMessage(`{"uri":"ftp://`+canary+`"}`))
	failed := 0
	for _, e := range logs.All() {
		line := e.Message
		for k, v := range e.ContextMap() {
			line += " " + k + "=" + strings.TrimSpace(strings.ReplaceAll(fmtAny(v), "\n", " "))
		}
		if strings.Contains(line, canary) {
			t.Errorf("log echoes a request value: %s", line)
		}
		if e.Message == "request failed" {
			failed++
			if _, ok := e.ContextMap()["field"]; !ok {
				t.Errorf("-32602 entry without its field path: %v", e.ContextMap())
			}
		}
	}
	if failed < 4 {
		t.Errorf("%d request failed entries, want at least 4", failed)
	}
}

func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
