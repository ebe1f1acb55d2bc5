package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// TestOversizedLine: a JSON-RPC line over the transport's limit gets an
// error answer (with its id) and the server keeps serving (issue 21).
func TestOversizedLine(t *testing.T) {
	srv, err := New(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, inR, outW); _ = outW.Close() }()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(s string) {
		go func() { _, _ = io.WriteString(inW, s+"\n") }()
	}
	recv := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%v: %.200s", err, lines.Text())
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"count_tokens","arguments":{"text":"` + strings.Repeat("a", MaxMessageBytes+10) + `"}}}`
	send(huge)
	m := recv()
	e, _ := m["error"].(map[string]any)
	if m["id"] != 7.0 || e == nil || !strings.Contains(e["message"].(string), "over the server's limit") {
		t.Fatalf("answer to an oversized line = %.300v", m)
	}
	if len(lines.Bytes()) > 1000 {
		t.Errorf("the error quotes the message: %d bytes", len(lines.Bytes()))
	}
	send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"count_tokens","arguments":{"text":"still serving"}}}`)
	m = recv()
	if m["id"] != 8.0 || m["result"] == nil {
		t.Fatalf("after an oversized line: %.300v", m)
	}
	_ = inW.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the server did not end at the end of input")
	}
}
