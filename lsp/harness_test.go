package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitLimit guards every wait of the tests against a hung server; it is a
// failure bound, never an assertion about speed.
const waitLimit = lsptest.WaitLimit

// rpcMsg is any JSON-RPC message as the fake client sees it.
type rpcMsg = lsptest.Message

type rpcErr = lsptest.Error

// fakeClient is an editor in a test: the shared fake editor
// (internal/lsptest) talking to a server running in-process, with the
// short names the tests of this package use.
type fakeClient struct {
	*lsptest.Editor
	t testing.TB

	// answer returns the result for a request from the server; nil
	// answers null.
	answer func(m rpcMsg) any
}

// startServer runs serve with setup on one end of a pipe and returns the
// fake client on the other end.
func startServer(t testing.TB, opts Options, setup func(*Server)) *fakeClient {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	}
	if opts.BudgetDebounce == 0 {
		opts.BudgetDebounce = 10 * time.Millisecond
	}
	c := &fakeClient{t: t}
	c.Editor = lsptest.InProcess(t, func(ctx context.Context, in io.Reader, out io.Writer) int {
		return serve(ctx, in, out, opts, setup)
	}, lsptest.Options{Answer: func(m rpcMsg) any {
		if c.answer != nil {
			return c.answer(m)
		}
		return nil
	}})
	return c
}

// writeRaw writes bytes as they are.
func (c *fakeClient) writeRaw(b []byte) { c.WriteBytes(b) }

// frame wraps a body in a base-protocol frame.
func frame(body []byte) []byte { return lsptest.Frame(body) }

func (c *fakeClient) writeJSON(v any) { c.Write(v) }

// nextID returns a fresh numeric id.
func (c *fakeClient) nextID() int { return c.NextID() }

// send sends a request with the given id and does not wait.
func (c *fakeClient) send(id any, method string, params any) { c.Send(id, method, params) }

// await waits for the next response with the given raw id (ids may repeat:
// "null" answers every message whose id is unknown).
func (c *fakeClient) await(rawID string) rpcMsg {
	c.t.Helper()
	return *c.Await(rawID)
}

// call sends a request with a fresh id and waits for its response.
func (c *fakeClient) call(method string, params any) rpcMsg {
	c.t.Helper()
	return *c.Call(method, params)
}

// result calls and decodes a successful result into out.
func (c *fakeClient) result(method string, params, out any) {
	c.t.Helper()
	c.Result(method, params, out)
}

// notify sends a notification.
func (c *fakeClient) notify(method string, params any) { c.Notify(method, params) }

// waitNote waits for a message from the server (notification or request)
// with the given method, received after the first `after` messages, for
// which ok returns true, and returns it with its index.
func (c *fakeClient) waitNote(method string, after int, ok func(params json.RawMessage) bool) (rpcMsg, int) {
	c.t.Helper()
	return c.WaitNote(after, method, ok)
}

// noteCount is the number of server messages received so far.
func (c *fakeClient) noteCount() int { return c.Mark() }

// responseCount returns how many responses carried the raw id.
func (c *fakeClient) responseCount(rawID string) int { return c.ResponseCount(rawID) }

// initialize runs the initialize handshake with the given roots.
func (c *fakeClient) initialize(caps map[string]any, initOpts any, roots ...string) map[string]any {
	c.t.Helper()
	var capabilities any
	if caps != nil {
		capabilities = caps
	}
	return c.Initialize(lsptest.Init{Roots: roots, Capabilities: capabilities, InitializationOptions: initOpts})
}

// shutdownExit ends the session properly and returns Serve's exit code.
func (c *fakeClient) shutdownExit() int {
	c.t.Helper()
	return c.ShutdownExit()
}

// exitCode waits for Serve to return.
func (c *fakeClient) exitCode() int {
	c.t.Helper()
	return c.ExitCode()
}

// open sends didOpen for a file with text.
func (c *fakeClient) open(path, lang, text string) string {
	return c.Open(path, lang, text)
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
