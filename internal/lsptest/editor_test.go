package lsptest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		lenient bool
		body    string
		err     string // part of the error; "" for none
	}{
		{"frame", "Content-Length: 2\r\n\r\n{}", false, "{}", ""},
		{"content type", "Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", false, "{}", ""},
		{"end between frames", "", false, "", "EOF"},
		{"LF only", "Content-Length: 2\n\n{}", false, "", "not ended by CRLF"},
		{"LF only, lenient", "Content-Length: 2\n\n{}", true, "{}", ""},
		{"unknown header", "Content-Length: 2\r\nX-Trace: 1\r\n\r\n{}", false, "", "unknown header"},
		{"unknown header, lenient", "Content-Length: 2\r\nX-Trace: 1\r\n\r\n{}", true, "{}", ""},
		{"no length", "Content-Type: x\r\n\r\n{}", false, "", "without Content-Length"},
		{"bad length", "Content-Length: -4\r\n\r\n{}", false, "", "bad Content-Length"},
		{"short body", "Content-Length: 9\r\n\r\n{}", false, "", "body"},
		{"not a header", "hello\r\n\r\n", false, "", "not a header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := ReadFrame(bufio.NewReader(strings.NewReader(tt.in)), tt.lenient)
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v, want the body %q", err, tt.body)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one with %q", err, tt.err)
			case tt.err == "" && string(body) != tt.body:
				t.Errorf("body %q, want %q", body, tt.body)
			}
		})
	}
}

// echoServer is a tiny language server: it answers each request with its
// params as the result (an error for method "fail"), sends a
// workspace/configuration request after "ask" and reports the answer in a
// notification "answer", and returns 0 at "exit".
func echoServer(ctx context.Context, in io.Reader, out io.Writer) int {
	r := bufio.NewReader(in)
	write := func(v any) {
		body, _ := json.Marshal(v)
		_, _ = out.Write(Frame(body))
	}
	for {
		body, err := ReadFrame(r, false)
		if err != nil {
			return 1
		}
		var m Message
		if json.Unmarshal(body, &m) != nil {
			return 2
		}
		switch {
		case m.Method == "exit":
			return 0
		case m.Method == "fail":
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32803, "message": "no", "data": map[string]any{"code": "ACODE-X"}}})
		case m.Method == "ask":
			write(map[string]any{"jsonrpc": "2.0", "id": "s1", "method": "workspace/configuration", "params": map[string]any{"items": []any{map[string]any{}, map[string]any{}}}})
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		case m.Method == "" && string(m.ID) == `"s1"`:
			write(map[string]any{"jsonrpc": "2.0", "method": "answer", "params": m.Result})
		case len(m.ID) > 0:
			write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": m.Params})
		}
	}
}

func TestEditorInProcess(t *testing.T) {
	e := InProcess(t, echoServer, Options{})
	type echo struct {
		Text string `json:"text"`
	}
	if got := Request[echo](e, "echo", echo{"hi"}); got.Text != "hi" {
		t.Errorf("echo %+v, want hi", got)
	}
	if err := e.CallError("fail", nil); err.Code != -32803 || err.DataCode() != "ACODE-X" {
		t.Errorf("error %v, want -32803 with data.code ACODE-X", err)
	}
	from := e.Mark()
	e.Result("ask", nil, nil)
	m, next := e.WaitNote(from, "answer", nil)
	if string(m.Params) != "[null,null]" || next != from+2 {
		t.Errorf("the editor answered workspace/configuration with %s (mark %d→%d), want one null per item", m.Params, from, next)
	}
	id := e.Send("same", "echo", 1)
	if got := e.Await(id); string(got.Result) != "1" || e.ResponseCount(id) != 1 {
		t.Errorf("answer %s, %d answers", got.Result, e.ResponseCount(id))
	}
	e.Exit()
	if code := e.ExitCode(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestEditorFlagsOutputThatIsNotProtocol(t *testing.T) {
	ft := &fakeT{TB: t}
	e := InProcess(ft, func(ctx context.Context, in io.Reader, out io.Writer) int {
		_, _ = out.Write([]byte("log: starting\r\n\r\n"))
		_, _ = io.Copy(io.Discard, in)
		return 0
	}, Options{})
	e.WaitOutputEnd()
	if err := e.Violation(); err == nil || !strings.Contains(err.Error(), "log: starting") {
		t.Errorf("violation %v, want the stray log line", err)
	}
	ft.runCleanups()
	if !ft.failed {
		t.Errorf("the cleanup did not fail the test")
	}
}

// fakeT records the failures of the cleanups it runs instead of failing.
type fakeT struct {
	testing.TB
	failed   bool
	cleanups []func()
}

func (f *fakeT) Cleanup(fn func())     { f.cleanups = append(f.cleanups, fn) }
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
func (f *fakeT) Error(...any)          { f.failed = true }
func (f *fakeT) Helper()               {}
func (f *fakeT) Logf(string, ...any)   {}
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic(errors.New("fatal")) }

func (f *fakeT) runCleanups() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}
