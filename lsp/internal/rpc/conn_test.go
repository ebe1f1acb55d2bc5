package rpc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"
)

// peer is the client end of a Conn under test: it writes frames and reads
// the server's messages in order.
type peer struct {
	t   testing.TB
	w   io.WriteCloser
	r   *bufio.Reader
	mu  sync.Mutex
	out chan map[string]json.RawMessage
}

// startConn runs a Conn with h over pipes and returns its peer; the
// connection ends with the test.
func startConn(t testing.TB, h Handlers) (*peer, *Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := NewConn(inR, outW, DefaultMaxMessageBytes, zap.NewNop())
	ctx, cancel := context.WithCancel(context.Background())
	c.Start(ctx, h)
	p := &peer{t: t, w: inW, r: bufio.NewReader(outR), out: make(chan map[string]json.RawMessage, 16)}
	go func() {
		for {
			body, err := readFrame(p.r)
			if err != nil {
				close(p.out)
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) != nil {
				t.Errorf("server wrote invalid JSON: %s", body)
			}
			p.out <- m
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		outW.Close()
		<-c.Done()
	})
	return p, c
}

// send writes one message.
func (p *peer) send(msg string) {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.w.Write(frame([]byte(msg))); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// next returns the next message the server wrote.
func (p *peer) next() map[string]json.RawMessage {
	p.t.Helper()
	select {
	case m, ok := <-p.out:
		if !ok {
			p.t.Fatal("connection ended")
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("no message from the server")
	}
	return nil
}

// errorOf returns "id code" of a response ("id ok" for a result).
func errorOf(m map[string]json.RawMessage) string {
	if m["error"] == nil {
		return string(m["id"]) + " ok"
	}
	var e Error
	_ = json.Unmarshal(m["error"], &e)
	return string(m["id"]) + " " + strconv.Itoa(int(e.Code))
}

// TestConnLifecycleAndRouting drives a Conn through a session: the
// lifecycle gate, routing, typed params, panics, errors mapped by
// MapError, cancellation with exactly one reply, and exit.
func TestConnLifecycleAndRouting(t *testing.T) {
	domain := errors.New("domain failure")
	started := make(chan struct{})
	exited := make(chan struct{})
	var notes []string
	h := Handlers{
		Initialize: func(context.Context, json.RawMessage) (any, error) { return map[string]int{"v": 1}, nil },
		Shutdown:   func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		Exit:       func() { close(exited) },
		Requests: map[string]RequestFunc{
			"echo": Request(func(_ context.Context, p *struct {
				N int `json:"n"`
			}) (int, error) {
				return p.N, nil
			}),
			"panic":  func(context.Context, json.RawMessage) (any, error) { panic("boom") },
			"domain": func(context.Context, json.RawMessage) (any, error) { return nil, domain },
			"block": func(ctx context.Context, _ json.RawMessage) (any, error) {
				close(started)
				<-ctx.Done()
				return "late", nil
			},
		},
		Notifications: map[string]NotifyFunc{
			"note": func(_ context.Context, raw json.RawMessage) error {
				notes = append(notes, string(raw))
				return nil
			},
		},
		MapError: func(err error) *Error {
			if errors.Is(err, domain) {
				return NewRequestFailed("ACODE-X", "failed", nil)
			}
			return nil
		},
	}
	p, c := startConn(t, h)
	var got []string
	ask := func(msg string) {
		p.send(msg)
		got = append(got, errorOf(p.next()))
	}
	ask(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"n":1}}`)
	p.send(`{"jsonrpc":"2.0","method":"note","params":{"early":true}}`)
	ask(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}`)
	if c.State() != StateInitialized {
		t.Errorf("state after initialize = %d", c.State())
	}
	ask(`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}`)
	ask(`{"jsonrpc":"2.0","id":4,"method":"echo","params":{"n":"x"}}`)
	ask(`{"jsonrpc":"2.0","id":5,"method":"nope","params":{}}`)
	ask(`{"jsonrpc":"2.0","id":6,"method":"panic","params":{}}`)
	ask(`{"jsonrpc":"2.0","id":7,"method":"domain","params":{}}`)
	p.send(`{"jsonrpc":"2.0","id":8,"method":"block","params":{}}`)
	<-started
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":8.0}}`)
	got = append(got, errorOf(p.next()))
	p.send(`{"jsonrpc":"2.0","method":"note","params":{"n":1}}`)
	ask(`{"jsonrpc":"2.0","id":9,"method":"echo","params":{"n":9}}`) // also proves 8 was answered once
	ask(`{"jsonrpc":"2.0","id":10,"method":"shutdown"}`)
	ask(`{"jsonrpc":"2.0","id":11,"method":"echo","params":{"n":1}}`)
	p.send(`{"jsonrpc":"2.0","method":"exit"}`)
	<-exited
	want := []string{"1 -32002", "2 ok", "3 -32600", "4 -32602", "5 -32601", "6 -32603", "7 -32803", "8 -32800", "9 ok", "10 ok", "11 -32600"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`{"n":1}`}, notes); diff != "" {
		t.Errorf("notifications run (-want +got):\n%s", diff)
	}
	if c.State() != StateShutdown {
		t.Errorf("state after shutdown = %d", c.State())
	}
}

