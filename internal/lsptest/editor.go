// Package lsptest is the fake editor of the tests: it speaks LSP (JSON-RPC
// over base-protocol frames) to a language server, either in-process (a
// serve function over a pipe, see [InProcess]) or as a process (the built
// binary over its stdin and stdout, see [Binary]), and records everything
// the server sends.
//
// It is the only LSP client of the tests: the language server's own tests
// (package lsp), the end-to-end tests of cmd/acode-lsp and the txtar
// sessions ([RunSession]) all drive the server through an [Editor]. It
// imports nothing of the server, so package lsp's internal tests can use it.
//
// Every wait is bounded by [WaitLimit]: a hung server fails the test
// instead of hanging it.
package lsptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/uri"
)

// WaitLimit bounds every wait for the server; it is a guard against a hung
// server, never an assertion about speed.
const WaitLimit = 20 * time.Second

// Message is any JSON-RPC message, as the editor sees it.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// Error is the error object of a response.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%d %s %s", e.Code, e.Message, e.Data)
}

// DataCode returns data.code of the error (the ACODE-* code of a -32803
// error), or "".
func (e *Error) DataCode() string {
	var d struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(e.Data, &d)
	return d.Code
}

// Options configures an editor.
type Options struct {
	// Answer returns the result of a request from the server. Nil answers
	// workspace/configuration with one null per item and anything else
	// with null, as an editor without settings does.
	Answer func(m Message) any
	// Lenient accepts frames that a strict reading refuses (header lines
	// not ended by CRLF, unknown headers, a body without "jsonrpc": "2.0").
	// By default they fail the test at its end.
	Lenient bool
}

// URI is the file: URI of an absolute path.
func URI(path string) string { return string(uri.File(path)) }

// Editor is a session with a language server, seen from one test: its
// failures are reported on that test (see [Editor.In]).
type Editor struct {
	t testing.TB
	*conn
}

// conn is the state of a session, shared by the subtests that use it.
type conn struct {
	w      io.WriteCloser
	wmu    sync.Mutex
	opts   Options
	ended  atomic.Bool // the test is over: writes may fail
	wait   func() int  // waits for the server to end and returns its exit code
	code   chan int    // the exit code, once known
	stderr func() string

	mu        sync.Mutex
	cond      *sync.Cond
	seq       int
	responses map[string][]*Message // by raw id; more than one is a duplicate answer
	consumed  map[string]int        // responses returned by Await, by raw id
	notes     []*Message            // notifications and server requests, in order
	bad       error                 // the first violation of the protocol on the output
	eof       bool
}

// newEditor starts reading r; w is the server's input.
func newEditor(t testing.TB, r io.Reader, w io.WriteCloser, opts Options) *Editor {
	c := &conn{w: w, opts: opts, code: make(chan int, 1),
		responses: map[string][]*Message{}, consumed: map[string]int{}}
	c.cond = sync.NewCond(&c.mu)
	e := &Editor{t: t, conn: c}
	go e.readLoop(r)
	return e
}

// In returns the editor for a subtest: failures are reported on t.
func (e *Editor) In(t testing.TB) *Editor { return &Editor{t: t, conn: e.conn} }

// T is the test the editor reports on.
func (e *Editor) T() testing.TB { return e.t }

// readLoop records every frame of the server's output.
func (e *Editor) readLoop(r io.Reader) {
	br := bufio.NewReader(r)
	defer func() {
		e.mu.Lock()
		e.eof = true
		e.cond.Broadcast()
		e.mu.Unlock()
	}()
	for {
		body, err := ReadFrame(br, e.opts.Lenient)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
				e.violation(err)
			}
			return
		}
		var m Message
		if err := json.Unmarshal(body, &m); err != nil {
			e.violation(fmt.Errorf("frame body is not JSON: %v: %.200q", err, body))
			continue
		}
		if m.JSONRPC != "2.0" && !e.opts.Lenient {
			e.violation(fmt.Errorf("frame without jsonrpc 2.0: %.200q", body))
		}
		if m.Method != "" && len(m.ID) > 0 {
			e.answer(&m)
		}
		e.mu.Lock()
		if m.Method != "" {
			e.notes = append(e.notes, &m)
		} else {
			e.responses[string(m.ID)] = append(e.responses[string(m.ID)], &m)
		}
		e.cond.Broadcast()
		e.mu.Unlock()
	}
}

