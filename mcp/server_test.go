package mcp

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolList checks that the default tools are listed and measures what
// their definitions cost an agent on every turn (issue 20 target: ≤ 1,200
// o200k tokens for the tools/list result), and that trim_conversation is
// offered only when asked for.
func TestToolList(t *testing.T) {
	cs, _ := connect(t, Options{Root: t.TempDir()}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) > 140 {
			t.Errorf("%s: description of %d characters; keep it short", tool.Name, len(tool.Description))
		}
	}
	if diff := cmp.Diff([]string{"count_tokens", "fit_tool_result", "pack_context"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, tool := range res.Tools {
		if tool.OutputSchema != nil {
			t.Errorf("%s has an output schema: its answer is text for a model", tool.Name)
		}
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	cost := o200k(t).Count(string(data))
	t.Logf("tools/list result: %d bytes, %d o200k tokens", len(data), cost)
	if cost > 1200 {
		t.Errorf("tools/list costs %d tokens, over the 1,200 target", cost)
	}
	all, _ := connect(t, Options{Root: t.TempDir(), Tools: AllTools}, nil)
	res, err = all.ListTools(context.Background(), nil)
	if err != nil || len(res.Tools) != 4 {
		t.Errorf("--tools with all four: %d tools, %v", len(res.Tools), err)
	}
}

func TestPackContext(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sampleFiles)
	cs, srv := connect(t, Options{Root: root}, nil)
	tok := o200k(t)

	t.Run("default budget", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "why does checkout fail for an empty cart"})
		if r.isError {
			t.Fatal(r.text)
		}
		if r.structured != nil {
			t.Errorf("pack_context has structured content: %v", r.structured)
		}
		content, summary := splitSummary(t, r.text)
		if n := tok.Count(content); n > DefaultPackBudget || n == 0 {
			t.Errorf("context %d tokens, budget %d", n, DefaultPackBudget)
		}
		if n := tok.Count(summary); n > summaryReserve {
			t.Errorf("summary %q is %d tokens, over %d", summary, n, summaryReserve)
		}
		if !strings.Contains(summary, fmt.Sprintf("%d tokens", tok.Count(content))) || !strings.Contains(summary, "left out") {
			t.Errorf("summary = %q", summary)
		}
		for _, leak := range []string{"sk_live", "ignored by gitignore", "excluded by context.exclude"} {
			if strings.Contains(r.text, leak) {
				t.Errorf("context holds %q", leak)
			}
		}
		if !strings.Contains(content, "## File: cart/service.go") || !strings.Contains(content, "func Checkout(items []string) error {") {
			t.Errorf("context lacks cart/service.go's code:\n%s", r.text)
		}
	})
	t.Run("budget as typed", func(t *testing.T) {
		a := callTool(t, cs, "pack_context", map[string]any{"query": "empty cart", "budget": "1k"})
		b := callTool(t, cs, "pack_context", map[string]any{"query": "empty cart", "budget": 1000})
		if a.isError || a.text != b.text {
			t.Errorf("budget \"1k\" and 1000 differ:\n%s\n---\n%s", a.text, b.text)
		}
		if n := tok.Count(a.text); n > 1000+summaryReserve {
			t.Errorf("%d tokens for budget 1000", n)
		}
	})
	t.Run("paths and search", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "empty cart", "paths": []string{"docs/**"}, "search": "ErrEmptyCart", "budget": 2000})
		if r.isError {
			t.Fatal(r.text)
		}
		if !strings.Contains(r.text, "docs/readme.md") || strings.Contains(r.text, "## File: main.go") {
			t.Errorf("paths not applied:\n%s", r.text)
		}
		if !strings.Contains(r.text, "var ErrEmptyCart") {
			t.Errorf("search not packed:\n%s", r.text)
		}
	})
	t.Run("sources", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "test failure", "paths": []string{"main.go"}, "sources": []any{
			map[string]any{"type": "tool_result", "label": "go test ./cart", "content": "--- FAIL: TestCheckoutEmpty\nwant ErrEmptyCart\n"},
			map[string]any{"type": "reference", "uri": "file://" + filepath.ToSlash(filepath.Join(root, "cart/service.go")), "range": map[string]any{"start": map[string]any{"line": 7, "character": 0}, "end": map[string]any{"line": 13, "character": 0}}},
		}})
		if r.isError {
			t.Fatal(r.text)
		}
		if !strings.Contains(r.text, "## Tool: go test ./cart") || !strings.Contains(r.text, "cart/service.go (lines 8-14)") {
			t.Errorf("sources not packed:\n%s", r.text)
		}
	})
	t.Run("xml", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "empty cart checkout", "format": "xml", "budget": 500})
		if r.isError {
			t.Fatal(r.text)
		}
		content, _ := splitSummary(t, r.text)
		if got := tok.Count(content); got > 500 {
			t.Errorf("context %d tokens, budget 500", got)
		}
		if !strings.Contains(content, `<file path="cart/service.go"`) || strings.Contains(content, "## File:") {
			t.Errorf("not xml:\n%s", r.text)
		}
		dec := xml.NewDecoder(strings.NewReader(content))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not well-formed: %v", err)
			}
		}
	})
	t.Run("budget capped to max result tokens", func(t *testing.T) {
		cs2, _ := connect(t, Options{Root: root, MaxResultTokens: 160}, nil)
		r := callTool(t, cs2, "pack_context", map[string]any{"query": "checkout", "budget": 100000})
		if r.isError {
			t.Fatal(r.text)
		}
		if got := tok.Count(r.text); got > 160 || got == 0 {
			t.Errorf("recount %d, want 1..160", got)
		}
		if _, summary := splitSummary(t, r.text); !strings.Contains(summary, "budget 100,000 capped to 120 (--max-result-tokens)") {
			t.Errorf("summary = %q", summary)
		}
	})
	st := srv.Stats()
	if st.Packs < 3 || st.Tokens.Packed == 0 || st.Cache.Misses == 0 {
		t.Errorf("stats after packs: %+v", st)
	}
}