// TestConnOutbound checks the server's own messages: a notification, and a
// request whose error response comes back as an *Error with its code.
func TestConnOutbound(t *testing.T) {
	p, c := startConn(t, Handlers{})
	c.Notify("window/showMessage", &struct {
		Message string `json:"message"`
	}{"hi"})
	if m := p.next(); string(m["method"]) != `"window/showMessage"` || string(m["params"]) != `{"message":"hi"}` {
		t.Errorf("notification = %v", m)
	}
	done := make(chan error, 1)
	go func() {
		var result any
		done <- c.Call(context.Background(), "workspace/configuration", &struct{}{}, &result)
	}()
	req := p.next()
	if string(req["method"]) != `"workspace/configuration"` {
		t.Fatalf("request = %v", req)
	}
	p.send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"error":{"code":-32601,"message":"no"}}`)
	err := <-done
	var e *Error
	if !errors.As(err, &e) || e.Code != MethodNotFound || e.Message != "no" {
		t.Errorf("Call error = %v, want an *Error -32601", err)
	}
}

// BenchmarkConnRoundTrip measures one request through the transport alone
// (framing, routing, a goroutine, the reply): a result, and a -32601 error.
func BenchmarkConnRoundTrip(b *testing.B) {
	for _, method := range []string{"echo", "missing"} {
		b.Run(method, func(b *testing.B) {
			p, _ := startConn(b, Handlers{Requests: map[string]RequestFunc{
				"echo": func(context.Context, json.RawMessage) (any, error) { return 1, nil },
			}})
			p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`)
			p.next()
			msg := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{}}`
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				p.send(msg)
				p.next()
			}
		})
	}
}

// TestConnCancelAll: at the end of a session CancelAll cancels the
// context of every request in flight, and each is answered -32800
// (request cancelled) whatever its handler returns late.
func TestConnCancelAll(t *testing.T) {
	started := make(chan struct{}, 2)
	h := Handlers{
		Initialize: func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		Requests: map[string]RequestFunc{
			"block": func(ctx context.Context, _ json.RawMessage) (any, error) {
				started <- struct{}{}
				<-ctx.Done()
				return ctx.Err().Error(), nil
			},
		},
	}
	p, c := startConn(t, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	p.next()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"block"}`)
	p.send(`{"jsonrpc":"2.0","id":"x","method":"block"}`)
	for range 2 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the requests did not start")
		}
	}
	c.CancelAll()
	got := map[string]string{}
	for range 2 {
		m := p.next()
		got[string(m["id"])] = errorOf(m)
	}
	want := map[string]string{`2`: `2 -32800`, `"x"`: `"x" -32800`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestConnJSONResult: a result the handler encoded itself (JSON) is the
// response's result byte for byte, under number and string ids; an empty
// one is answered as encoding/json would.
func TestConnJSONResult(t *testing.T) {
	raw := `[{"a":[1,"\u003c"]},null]`
	h := Handlers{
		Initialize: func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		Requests: map[string]RequestFunc{
			"raw":   func(context.Context, json.RawMessage) (any, error) { return JSON(raw), nil },
			"empty": func(context.Context, json.RawMessage) (any, error) { return JSON(nil), nil },
		},
	}
	p, _ := startConn(t, h)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	p.next()
	for _, id := range []string{`2`, `"x"`} {
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"raw"}`)
		m := p.next()
		if string(m["id"]) != id || string(m["result"]) != raw || string(m["jsonrpc"]) != `"2.0"` || m["error"] != nil {
			t.Errorf("response to %s = %v, want result %s", id, m, raw)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":3,"method":"empty"}`)
	if m := p.next(); string(m["result"]) != "null" {
		t.Errorf("empty JSON result = %s, want null", m["result"])
	}
}