// violation records the first violation of the protocol on the output.
func (e *Editor) violation(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.bad == nil {
		e.bad = err
	}
}

// Violation returns the first violation of the protocol seen on the
// server's output, or nil. The constructors' cleanups fail the test on it.
func (e *Editor) Violation() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bad
}

// answer answers a request from the server, off the read loop.
func (e *Editor) answer(m *Message) {
	var result any
	if e.opts.Answer != nil {
		result = e.opts.Answer(*m)
	} else if m.Method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		result = make([]any, len(p.Items))
	}
	go e.Write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// ReadFrame reads one base-protocol frame: headers ended by an empty line,
// then exactly Content-Length bytes of body. io.EOF means the stream ended
// between frames. Unless lenient, header lines must end with CRLF and be
// Content-Length or Content-Type.
func ReadFrame(r *bufio.Reader, lenient bool) ([]byte, error) {
	length := -1
	for first := true; ; first = false {
		line, err := readHeaderLine(r, first, lenient)
		if err != nil {
			return nil, err
		}
		if line == "" {
			break
		}
		n, err := parseHeader(line, lenient)
		if err != nil {
			return nil, err
		}
		if n >= 0 {
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("frame without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	return body, nil
}

// readHeaderLine reads one header line without its line end ("" for the
// blank line that ends the header); io.EOF when the input ends before a
// frame (first is set for a frame's first line).
func readHeaderLine(r *bufio.Reader, first, lenient bool) (string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		if first && line == "" && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe)) {
			return "", io.EOF
		}
		return "", fmt.Errorf("header: %q: %w", line, err)
	}
	if !strings.HasSuffix(line, "\r\n") && !lenient {
		return "", fmt.Errorf("header line not ended by CRLF: %q", line)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// parseHeader reads a header line: the Content-Length, or -1 for another
// header (Content-Type; any other only when lenient).
func parseHeader(line string, lenient bool) (int, error) {
	name, value, ok := strings.Cut(line, ":")
	if !ok {
		return -1, fmt.Errorf("not a header: %q", line)
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "content-length":
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < 0 {
			return -1, fmt.Errorf("bad Content-Length: %q", line)
		}
		return n, nil
	case "content-type":
	default:
		if !lenient {
			return -1, fmt.Errorf("unknown header: %q", line)
		}
	}
	return -1, nil
}

// Frame wraps a body in a base-protocol frame.
func Frame(body []byte) []byte {
	return append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
}

// WriteBytes writes b to the server as it is (no frame).
func (e *Editor) WriteBytes(b []byte) {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	if _, err := e.w.Write(b); err != nil && !e.ended.Load() {
		// After the test, an answer to a late server request finds the
		// input closed: not worth a log, which would panic once the test
		// has completed.
		e.t.Logf("lsptest: write: %v", err)
	}
}

// WriteBody writes body in one frame.
func (e *Editor) WriteBody(body []byte) { e.WriteBytes(Frame(body)) }

// Write marshals v and writes it in one frame.
func (e *Editor) Write(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		e.t.Errorf("lsptest: marshal: %v", err)
		return
	}
	e.WriteBody(body)
}

// CloseInput closes the server's input (the end of stdin).
func (e *Editor) CloseInput() {
	e.ended.Store(true)
	_ = e.w.Close()
}

// NextID returns a fresh numeric request id.
func (e *Editor) NextID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	return e.seq
}

// Send sends a request with the given id (nil params are left out) and
// returns the id's raw JSON, for [Editor.Await].
func (e *Editor) Send(id any, method string, params any) string {
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	e.Write(msg)
	raw, _ := json.Marshal(id)
	return string(raw)
}

// Notify sends a notification (nil params are left out).
func (e *Editor) Notify(method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	e.Write(msg)
}

// Await waits for the next response with the given raw id that Await has
// not returned yet (an id may be answered more than once: "null" answers
// every message whose id could not be read).
func (e *Editor) Await(rawID string) *Message {
	e.t.Helper()
	deadline := time.Now().Add(WaitLimit)
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.responses[rawID]) <= e.consumed[rawID] {
		if e.eof {
			e.t.Fatalf("lsptest: the server's output ended before the response to %s", rawID)
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("lsptest: no response to %s within %v", rawID, WaitLimit)
		}
		e.waitLocked()
	}
	e.consumed[rawID]++
	return e.responses[rawID][e.consumed[rawID]-1]
}