// TestErrors hits every error path of the four tools: each is an isError
// result whose text carries the ACODE code (domain failures) or names the
// field (parameters), in the language server's words.
func TestErrors(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sampleFiles)
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"x.go": "package x\n"})
	cs, _ := connect(t, Options{Root: root, MaxResultTokens: 400, Tools: AllTools}, nil)
	long := strings.Repeat("word ", 2000)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string // substring of the error text
	}{
		{"pack: query missing", "pack_context", map[string]any{}, "invalid params: query: is required"},
		{"pack: query null", "pack_context", map[string]any{"query": nil}, "invalid params: query: is required"},
		{"pack: query a number", "pack_context", map[string]any{"query": 5}, "invalid params: query: must be a string, not an integer"},
		{"pack: budget a boolean", "pack_context", map[string]any{"query": "q", "budget": true}, "invalid params: budget: must be a number of tokens"},
		{"pack: budget words", "pack_context", map[string]any{"query": "q", "budget": "lots"}, "invalid params: budget: not a number of tokens"},
		{"pack: unknown argument", "pack_context", map[string]any{"query": "q", "bugdet": 5}, `invalid params: "bugdet": is not an argument of this tool`},
		{"pack: unknown model quoted short", "pack_context", map[string]any{"query": "q", "encoding": strings.Repeat("x", 100000)}, "invalid params: encoding"},
		{"pack: budget zero", "pack_context", map[string]any{"query": "q", "budget": 0}, "budget"},
		{"pack: glob leaves root", "pack_context", map[string]any{"query": "q", "paths": []string{"../x/*.go"}}, "invalid params: paths[0]"},
		{"pack: glob absolute", "pack_context", map[string]any{"query": "q", "paths": []string{"/etc/*"}}, "invalid params: paths[0]"},
		{"pack: glob invalid", "pack_context", map[string]any{"query": "q", "paths": []string{"a/[b"}}, "invalid params: paths[0]"},
		{"pack: nothing matches", "pack_context", map[string]any{"query": "q", "paths": []string{"nothing/**"}}, "ACODE-CTX-004: no content to pack"},
		{"pack: only secrets", "pack_context", map[string]any{"query": "q", "paths": []string{".env"}}, "ACODE-CTX-004: no content to pack: every input was excluded (secret: 1)"},
		{"pack: blank search", "pack_context", map[string]any{"query": "q", "search": "  "}, "invalid params: search"},
		{"pack: unknown format", "pack_context", map[string]any{"query": "q", "format": "html"}, "format"},
		{"pack: unknown encoding", "pack_context", map[string]any{"query": "q", "encoding": "bogus"}, "encoding"},
		{"pack: source type", "pack_context", map[string]any{"query": "q", "sources": []any{map[string]any{"type": "file"}}}, "type"},
		{"pack: source uri scheme", "pack_context", map[string]any{"query": "q", "sources": []any{map[string]any{"type": "reference", "uri": "https://x/y.go"}}}, "invalid params: sources[0].uri"},
		{"pack: tool_result without content", "pack_context", map[string]any{"query": "q", "sources": []any{map[string]any{"type": "tool_result"}}}, "invalid params: sources[0].content"},
		{"pack: relevance", "pack_context", map[string]any{"query": "q", "sources": []any{map[string]any{"type": "open_file", "content": "x", "relevance": 2}}}, "relevance"},
		{"count: neither", "count_tokens", map[string]any{}, "invalid params: text: required (or path)"},
		{"count: both", "count_tokens", map[string]any{"text": "a", "path": "main.go"}, "invalid params: path: give text or path, not both"},
		{"count: secret file", "count_tokens", map[string]any{"path": ".env"}, "ACODE-CTX-002: .env was not read: secret"},
		{"count: ignored file", "count_tokens", map[string]any{"path": "debug.log"}, "ACODE-CTX-002: debug.log was not read: ignored"},
		{"count: outside", "count_tokens", map[string]any{"path": filepath.Join(outside, "x.go")}, "was not read: outside_workspace"},
		{"count: missing", "count_tokens", map[string]any{"path": "nope.go"}, "ACODE-CTX-002: nope.go was not read: unreadable"},
		{"count: unknown encoding", "count_tokens", map[string]any{"text": "a", "encoding": "bogus"}, "encoding"},
		{"fit: maxTokens zero", "fit_tool_result", map[string]any{"tool": "read_file", "content": "a", "maxTokens": 0}, "maxTokens"},
		{"fit: neither", "fit_tool_result", map[string]any{"tool": "read_file"}, "invalid params: content: required (or path"},
		{"fit: secret path", "fit_tool_result", map[string]any{"path": ".env"}, "ACODE-CTX-002: .env was not read: secret"},
		{"fit: bad cursor", "fit_tool_result", map[string]any{"tool": "read_file", "content": "a\nb\n", "maxTokens": 10, "cursor": "nope"}, "invalid params: cursor"},
		{"fit: bad mode", "fit_tool_result", map[string]any{"tool": "read_file", "content": "a", "maxTokens": 10, "mode": "all"}, "mode"},
		{"trim: no messages", "trim_conversation", map[string]any{}, "messages"},
		{"trim: bad role", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "robot", "content": "x"}}, "maxContextTokens": 100}, "role"},
		{"trim: cannot fit", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "system", "content": long}, map[string]any{"role": "user", "content": "hi"}}, "maxContextTokens": 500}, "ACODE-CTX-003"},
		{"trim: result over max result tokens", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "user", "content": long}}, "maxContextTokens": 100000}, "ACODE-CTX-003: the result is"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := callTool(t, cs, tc.tool, tc.args)
			if !r.isError {
				t.Fatalf("not an error: %.200s", r.text)
			}
			if !strings.Contains(r.text, tc.want) {
				t.Errorf("error %q does not contain %q", r.text, tc.want)
			}
			if r.structured != nil {
				t.Errorf("error result has structured content: %v", r.structured)
			}
			if len(r.text) > maxErrorText+3 {
				t.Errorf("error text of %d bytes", len(r.text))
			}
		})
	}

	t.Run("invalid config", func(t *testing.T) {
		bad := t.TempDir()
		writeTree(t, bad, map[string]string{"a.go": "package a\n", ".agent/config.yml": "context:\n  budgett: {}\n"})
		cs, _ := connect(t, Options{Root: bad}, nil)
		r := callTool(t, cs, "pack_context", map[string]any{"query": "q"})
		if !r.isError || !strings.HasPrefix(r.text, "ACODE-CFG-001: ") || !strings.Contains(r.text, "budgett") {
			t.Errorf("result = %+v", r)
		}
		// Fixing the file fixes the next call (no restart).
		writeTree(t, bad, map[string]string{".agent/config.yml": "context:\n  exclude: []\n"})
		future := time.Now().Add(2 * time.Second)
		_ = os.Chtimes(filepath.Join(bad, ".agent/config.yml"), future, future)
		if r := callTool(t, cs, "pack_context", map[string]any{"query": "q"}); r.isError {
			t.Errorf("after the fix: %s", r.text)
		}
	})
}

