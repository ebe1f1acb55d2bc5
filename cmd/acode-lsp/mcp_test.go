package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

func TestMCPFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string // in stderr (stdout for -h)
	}{
		{"help", []string{"mcp", "-h"}, 0, "usage: acode-lsp mcp"},
		{"zero max", []string{"mcp", "--max-result-tokens", "0"}, 2, "--max-result-tokens 0: must be a positive number"},
		{"unknown tool", []string{"mcp", "--tools", "pack_context,grep"}, 2, `--tools pack_context,grep: "grep" is not a tool`},
		{"missing root", []string{"mcp", "--root", "/nonexistent/acode"}, 2, "--root"},
		{"bad level", []string{"mcp", "--log-level", "loud"}, 2, "--log-level"},
		{"argument", []string{"mcp", "extra"}, 2, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", "", tc.args...)
			if tc.code == 0 {
				out, errs = "", out // help is printed on stdout, as every subcommand's
			}
			if code != tc.code || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("exit %d (want %d), stdout %q, stderr %q", code, tc.code, out, errs)
			}
		})
	}
}

// TestMCPStdio speaks MCP to `acode-lsp mcp` over its stdin/stdout: only
// protocol on stdout, logs on stderr.
func TestMCPStdio(t *testing.T) {
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb strings.Builder
	errw := &lockedWriter{w: &errb}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), []string{"mcp", "--root", sample, "--log-level", "debug"}, inR, outW, errw)
		_ = outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(msg string) { _, _ = io.WriteString(inW, msg+"\n") }
	recv := func() map[string]any {
		if !lines.Scan() {
			t.Fatalf("no response: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("stdout holds a non-JSON line %q: %v", lines.Text(), err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := recv(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"pack_context","arguments":{"query":"why does checkout fail for empty carts","budget":2000}}}`)
	m := recv()
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] == true {
		t.Fatalf("pack_context: %v", m)
	}
	text := res["content"].([]any)[0].(map[string]any)["text"].(string)
	tok, _ := tokenizer.ForEncoding("o200k_base")
	if n := tok.Count(text); n > 2000 || n == 0 || strings.Contains(text, "sk_live_") {
		t.Errorf("packed %d tokens (budget 2000) or a secret leaked", n)
	}
	_ = inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("acode-lsp mcp did not stop at the end of its input")
	}
	logs := errw.String()
	if !strings.Contains(logs, `"request":"mcp-1"`) || !strings.Contains(logs, `"msg":"pack stages"`) {
		t.Errorf("stderr lacks the request's debug log:\n%.2000s", logs)
	}
	if strings.Contains(logs, "sk_live_") || strings.Contains(logs, "ErrEmptyCart = errors.New") {
		t.Error("the log holds file content")
	}
	// Every line logged while serving the call names it.
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		switch entry["msg"] {
		case "serving MCP", "MCP session ended":
			continue
		}
		if entry["request"] != "mcp-1" {
			t.Errorf("log line without the request id: %s", line)
		}
	}
}

func TestPackPreview(t *testing.T) {
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "", "pack", sample, "--query", "empty cart", "--budget", "6000", "--preview")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var pv struct {
		Included []struct {
			Path   string
			Tokens int
		} `json:"included"`
		Excluded        []struct{ Path, Reason string } `json:"excluded"`
		EstimatedTokens int                             `json:"estimatedTokens"`
		Budget          struct{ Available int }         `json:"budget"`
	}
	if err := json.Unmarshal([]byte(out), &pv); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(pv.Included) == 0 || pv.EstimatedTokens <= 0 || pv.EstimatedTokens > pv.Budget.Available {
		t.Errorf("preview: %d included, estimated %d of %d", len(pv.Included), pv.EstimatedTokens, pv.Budget.Available)
	}
	if strings.Contains(out, `"content"`) || strings.Contains(out, "```") {
		t.Error("the preview is formatted")
	}
	code, _, errs = runCLI(t, "", "", "pack", sample, "--preview", "--encoding", "gpt9")
	if code != 2 || !strings.Contains(errs, "--encoding gpt9") {
		t.Errorf("bad encoding: exit %d, %s", code, errs)
	}
}

// lockedWriter serialises writes to w and reads of it.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
