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

// TestToolList checks that exactly the four tools are listed and measures
// what their definitions cost an agent on every turn (docs/design.md target:
// ≤ 1,500 o200k tokens for the tools/list result).
func TestToolList(t *testing.T) {
	cs, _ := session(t, Options{Root: t.TempDir()}, nil)
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
	if diff := cmp.Diff([]string{"count_tokens", "fit_tool_result", "pack_context", "trim_conversation"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	cost := o200k(t).Count(string(data))
	t.Logf("tools/list result: %d bytes, %d o200k tokens", len(data), cost)
	if cost > 1500 {
		t.Errorf("tools/list costs %d tokens, over the 1,500 target", cost)
	}
}

func TestPackContext(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, sampleFiles)
	cs, srv := session(t, Options{Root: root}, nil)
	tok := o200k(t)

	t.Run("default budget", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "why does checkout fail for an empty cart"})
		if r.isError {
			t.Fatal(r.text)
		}
		if got := tok.Count(r.text); got != num(r.structured, "tokenCount") || got > DefaultPackBudget {
			t.Errorf("recount %d, tokenCount %d, budget %d", got, num(r.structured, "tokenCount"), DefaultPackBudget)
		}
		b := r.structured["budget"].(map[string]any)
		if num(b, "total") != DefaultPackBudget || num(b, "available") != DefaultPackBudget || num(b, "systemReserve") != 0 || num(b, "responseReserve") != 0 {
			t.Errorf("budget = %v, want %d with no reserves", b, DefaultPackBudget)
		}
		if _, ok := r.structured["content"]; ok {
			t.Error("structured result has content")
		}
		for _, leak := range []string{"sk_live", "ignored by gitignore", "excluded by context.exclude"} {
			if strings.Contains(r.text, leak) {
				t.Errorf("context holds %q", leak)
			}
		}
		if !strings.Contains(r.text, "## File: cart/service.go") {
			t.Errorf("context lacks cart/service.go:\n%s", r.text)
		}
		reasons := map[string]string{}
		for _, x := range r.structured["excluded"].([]any) {
			m := x.(map[string]any)
			reasons[m["path"].(string)] = m["reason"].(string)
		}
		if reasons[".env"] != "secret" || reasons["debug.log"] != "ignored" || reasons["gen"] != "ignored" && reasons["gen/mock.go"] != "ignored" {
			t.Errorf("exclusions = %v", reasons)
		}
	})
	t.Run("paths and search", func(t *testing.T) {
		r := callTool(t, cs, "pack_context", map[string]any{"query": "empty cart", "paths": []string{"docs/**"}, "search": "ErrEmptyCart", "budget": 2000})
		if r.isError {
			t.Fatal(r.text)
		}
		if !strings.Contains(r.text, "docs/readme.md") {
			t.Errorf("no docs/readme.md:\n%s", r.text)
		}
		types := map[string]bool{}
		for _, x := range r.structured["included"].([]any) {
			m := x.(map[string]any)
			types[m["type"].(string)] = true
			if m["type"] == "open_file" && !strings.HasPrefix(m["path"].(string), "docs/") {
				t.Errorf("open_file outside the glob: %v", m)
			}
		}
		if !types["search_result"] {
			t.Errorf("no search_result included: %v", types)
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
		if got := tok.Count(r.text); got != num(r.structured, "tokenCount") || got > 500 {
			t.Errorf("recount %d, tokenCount %d, budget 500", got, num(r.structured, "tokenCount"))
		}
		if !strings.Contains(r.text, `<file path="cart/service.go"`) || strings.Contains(r.text, "## File:") {
			t.Errorf("not xml:\n%s", r.text)
		}
		dec := xml.NewDecoder(strings.NewReader("<context>" + r.text + "</context>"))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not well-formed in a root element: %v", err)
			}
		}
	})
	t.Run("budget capped to max result tokens", func(t *testing.T) {
		cs2, _ := session(t, Options{Root: root, MaxResultTokens: 120}, nil)
		r := callTool(t, cs2, "pack_context", map[string]any{"query": "checkout", "budget": 100000})
		if r.isError {
			t.Fatal(r.text)
		}
		if got := tok.Count(r.text); got > 120 || got == 0 {
			t.Errorf("recount %d, want 1..120", got)
		}
		if w := fmt.Sprint(r.structured["warnings"]); !strings.Contains(w, "budget 100000 capped to 120 tokens") {
			t.Errorf("warnings = %s", w)
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
	cs, _ := session(t, Options{Root: root, MaxResultTokens: 400}, nil)
	long := strings.Repeat("word ", 2000)
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string // substring of the error text
	}{
		{"pack: query missing", "pack_context", map[string]any{}, "query"},
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
		{"fit: bad cursor", "fit_tool_result", map[string]any{"tool": "read_file", "content": "a\nb\n", "maxTokens": 10, "cursor": "nope"}, "invalid params: cursor"},
		{"fit: bad mode", "fit_tool_result", map[string]any{"tool": "read_file", "content": "a", "maxTokens": 10, "mode": "all"}, "mode"},
		{"trim: no messages", "trim_conversation", map[string]any{}, "messages"},
		{"trim: bad role", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "robot", "content": "x"}}, "maxContextTokens": 100}, "role"},
		{"trim: cannot fit", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "system", "content": long}, map[string]any{"role": "user", "content": "hi"}}, "maxContextTokens": 500}, "ACODE-CTX-003"},
		{"trim: result over max result tokens", "trim_conversation", map[string]any{"messages": []any{map[string]any{"role": "user", "content": long}}, "maxContextTokens": 100000}, "ACODE-CTX-003: the trimmed conversation is"},
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
		})
	}

	t.Run("invalid config", func(t *testing.T) {
		bad := t.TempDir()
		writeTree(t, bad, map[string]string{"a.go": "package a\n", ".agent/config.yml": "context:\n  budgett: {}\n"})
		cs, _ := session(t, Options{Root: bad}, nil)
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
	cs, _ := session(t, Options{Root: root, MaxResultTokens: 300}, nil)
	tok := o200k(t)

	r := callTool(t, cs, "count_tokens", map[string]any{"path": "cart/service.go"})
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
		if n := tok.Count(r.text); n > 300 || n != num(r.structured, "tokens") {
			t.Fatalf("page %d: %d tokens (reported %d), max 300", page, n, num(r.structured, "tokens"))
		}
		if !strings.Contains(fmt.Sprint(r.structured["note"]), "maxTokens capped to 300") {
			t.Errorf("page %d: note = %v", page, r.structured["note"])
		}
		got.WriteString(r.text)
		next, _ := r.structured["continuation"].(string)
		if next == "" {
			break
		}
		cursor = next
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
	r = callTool(t, cs, "trim_conversation", map[string]any{"messages": msgs, "maxContextTokens": 250, "preserveRecentTurns": 1})
	if r.isError {
		t.Fatal(r.text)
	}
	if r.structured["truncated"] != true || num(r.structured, "finalTokens") > 250 || num(r.structured, "droppedCount") == 0 {
		t.Errorf("trim = %v", r.structured)
	}
	var fromText map[string]any
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
	cs, srv := session(t, Options{Root: root}, nil)
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
	cs, srv := session(t, Options{Root: t.TempDir()}, nil)
	type in struct {
		X string `json:"x"`
	}
	addTool(srv, &sdk.Tool{Name: "boom", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *call, in) (*sdk.CallToolResult, *countOutput, error) {
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