func TestCountFitTrim(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sampleFiles)
	cs, _ := connect(t, Options{Root: root, MaxResultTokens: 300, Tools: AllTools}, nil)
	tok := o200k(t)

	r := callTool(t, cs, "count_tokens", map[string]any{"path": "cart/service.go"})
	var fromText map[string]any
	if err := json.Unmarshal([]byte(r.text), &fromText); err != nil || !cmp.Equal(fromText, r.structured) {
		t.Errorf("count_tokens text %q is not its structured content %v", r.text, r.structured)
	}
	data, _ := os.ReadFile(filepath.Join(root, "cart/service.go"))
	if r.isError || num(r.structured, "tokens") != tok.Count(string(data)) || r.structured["encoding"] != "o200k_base" || r.structured["exact"] != true {
		t.Errorf("count_tokens path = %+v", r)
	}
	r = callTool(t, cs, "count_tokens", map[string]any{"text": "hello world", "encoding": "cl100k_base"})
	if r.isError || num(r.structured, "tokens") != 2 || r.structured["encoding"] != "cl100k_base" {
		t.Errorf("count_tokens text = %+v", r)
	}

	// A page larger than --max-result-tokens is paged; the pages give the
	// output back byte for byte.
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("internal/pkg%03d/file%03d.go", i%37, i))
	}
	output := strings.Join(lines, "\n") + "\n"
	var got strings.Builder
	cursor := ""
	for page := 0; ; page++ {
		args := map[string]any{"tool": "project_files", "content": output, "maxTokens": 100000}
		if cursor != "" {
			args["cursor"] = cursor
		}
		r := callTool(t, cs, "fit_tool_result", args)
		if r.isError {
			t.Fatal(r.text)
		}
		if n := tok.Count(r.text); n > 300 || r.structured != nil {
			t.Fatalf("page %d: %d tokens, max 300; structured %v", page, n, r.structured)
		}
		i := strings.LastIndex(r.text, "\n[")
		if i < 0 || !strings.Contains(r.text[i:], "maxTokens capped to") {
			t.Fatalf("page %d: no note: %q", page, r.text)
		}
		got.WriteString(r.text[:i])
		m := cursorRe.FindStringSubmatch(r.text[i:])
		if m == nil {
			break
		}
		cursor = m[1]
		if page > 100 {
			t.Fatal("no end of pages")
		}
	}
	if got.String() != output {
		t.Error("pages do not give the output back")
	}

	msgs := []any{map[string]any{"role": "system", "content": "You are helpful."}}
	for i := range 6 {
		msgs = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("question %d", i)},
			map[string]any{"role": "assistant", "content": strings.Repeat("answer ", 40)})
	}
	// The cap counts the structured content and its JSON text both.
	cs, _ = connect(t, Options{Root: root, MaxResultTokens: 1200, Tools: AllTools}, nil)
	r = callTool(t, cs, "trim_conversation", map[string]any{"messages": msgs, "maxContextTokens": 250, "preserveRecentTurns": 1})
	if r.isError {
		t.Fatal(r.text)
	}
	if r.structured["truncated"] != true || num(r.structured, "finalTokens") > 250 || num(r.structured, "droppedCount") == 0 {
		t.Errorf("trim = %v", r.structured)
	}
	fromText = nil
	if err := json.Unmarshal([]byte(r.text), &fromText); err != nil || num(fromText, "finalTokens") != num(r.structured, "finalTokens") {
		t.Errorf("text is not the result as JSON: %v", err)
	}
}

