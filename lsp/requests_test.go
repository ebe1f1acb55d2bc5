package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/jsonrpc2"
	"go.uber.org/goleak"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// testMethods adds requests that only tests use: test/block waits until it
// is cancelled and reports that on cancelled; test/heavy does the same while
// holding a heavy-work slot; test/panic panics.
func testMethods(cancelled chan<- string) func(*Server) {
	return func(s *Server) {
		block := func(ctx context.Context, raw json.RawMessage) (any, error) {
			<-ctx.Done()
			if cancelled != nil {
				cancelled <- string(raw)
			}
			return nil, ctx.Err()
		}
		s.requests["test/block"] = block
		s.requests["test/heavy"] = func(ctx context.Context, raw json.RawMessage) (any, error) {
			release, err := s.acquire(ctx)
			if err != nil {
				return nil, err
			}
			defer release()
			return block(ctx, raw)
		}
		s.requests["test/panic"] = func(context.Context, json.RawMessage) (any, error) {
			var m map[string]int
			m["boom"]++ // a nil map write: a runtime panic
			return nil, nil
		}
		s.requests["test/wrapped"] = func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("lsp: outer: %w", rpc.NewRequestFailed(errcode.NoContent, "nothing to pack", nil))
		}
	}
}

func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name     string
		id       any // id of the request
		cancelID any // id in $/cancelRequest
	}{
		{"numeric id", 41, 41},
		{"string id", "req-7", "req-7"},
		{"numeric id sent as float", 42, 42.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cancelled := make(chan string, 1)
			c := startServer(t, Options{}, testMethods(cancelled))
			c.initialize(nil, nil)
			c.send(tt.id, "test/block", map[string]any{"n": 1})
			rawID, _ := json.Marshal(tt.id)
			c.notify("$/cancelRequest", map[string]any{"id": tt.cancelID})
			m := c.await(string(rawID))
			if diff := cmp.Diff(-32800, errCode(m)); diff != "" {
				t.Errorf("cancelled request (-want +got):\n%s", diff)
			}
			if got := <-cancelled; got != `{"n":1}` {
				t.Errorf("handler saw params %s", got)
			}
			// The server keeps serving, and answered exactly once.
			c.result(methodBudgetStatus, nil, nil)
			if n := c.responseCount(string(rawID)); n != 1 {
				t.Errorf("%d responses to the cancelled request, want 1", n)
			}
		})
	}
}

func TestCancelDoesNotConfuseNumberAndStringIDs(t *testing.T) {
	cancelled := make(chan string, 2)
	c := startServer(t, Options{}, testMethods(cancelled))
	c.initialize(nil, nil)
	c.send(5, "test/block", map[string]any{"which": "number"})
	c.send("5", "test/block", map[string]any{"which": "string"})
	c.notify("$/cancelRequest", map[string]any{"id": "5"})
	if m := c.await(`"5"`); errCode(m) != -32800 {
		t.Fatalf("string id 5: got %+v, want -32800", m)
	}
	if got := <-cancelled; got != `{"which":"string"}` {
		t.Fatalf("cancelled %s, want the string-id request", got)
	}
	if n := c.responseCount("5"); n != 0 {
		t.Fatalf("numeric id 5 was answered by a cancel of string id 5")
	}
	c.notify("$/cancelRequest", map[string]any{"id": 5})
	if m := c.await("5"); errCode(m) != -32800 {
		t.Fatalf("numeric id 5: got %+v, want -32800", m)
	}
	<-cancelled
}

func TestSlowRequestsDoNotBlockOthers(t *testing.T) {
	c := startServer(t, Options{}, testMethods(nil))
	root := tempRoot(t)
	c.initialize(nil, nil, root)
	// More slow requests than there are heavy-work slots.
	for i := range 4 {
		c.send("slow-"+strconv.Itoa(i), "test/heavy", map[string]any{})
	}
	u := c.open(root+"/a.go", "go", "package a\n\nfunc A() {}\n")
	var lenses []map[string]any
	c.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	if len(lenses) == 0 {
		t.Error("no lenses")
	}
	c.result(methodBudgetStatus, nil, nil)
	c.result(methodSectionBudget, map[string]any{"contextLimit": 1000}, nil)
	for i := range 4 {
		c.notify("$/cancelRequest", map[string]any{"id": "slow-" + strconv.Itoa(i)})
	}
	for i := range 4 {
		if m := c.await(`"slow-` + strconv.Itoa(i) + `"`); errCode(m) != -32800 {
			t.Errorf("slow-%d: got %+v", i, m)
		}
	}
}

func TestPanicBecomesAnErrorResponse(t *testing.T) {
	c := startServer(t, Options{}, testMethods(nil))
	c.initialize(nil, nil)
	m := c.call("test/panic", map[string]any{})
	if m.Error == nil || m.Error.Code != int(jsonrpc2.InternalError) {
		t.Fatalf("panicking handler: got %+v, want %d", m, jsonrpc2.InternalError)
	}
	c.result(methodBudgetStatus, nil, nil)
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d after a panic, want 0", code)
	}
}

