package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitLimit guards every wait of the tests against a hung server; it is a
// failure bound, never an assertion about speed.
const waitLimit = 20 * time.Second

// rpcMsg is any JSON-RPC message as the fake client sees it.
type rpcMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcErr         `json:"error,omitempty"`
}

type rpcErr struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// fakeClient is an editor in a test: it speaks LSP to a server running
// in-process over net.Pipe.
type fakeClient struct {
	t    testing.TB
	conn net.Conn
	wmu  sync.Mutex
	code chan int // Serve's exit code

	mu        sync.Mutex
	cond      *sync.Cond
	responses map[string][]rpcMsg // by raw id; more than one means a duplicate answer
	consumed  map[string]int      // responses returned by await, by raw id
	notes     []rpcMsg            // notifications and server requests, in order
	closed    bool
	seq       int
	ended     atomic.Bool // the test is over: writes may fail

	// answer returns the result for a request from the server; nil
	// answers null.
	answer func(m rpcMsg) any
}

// startServer runs Serve with setup on one end of a pipe and returns the
// fake client on the other end.
func startServer(t testing.TB, opts Options, setup func(*Server)) *fakeClient {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	}
	if opts.BudgetDebounce == 0 {
		opts.BudgetDebounce = 10 * time.Millisecond
	}
	serverEnd, clientEnd := net.Pipe()
	c := &fakeClient{t: t, conn: clientEnd, code: make(chan int, 1), responses: map[string][]rpcMsg{}, consumed: map[string]int{}}
	c.cond = sync.NewCond(&c.mu)
	go func() { c.code <- serve(context.Background(), serverEnd, serverEnd, opts, setup) }()
	go c.readLoop()
	t.Cleanup(func() {
		c.ended.Store(true)
		clientEnd.Close()
		select {
		case <-c.code:
		case <-time.After(waitLimit):
			t.Error("server did not stop")
		}
	})
	return c
}

func (c *fakeClient) readLoop() {
	r := bufio.NewReader(c.conn)
	defer func() {
		c.mu.Lock()
		c.closed = true
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	for {
		body, err := readFrame(r)
		if err != nil {
			return
		}
		var m rpcMsg
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("server sent invalid JSON: %v: %.200s", err, body)
			return
		}
		c.mu.Lock()
		switch {
		case m.Method == "":
			c.responses[string(m.ID)] = append(c.responses[string(m.ID)], m)
		default:
			c.notes = append(c.notes, m)
		}
		c.cond.Broadcast()
		c.mu.Unlock()
		if m.Method != "" && m.ID != nil {
			var result any
			if c.answer != nil {
				result = c.answer(m)
			}
			go c.writeJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
		}
	}
}

// readFrame reads one base-protocol frame.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			length, _ = strconv.Atoi(v)
		}
	}
	if length < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	body := make([]byte, length)
	_, err := io.ReadFull(r, body)
	return body, err
}

// writeRaw writes bytes as they are.
func (c *fakeClient) writeRaw(b []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.conn.Write(b); err != nil && !c.ended.Load() {
		// After the test, an answer to a late server request (a lens
		// refresh) finds the pipe closed: not worth a log, which would
		// panic once the test has completed.
		c.t.Logf("write: %v", err)
	}
}

// frame wraps a body in a base-protocol frame.
func frame(body []byte) []byte {
	return append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
}

func (c *fakeClient) writeJSON(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatalf("marshal: %v", err)
	}
	c.writeRaw(frame(body))
}

// nextID returns a fresh numeric id.
func (c *fakeClient) nextID() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	return c.seq
}

// send sends a request with the given id and does not wait.
func (c *fakeClient) send(id any, method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.writeJSON(msg)
}

// await waits for the next response with the given raw id (ids may repeat:
// "null" answers every message whose id is unknown).
func (c *fakeClient) await(rawID string) rpcMsg {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.responses[rawID]) <= c.consumed[rawID] {
		if c.closed {
			c.t.Fatalf("connection closed before the response to %s", rawID)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no response to %s", rawID)
		}
		c.waitLocked()
	}
	c.consumed[rawID]++
	return c.responses[rawID][c.consumed[rawID]-1]
}

