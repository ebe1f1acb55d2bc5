package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// TestLogsCarryNoRequestValues: failed requests are logged with the field
// path and sizes, never the values the client sent.
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

// TestFailedCountsTrimsFitsLoggedAtError (seed 001 NFR-016-57): a count,
// trim, fit or pack that fails is logged at error level, so a server run at
// the default level shows it, with the method and code and without the
// values the request carried.
func TestFailedCountsTrimsFitsLoggedAtError(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	c := startServer(t, Options{Logger: zap.New(core)}, nil)
	c.initialize(nil, nil)
	const canary = "CANARY-91c2-secret"
	calls := []struct {
		method string
		params string
	}{
		{methodCountTokens, `{"uri":"ftp://` + canary + `"}`},
		{methodTrimConversation, `{"messages":"` + canary + `"}`},
		{methodFitToolResult, `{"tool":"` + canary + `","maxTokens":-1}`},
		{methodPackContext, `{"sources":[{"type":"` + canary + `"}]}`},
	}
	for _, tt := range calls {
		if m := c.call(tt.method, json.RawMessage(tt.params)); m.Error == nil {
			t.Fatalf("%s %s: want an error, got %+v", tt.method, tt.params, m)
		}
	}
	for _, tt := range calls {
		var found []observer.LoggedEntry
		for _, e := range logs.FilterMessage("request failed").All() {
			if e.ContextMap()["method"] == tt.method {
				found = append(found, e)
			}
		}
		if len(found) != 1 {
			t.Errorf("%s: %d request failed entries, want 1", tt.method, len(found))
			continue
		}
		e := found[0]
		if e.Level != zapcore.ErrorLevel {
			t.Errorf("%s failed: logged at %s, want error", tt.method, e.Level)
		}
		if _, ok := e.ContextMap()["code"]; !ok {
			t.Errorf("%s failed: no code in %v", tt.method, e.ContextMap())
		}
		if strings.Contains(fmtAny(e.ContextMap()), canary) {
			t.Errorf("%s failed: the log echoes a request value: %v", tt.method, e.ContextMap())
		}
	}
}
