package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/acode-lsp/acode-lsp/lsp"
)

// TestServerGivesUpOnTheEditor (seed FR-016-30, the server's half; VS Code
// bounds its own requests with acode.pack.sourceTimeoutMs): the language
// server asks the editor for its settings (workspace/configuration); an
// editor that never answers is given up on after the client timeout, the
// failure is logged with the method, and the server goes on serving. The
// fake editor here is hand-made because internal/lsptest answers every
// request.
func TestServerGivesUpOnTheEditor(t *testing.T) {
	root := seedWorkspace(t, "")
	core, logs := observer.New(zapcore.InfoLevel)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srvIn, edOut := net.Pipe()
	edIn, srvOut := net.Pipe()
	served := make(chan int, 1)
	go func() {
		served <- lsp.Serve(ctx, srvIn, srvOut, lsp.Options{Version: "t", Logger: zap.New(core), ClientTimeout: 100 * time.Millisecond})
	}()
	t.Cleanup(func() { cancel(); edOut.Close(); edIn.Close(); <-served })

	var mu sync.Mutex
	var got []map[string]any
	go func() {
		r := bufio.NewReader(edIn)
		for {
			body, err := lsptest.ReadFrame(r, false)
			if err != nil {
				return
			}
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			mu.Lock()
			got = append(got, m)
			mu.Unlock()
		}
	}()
	send := func(m map[string]any) {
		m["jsonrpc"] = "2.0"
		b, _ := json.Marshal(m)
		if _, err := edOut.Write(lsptest.Frame(b)); err != nil {
			t.Fatalf("write: %v", err)
		}
	}
	// wait polls until ok holds for a message (or a log line), under ctx.
	wait := func(what string, ok func() bool) {
		t.Helper()
		for !ok() {
			select {
			case <-ctx.Done():
				t.Fatalf("waited in vain for %s", what)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	answered := func(id float64) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, m := range got {
				if m["id"] == id && m["method"] == nil {
					return true
				}
			}
			return false
		}
	}

	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"rootUri": lsptest.URI(root), "capabilities": map[string]any{"workspace": map[string]any{"configuration": true}}}})
	wait("the answer to initialize", answered(1))
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	wait("workspace/configuration (left unanswered)", func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range got {
			if m["method"] == "workspace/configuration" {
				return true
			}
		}
		return false
	})
	wait("the server to give up on workspace/configuration", func() bool {
		for _, e := range logs.FilterMessage("workspace/configuration failed").All() {
			if err, _ := e.ContextMap()["error"].(string); strings.Contains(err, "did not answer workspace/configuration within 100ms") {
				return true
			}
		}
		return false
	})
	send(map[string]any{"id": 2, "method": "acode/budgetStatus", "params": map[string]any{}})
	wait("the server to go on serving", answered(2))
}
