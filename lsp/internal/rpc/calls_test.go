package rpc

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestCallTableCancelUnknown checks the cancel of an id that is not in
// flight (finished, or never sent) is a no-op.
func TestCallTableCancelUnknown(t *testing.T) {
	var tbl callTable
	if tbl.cancel(idKey("#1")) {
		t.Error("cancel of an empty table reported a request")
	}
	sent := 0
	p := &pendingCall{cancel: func() {}, send: func(any, error) { sent++ }}
	tbl.add("#1", p)
	tbl.remove("#1", p)
	if tbl.cancel("#1") || sent != 0 {
		t.Error("cancel after remove answered the request")
	}
}

func TestRawIDKey(t *testing.T) {
	tests := []struct {
		raw  string
		want idKey
		ok   bool
	}{
		{`5`, idString(jsonrpc2.NewNumberID(5)), true},
		{`5.0`, idString(jsonrpc2.NewNumberID(5)), true},
		{`"abc"`, idString(jsonrpc2.NewStringID("abc")), true},
		{`"5"`, idString(jsonrpc2.NewStringID("5")), true},
		{`5.5`, "", false},
		{`null`, "", false},
		{`{}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, ok := rawIDKey(json.RawMessage(tt.raw))
			if got != tt.want || ok != tt.ok {
				t.Errorf("rawIDKey(%s) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
			}
		})
	}
}