// TestRoots checks that the client's roots replace --root and confine
// every tool to them, and that a roots change is followed.
func TestRoots(t *testing.T) {
	serverRoot, clientRoot, other := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, serverRoot, map[string]string{"server.go": "package server\n\nfunc Server() {}\n"})
	writeTree(t, clientRoot, map[string]string{"client.go": "package client\n\nfunc Client() {}\n"})
	writeTree(t, other, map[string]string{"other.go": "package other\n\nfunc Other() {}\n"})

	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	client.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(clientRoot)})
	srv, err := New(Options{Root: serverRoot})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(context.Background(), ct, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cs.Close(); _ = ss.Wait() }()

	r := callTool(t, cs, "pack_context", map[string]any{"query": "client"})
	if r.isError || !strings.Contains(r.text, "client.go") || strings.Contains(r.text, "server.go") {
		t.Fatalf("pack with client roots: %+v", r)
	}
	for _, p := range []string{filepath.Join(serverRoot, "server.go"), filepath.Join(other, "other.go")} {
		if r := callTool(t, cs, "count_tokens", map[string]any{"path": p}); !r.isError || !strings.Contains(r.text, "outside_workspace") {
			t.Errorf("count_tokens %s outside the client's roots: %+v", p, r)
		}
	}
	uri := "file://" + filepath.ToSlash(filepath.Join(other, "other.go"))
	r = callTool(t, cs, "pack_context", map[string]any{"query": "other", "sources": []any{map[string]any{"type": "reference", "uri": uri}}})
	if strings.Contains(r.text, "func Other") {
		t.Errorf("a reference outside the roots was packed:\n%s", r.text)
	}

	// The client changes its roots: the next call follows.
	client.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(other)})
	deadline := time.Now().Add(5 * time.Second)
	for {
		r = callTool(t, cs, "count_tokens", map[string]any{"path": filepath.Join(other, "other.go")})
		if !r.isError || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r.isError {
		t.Errorf("after roots/list_changed: %s", r.text)
	}
}