func TestWrappedErrorsKeepTheirCode(t *testing.T) {
	c := startServer(t, Options{}, testMethods(nil))
	c.initialize(nil, nil)
	m := c.call("test/wrapped", map[string]any{})
	if m.Error == nil || m.Error.Code != -32803 {
		t.Fatalf("got %+v, want -32803", m)
	}
	if got := errData(t, m.Error)["code"]; got != string(errcode.NoContent) {
		t.Errorf("data.code = %v, want %s", got, errcode.NoContent)
	}
}

func TestInvalidParamsNameTheField(t *testing.T) {
	c := startServer(t, Options{}, nil)
	root := tempRoot(t)
	c.initialize(nil, nil, root)
	tests := []struct {
		method string
		params any
		field  string
	}{
		{methodCountTokens, map[string]any{"text": 5}, "text"},
		{methodCountTokens, map[string]any{}, "text"},
		{methodCountTokens, map[string]any{"text": "a", "uri": "file:///x"}, "uri"},
		{methodCountTokens, map[string]any{"text": "a", "encoding": "no_such_base"}, "encoding"},
		{methodCountTokens, "not an object", "params"},
		{methodPackContext, map[string]any{"sources": "nope"}, "sources"},
		{methodPackContext, map[string]any{"budget": map[string]any{"totalTokens": "many"}}, "budget.totalTokens"},
		{"textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": 7}}, "textDocument.uri"},
		{"textDocument/codeLens", nil, "params"},
		{"textDocument/codeLens", map[string]any{}, "textDocument.uri"},
		{"textDocument/codeLens", map[string]any{"textDocument": map[string]any{}}, "textDocument.uri"},
		{methodTrimConversation, map[string]any{"messages": 3}, "messages"},
		{methodSectionBudget, map[string]any{"contextLimit": "big"}, "contextLimit"},
		{methodFitToolResult, map[string]any{"maxTokens": []int{1}}, "maxTokens"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.method, tt.params), func(t *testing.T) {
			m := c.call(tt.method, tt.params)
			if m.Error == nil || m.Error.Code != int(jsonrpc2.InvalidParams) {
				t.Fatalf("got %+v, want %d", m, jsonrpc2.InvalidParams)
			}
			want := "invalid params: " + tt.field + ":"
			if len(m.Error.Message) < len(want) || m.Error.Message[:len(want)] != want {
				t.Errorf("message %q does not start with %q", m.Error.Message, want)
			}
		})
	}
}

// TestConcurrentPacksWithCancellation sends 50 packs at once and cancels a
// random half: every one is answered exactly once (a result or -32800), and
// no goroutine is left behind when the session ends.
func TestConcurrentPacksWithCancellation(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	root := tempRoot(t)
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("pkg%d/file%d.go", i%4, i)] = fmt.Sprintf("package pkg%d\n\n// Handler%d serves requests.\nfunc Handler%d(x int) int {\n\treturn x * %d\n}\n", i%4, i, i, i)
	}
	writeFiles(t, root, files)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	c.open(root+"/pkg0/file0.go", "go", files["pkg0/file0.go"])

	rng := rand.New(rand.NewSource(1))
	const n = 50
	var wg sync.WaitGroup
	cancelled := map[int]bool{}
	for i := range n {
		if rng.Intn(2) == 0 {
			cancelled[i] = true
		}
	}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.send(1000+i, methodPackContext, map[string]any{
				"query":  "handler serves requests",
				"search": map[string]any{"pattern": "Handler", "maxResults": 10},
				"budget": map[string]any{"totalTokens": 3000, "systemReserve": 100, "responseReserve": 100},
			})
			if cancelled[i] {
				c.notify("$/cancelRequest", map[string]any{"id": 1000 + i})
			}
		}()
	}
	wg.Wait()
	for i := range n {
		m := c.await(strconv.Itoa(1000 + i))
		switch {
		case m.Error == nil:
			var res struct {
				TokenCount *int `json:"tokenCount"`
			}
			if err := json.Unmarshal(m.Result, &res); err != nil || res.TokenCount == nil {
				t.Errorf("pack %d: bad result %s", i, m.Result)
			}
		case m.Error.Code == -32800 && cancelled[i]:
		default:
			t.Errorf("pack %d (cancelled %v): error %d %s", i, cancelled[i], m.Error.Code, m.Error.Message)
		}
	}
	if code := c.shutdownExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
	for i := range n {
		if k := c.responseCount(strconv.Itoa(1000 + i)); k != 1 {
			t.Errorf("pack %d answered %d times", i, k)
		}
	}
	c.CloseInput()
	c.WaitOutputEnd()
	if err := goleak.Find(ignore); err != nil {
		t.Error(err)
	}
}
