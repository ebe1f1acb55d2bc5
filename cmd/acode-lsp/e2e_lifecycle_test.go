package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestE2ELifecycle: the rest of the lifecycle (initialize result, requests
// before initialize and after shutdown, exit codes) is in
// testdata/sessions/lifecycle.
func TestE2ELifecycle(t *testing.T) {
	t.Run("serve subcommand", func(t *testing.T) {
		root := sample(t)
		e := startServer(t, root, "serve")
		initialize(e, root, nil)
		if code := e.ShutdownExit(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
}

func TestE2EStdoutIsProtocolOnly(t *testing.T) {
	// Debug logging, errors, malformed input, a configuration error shown
	// to the user: every byte of stdout must still be a framed JSON-RPC
	// message (startServer's reader fails the test otherwise).
	e, root := session(t, nil, "--log-level", "debug")
	svc := filepath.Join(root, "cart/service.go")
	e.Open(svc, "go", readFile(t, svc))
	_ = lenses(e, svc)
	if err := e.CallError("no/such/method", map[string]any{}); err.Code != -32601 {
		t.Errorf("unknown method: %d %q, want -32601", err.Code, err.Message)
	}
	if err := e.CallError("initialize", map[string]any{"capabilities": map[string]any{}}); err.Code != -32600 {
		t.Errorf("second initialize: %d %q, want -32600", err.Code, err.Message)
	}
	_ = e.Call("acode/packContext", map[string]any{"sources": "nope"})
	e.WriteBody([]byte(`{"jsonrpc":"2.0","id":77,"method":`))
	if m := e.Await("77"); m.Error == nil || m.Error.Code != -32700 {
		t.Errorf("malformed JSON answered %+v, want -32700", m.Error)
	}
	from := e.Mark()
	e.Settings(map[string]any{"acode": map[string]any{"budget": map[string]any{"totalTokens": -5}}})
	msg := waitNote(e, from, "window/showMessage", nil)
	if !strings.Contains(string(msg), "totalTokens") && !strings.Contains(string(msg), "total_tokens") {
		t.Errorf("window/showMessage %s does not name the setting", msg)
	}
	var res json.RawMessage
	e.Result("acode/packContext", map[string]any{"query": "checkout", "search": map[string]any{"pattern": "Checkout"}}, &res)
	if code := e.ShutdownExit(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if !strings.Contains(e.Stderr(), "acode/packContext") {
		t.Errorf("no debug log on stderr; logs must go there, not to stdout")
	}
	for _, s := range secrets {
		if strings.Contains(e.Stderr(), s) {
			t.Errorf("the log leaks %q", s)
		}
	}
}

// bigText returns about size bytes of varied words, different for each seed.
func bigText(seed uint32, size int) string {
	words := []string{"checkout", "cart", "empty", "order", "stock", "charge", "receipt", "payment", "service", "item"}
	var b strings.Builder
	b.Grow(size + 32)
	x := seed*2654435761 + 1
	for b.Len() < size {
		x = x*1664525 + 1013904223
		b.WriteString(words[x>>28%uint32(len(words))])
		b.WriteString(strconv.Itoa(int(x>>8) % 100000))
		if x&7 == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func TestE2ECancelRequest(t *testing.T) {
	e, _ := session(t, nil)
	// A count of 8 MB takes long enough that it is still in flight when
	// its cancellation, sent right behind it, arrives.
	numeric := e.Send(1001, "acode/countTokens", map[string]any{"text": bigText(1, 8<<20)})
	e.Cancel(1001)
	str := e.Send("req-b", "acode/countTokens", map[string]any{"text": bigText(2, 8<<20)})
	e.Cancel("req-b")
	for _, id := range []string{numeric, str} {
		m := e.Await(id)
		if m.Error == nil || m.Error.Code != -32800 {
			t.Errorf("request %s after $/cancelRequest: %+v %.100s, want error -32800", id, m.Error, m.Result)
		}
	}
	// The server keeps serving.
	var got struct {
		Tokens int `json:"tokens"`
	}
	e.Result("acode/countTokens", map[string]any{"text": "still here"}, &got)
	if want := count(t, "o200k_base", "still here"); got.Tokens != want {
		t.Errorf("tokens = %d, want %d", got.Tokens, want)
	}
	if code := e.ShutdownExit(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	for _, id := range []string{numeric, str} {
		if n := e.ResponseCount(id); n != 1 {
			t.Errorf("request %s answered %d times, want once", id, n)
		}
	}
}

func TestE2EProgress(t *testing.T) {
	check := func(t *testing.T, got []string) {
		t.Helper()
		if len(got) < 2 || got[0] != "begin" || got[len(got)-1] != "end" {
			t.Errorf("$/progress kinds %v, want begin, [report…], end", got)
		}
		for _, k := range got[1 : len(got)-1] {
			if k != "report" {
				t.Errorf("$/progress kinds %v, want begin, [report…], end", got)
			}
		}
	}
	t.Run("workDoneToken of the request", func(t *testing.T) {
		e, _ := session(t, nil)
		from := e.Mark()
		e.Result("acode/packContext", map[string]any{"workDoneToken": "tok-1", "search": map[string]any{"pattern": "Checkout"}}, nil)
		check(t, e.Progress(from, "tok-1"))
	})
	t.Run("token created by the server", func(t *testing.T) {
		root := sample(t)
		e := startServer(t, root)
		initializeCaps(e, root, map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil)
		from := e.Mark()
		e.Result("acode/packContext", map[string]any{"search": map[string]any{"pattern": "Checkout"}}, nil)
		raw := waitNote(e, from, "window/workDoneProgress/create", nil)
		var create struct {
			Token any `json:"token"`
		}
		_ = json.Unmarshal(raw, &create)
		if create.Token == nil {
			t.Fatalf("window/workDoneProgress/create %s without a token", raw)
		}
		check(t, e.Progress(from, create.Token))
	})
}

func TestE2EWorkspaceRoots(t *testing.T) {
	root := sample(t)
	other, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(other, "lib/util.go"), "package lib\n\n// Util helps.\nfunc Util() int { return 1 }\n")
	third, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(third, "x.go"), "package x\n\n// ThirdRootMarker is late.\nvar ThirdRootMarker = 3\n")
	e := startServer(t, root)
	e.Result("initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(root), "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": fileURI(root), "name": "shop"}, map[string]any{"uri": fileURI(other), "name": "lib"}}}, nil)
	e.Notify("initialized", map[string]any{})
	ref := func(path string) map[string]any {
		return map[string]any{"includeOpenFiles": false, "sources": []any{map[string]any{"type": "reference", "uri": fileURI(path)},
			map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"}}}
	}
	var res packResult
	e.Result("acode/packContext", ref(filepath.Join(other, "lib/util.go")), &res)
	if !strings.Contains(res.Content, "func Util()") {
		t.Errorf("a file of the second workspace folder is not packed: excluded %+v", res.Excluded)
	}
	e.Result("acode/packContext", ref(filepath.Join(third, "x.go")), &res)
	if strings.Contains(res.Content, "ThirdRootMarker") || len(res.Excluded) != 1 || res.Excluded[0].Reason != "outside_workspace" {
		t.Errorf("a file outside every folder: excluded %+v, want outside_workspace", res.Excluded)
	}
	e.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": fileURI(third), "name": "third"}}, "removed": []any{}}})
	e.Result("acode/packContext", ref(filepath.Join(third, "x.go")), &res)
	if !strings.Contains(res.Content, "ThirdRootMarker") {
		t.Errorf("a file of an added workspace folder is not packed: excluded %+v", res.Excluded)
	}
}