// TestCancel cancels a pack in flight: the call ends promptly and the
// server keeps serving.
func TestCancel(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("pkg%02d/f%03d.go", i%20, i)] = fmt.Sprintf("package pkg\n\n// F%d does things.\nfunc F%d() int {\n%s\treturn %d\n}\n", i, i, strings.Repeat("\tx := 1\n\t_ = x\n", 200), i)
	}
	writeTree(t, root, files)
	cs, srv := connect(t, Options{Root: root}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "pack_context", Arguments: map[string]any{"query": "things", "budget": 20000}})
		done <- err
	}()
	time.Sleep(5 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Log("the pack finished before the cancellation")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled call did not return")
	}
	if r := callTool(t, cs, "count_tokens", map[string]any{"text": "still serving"}); r.isError {
		t.Errorf("after a cancellation: %s", r.text)
	}
	if st := srv.Stats(); st.Failed != 0 {
		t.Errorf("a cancelled pack counted as failed: %+v", st)
	}
}

// TestPanic checks that a panic in a tool becomes an error result and the
// server keeps serving.
func TestPanic(t *testing.T) {
	cs, srv := connect(t, Options{Root: t.TempDir()}, nil)
	type in struct {
		X string `json:"x"`
	}
	addTool(srv, &sdk.Tool{Name: "boom", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *call, *in) (*sdk.CallToolResult, error) {
		panic("kaboom")
	})
	r := callTool(t, cs, "boom", map[string]any{})
	if !r.isError || r.text != "internal error in boom: kaboom" {
		t.Errorf("panic result = %+v", r)
	}
	if r := callTool(t, cs, "count_tokens", map[string]any{"text": "still serving"}); r.isError {
		t.Errorf("after a panic: %s", r.text)
	}
}

// secretText holds credentials a pack redacts (an AWS key, a GitHub token,
// a private key); no tool may return them.
var secretText = "aws_access_key_id = AKIAIOSFODNN7EXAMPLQ\ntoken: ghp_" + strings.Repeat("aB3dE5gH7jK9", 3) + "\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefghijABCDEFGHIJ\n-----END RSA PRIVATE KEY-----\nok\n"

// TestEveryToolRedacts: fit_tool_result (content and path) and
// trim_conversation redact what pack_context redacts.
func TestEveryToolRedacts(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"notes.txt": "see below\n" + secretText, "main.go": "package main\n"})
	cs, _ := connect(t, Options{Root: root, Tools: AllTools}, nil)
	leaks := []string{"AKIAIOSFODNN7EXAMPLQ", "ghp_aB3dE5", "MIIEowIBAAKCAQEA"}
	for name, r := range map[string]callResult{
		"pack":        callTool(t, cs, "pack_context", map[string]any{"query": "notes", "sources": []any{map[string]any{"type": "tool_result", "content": secretText}}}),
		"fit content": callTool(t, cs, "fit_tool_result", map[string]any{"tool": "read_file", "content": secretText}),
		"fit path":    callTool(t, cs, "fit_tool_result", map[string]any{"path": "notes.txt"}),
		"trim":        callTool(t, cs, "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "user", "content": secretText}, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": secretText}}}}, "maxContextTokens": 100000}),
	} {
		if r.isError {
			t.Errorf("%s: %s", name, r.text)
			continue
		}
		if !strings.Contains(r.text, "ok") {
			t.Errorf("%s: the rest of the text is gone: %s", name, r.text)
		}
		for _, leak := range leaks {
			if strings.Contains(r.text, leak) || strings.Contains(fmt.Sprint(r.structured), leak) {
				t.Errorf("%s returns %s:\n%s", name, leak, r.text)
			}
		}
	}
}

// TestUnusableClientRoots: roots the client offers that cannot be used
// are an error naming them, never a fallback to --root.
func TestUnusableClientRoots(t *testing.T) {
	serverRoot := t.TempDir()
	writeTree(t, serverRoot, map[string]string{"server.go": "package server\n"})
	cs, _ := connect(t, Options{Root: serverRoot}, nil, filepath.Join(t.TempDir(), "gone"))
	r := callTool(t, cs, "pack_context", map[string]any{"query": "server"})
	if !r.isError || !strings.Contains(r.text, "cannot be used") || strings.Contains(r.text, "package server") {
		t.Errorf("pack with an unusable client root = %+v", r)
	}
}