// waitLocked waits on the condition, waking at least every 50 ms to check
// the deadline.
func (c *fakeClient) waitLocked() {
	timer := time.AfterFunc(50*time.Millisecond, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	c.cond.Wait()
	timer.Stop()
}

// call sends a request with a fresh id and waits for its response.
func (c *fakeClient) call(method string, params any) rpcMsg {
	c.t.Helper()
	id := c.nextID()
	c.send(id, method, params)
	return c.await(strconv.Itoa(id))
}

// result calls and decodes a successful result into out.
func (c *fakeClient) result(method string, params, out any) {
	c.t.Helper()
	m := c.call(method, params)
	if m.Error != nil {
		c.t.Fatalf("%s failed: %d %s %s", method, m.Error.Code, m.Error.Message, m.Error.Data)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			c.t.Fatalf("%s: decode result: %v: %s", method, err, m.Result)
		}
	}
}

// notify sends a notification.
func (c *fakeClient) notify(method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.writeJSON(msg)
}

// waitNote waits for a message from the server (notification or request)
// with the given method, received after the first `after` messages, for
// which ok returns true, and returns it with its index.
func (c *fakeClient) waitNote(method string, after int, ok func(params json.RawMessage) bool) (rpcMsg, int) {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := after; ; i++ {
		for i >= len(c.notes) {
			if c.closed {
				c.t.Fatalf("connection closed while waiting for %s", method)
			}
			if time.Now().After(deadline) {
				c.t.Fatalf("no %s", method)
			}
			c.waitLocked()
		}
		if n := c.notes[i]; n.Method == method && (ok == nil || ok(n.Params)) {
			return n, i + 1
		}
	}
}

// noteCount is the number of server messages received so far.
func (c *fakeClient) noteCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.notes)
}

// responseCount returns how many responses carried the raw id.
func (c *fakeClient) responseCount(rawID string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.responses[rawID])
}

// initialize runs the initialize handshake with the given roots.
func (c *fakeClient) initialize(caps map[string]any, initOpts any, roots ...string) map[string]any {
	c.t.Helper()
	var folders []map[string]string
	for _, r := range roots {
		folders = append(folders, map[string]string{"uri": string(pathToURI(r)), "name": filepath.Base(r)})
	}
	params := map[string]any{"processId": os.Getpid(), "capabilities": caps}
	if len(roots) > 0 {
		params["rootUri"] = string(pathToURI(roots[0]))
		params["workspaceFolders"] = folders
	}
	if initOpts != nil {
		params["initializationOptions"] = initOpts
	}
	var res map[string]any
	c.result("initialize", params, &res)
	c.notify("initialized", map[string]any{})
	return res
}

// shutdownExit ends the session properly and returns Serve's exit code.
func (c *fakeClient) shutdownExit() int {
	c.t.Helper()
	c.result("shutdown", nil, nil)
	c.notify("exit", nil)
	return c.exitCode()
}

// exitCode waits for Serve to return.
func (c *fakeClient) exitCode() int {
	c.t.Helper()
	select {
	case code := <-c.code:
		c.code <- code // for the cleanup
		return code
	case <-time.After(waitLimit):
		c.t.Fatal("server did not exit")
		return -1
	}
}

// open sends didOpen for a file with text.
func (c *fakeClient) open(path, lang, text string) string {
	u := string(pathToURI(path))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "languageId": lang, "version": 1, "text": text}})
	return u
}

// writeFiles creates files under dir: name → content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tempRoot returns a fresh workspace root with symlinks resolved.
func tempRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// errData decodes the data of an error response.
func errData(t *testing.T, e *rpcErr) map[string]any {
	t.Helper()
	var d map[string]any
	if len(e.Data) > 0 {
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("error data: %v", err)
		}
	}
	return d
}

// jsonEqual reports whether two JSON texts are the same value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
