package lsp

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/jsonrpc2"
)

func TestRequestsBeforeInitializeAreRefused(t *testing.T) {
	c := startServer(t, Options{}, nil)
	for _, method := range []string{"textDocument/codeLens", methodBudgetStatus, methodPackContext, "shutdown", "no/such/method"} {
		t.Run(method, func(t *testing.T) {
			m := c.call(method, map[string]any{})
			if m.Error == nil || m.Error.Code != int(jsonrpc2.ServerNotInitialized) {
				t.Fatalf("%s before initialize: got %+v, want error %d", method, m, jsonrpc2.ServerNotInitialized)
			}
		})
	}
	// A notification before initialize is dropped, not answered.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///x.go", "text": "package x"}})
	c.initialize(nil, nil)
	var st budgetStatusResult
	c.result(methodBudgetStatus, nil, &st)
	if st.OpenFiles != 0 {
		t.Errorf("didOpen before initialize was applied: openFiles = %d", st.OpenFiles)
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code = %d, want 0", code)
	}
}

func TestInitializeAdvertisesCapabilities(t *testing.T) {
	c := startServer(t, Options{Version: "v1.2.3"}, nil)
	res := c.initialize(nil, nil, tempRoot(t))
	got, _ := json.Marshal(map[string]any{
		"sync":     res["capabilities"].(map[string]any)["textDocumentSync"],
		"codeLens": res["capabilities"].(map[string]any)["codeLensProvider"],
		"info":     res["serverInfo"],
	})
	want := `{"codeLens":{},"info":{"name":"acode-lsp","version":"v1.2.3"},"sync":{"change":2,"openClose":true,"save":{}}}`
	if !jsonEqual([]byte(want), got) {
		t.Errorf("capabilities:\nwant %s\n got %s", want, got)
	}
	m := c.call("initialize", map[string]any{"capabilities": map[string]any{}})
	if m.Error == nil || m.Error.Code != int(jsonrpc2.InvalidRequest) {
		t.Errorf("second initialize: got %+v, want %d", m, jsonrpc2.InvalidRequest)
	}
}

func TestExitCodes(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *fakeClient)
		want int
	}{
		{"shutdown then exit", func(c *fakeClient) {
			c.initialize(nil, nil)
			c.result("shutdown", nil, nil)
			c.notify("exit", nil)
		}, 0},
		{"exit without shutdown", func(c *fakeClient) {
			c.initialize(nil, nil)
			c.notify("exit", nil)
		}, 1},
		{"exit before initialize", func(c *fakeClient) {
			c.notify("exit", nil)
		}, 1},
		{"end of input", func(c *fakeClient) {
			c.initialize(nil, nil)
			c.CloseInput()
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := startServer(t, Options{}, nil)
			tt.run(c)
			if got := c.exitCode(); got != tt.want {
				t.Errorf("exit code = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestRequestsAfterShutdownAreRefused(t *testing.T) {
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	m := c.call("shutdown", nil)
	if m.Error != nil || string(m.Result) != "null" {
		t.Fatalf("shutdown: got %+v, want result null", m)
	}
	m = c.call(methodBudgetStatus, nil)
	if m.Error == nil || m.Error.Code != int(jsonrpc2.InvalidRequest) {
		t.Errorf("request after shutdown: got %+v, want %d", m, jsonrpc2.InvalidRequest)
	}
	c.notify("exit", nil)
	if got := c.exitCode(); got != 0 {
		t.Errorf("exit code = %d, want 0", got)
	}
}

func TestUnknownMethods(t *testing.T) {
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil)
	for _, method := range []string{"acode/noSuchThing", "textDocument/hover", "$/unknownRequest"} {
		m := c.call(method, map[string]any{})
		if diff := cmp.Diff(int(jsonrpc2.MethodNotFound), errCode(m)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", method, diff)
		}
	}
	// Unknown notifications are ignored; the server still answers.
	c.notify("$/unknownNotification", map[string]any{})
	c.notify("acode/unknownNotification", nil)
	c.result(methodBudgetStatus, nil, nil)
}

// errCode is the error code of a response, 0 for a success.
func errCode(m rpcMsg) int {
	if m.Error == nil {
		return 0
	}
	return m.Error.Code
}