// waitLocked waits on the condition, waking at least every 50 ms to check
// a deadline.
func (e *Editor) waitLocked() {
	timer := time.AfterFunc(50*time.Millisecond, func() {
		e.mu.Lock()
		e.cond.Broadcast()
		e.mu.Unlock()
	})
	e.cond.Wait()
	timer.Stop()
}

// Call sends a request with a fresh id and waits for its response.
func (e *Editor) Call(method string, params any) *Message {
	e.t.Helper()
	return e.Await(e.Send(e.NextID(), method, params))
}

// Result calls method and decodes its result into out (nil: not decoded);
// an error response fails the test.
func (e *Editor) Result(method string, params, out any) {
	e.t.Helper()
	m := e.Call(method, params)
	if m.Error != nil {
		e.t.Fatalf("%s failed: %v", method, m.Error)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			e.t.Fatalf("%s: decode result %.300s: %v", method, m.Result, err)
		}
	}
}

// CallError calls method and returns its error; a success fails the test.
func (e *Editor) CallError(method string, params any) *Error {
	e.t.Helper()
	m := e.Call(method, params)
	if m.Error == nil {
		e.t.Fatalf("%s: want an error, got the result %.300s", method, m.Result)
	}
	return m.Error
}

// Request calls method with params and decodes its result as R; an error
// response fails the test.
func Request[R any](e *Editor, method string, params any) R {
	e.t.Helper()
	var r R
	e.Result(method, params, &r)
	return r
}

// ResponseCount returns how many responses carried the raw id.
func (e *Editor) ResponseCount(rawID string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.responses[rawID])
}

// Mark returns the number of messages from the server (notifications and
// requests) received so far, for [Editor.WaitNote].
func (e *Editor) Mark() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.notes)
}

// Notes returns the messages from the server (notifications and requests)
// received so far, in order.
func (e *Editor) Notes() []Message {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Message, len(e.notes))
	for i, n := range e.notes {
		out[i] = *n
	}
	return out
}

// WaitNote waits for a message from the server with the given method,
// among those after the first `from`, for which ok (nil: any) returns
// true. It returns the message and the mark just after it.
func (e *Editor) WaitNote(from int, method string, ok func(params json.RawMessage) bool) (Message, int) {
	e.t.Helper()
	deadline := time.Now().Add(WaitLimit)
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := from; ; i++ {
		for i >= len(e.notes) {
			if e.eof {
				e.t.Fatalf("lsptest: the server's output ended while waiting for %s", method)
			}
			if time.Now().After(deadline) {
				e.t.Fatalf("lsptest: no %s from the server within %v", method, WaitLimit)
			}
			e.waitLocked()
		}
		if n := e.notes[i]; n.Method == method && (ok == nil || ok(n.Params)) {
			return *n, i + 1
		}
	}
}

// WaitOutputEnd waits until the server's output has ended.
func (e *Editor) WaitOutputEnd() {
	e.t.Helper()
	deadline := time.Now().Add(WaitLimit)
	e.mu.Lock()
	defer e.mu.Unlock()
	for !e.eof {
		if time.Now().After(deadline) {
			e.t.Fatalf("lsptest: the server's output did not end within %v", WaitLimit)
		}
		e.waitLocked()
	}
}

// ExitCode waits for the server to end (Serve to return, or the process
// to exit) and returns its exit code.
func (e *Editor) ExitCode() int {
	e.t.Helper()
	select {
	case code := <-e.code:
		e.code <- code // for later calls and the cleanup
		return code
	case <-time.After(WaitLimit):
		e.t.Fatalf("lsptest: the server did not end within %v", WaitLimit)
		return -1
	}
}

// Stderr returns what the server process wrote on stderr so far ("" for a
// server in-process).
func (e *Editor) Stderr() string {
	if e.stderr == nil {
		return ""
	}
	return e.stderr()
}

// lockedBuffer is a bytes.Buffer safe for concurrent writes and reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
