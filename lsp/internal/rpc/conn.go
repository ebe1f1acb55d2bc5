package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// RequestFunc handles a request; its result is encoded as the response.
type RequestFunc func(ctx context.Context, params json.RawMessage) (any, error)

// NotifyFunc handles a notification. It runs on the read loop, so it must
// be quick: notifications are applied in the order they arrive, before any
// later message is read.
type NotifyFunc func(ctx context.Context, params json.RawMessage) error

// Request adapts a typed handler to a RequestFunc: it decodes the params
// (a -32602 error names the field that does not decode, see
// [DecodeParams]) and calls fn.
func Request[P, R any](fn func(context.Context, *P) (R, error)) RequestFunc {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		p := new(P)
		if err := DecodeParams(raw, p); err != nil {
			return nil, err
		}
		return fn(ctx, p)
	}
}

// Notification adapts a typed notification handler to a NotifyFunc.
func Notification[P any](fn func(context.Context, *P) error) NotifyFunc {
	return func(ctx context.Context, raw json.RawMessage) error {
		p := new(P)
		if err := DecodeParams(raw, p); err != nil {
			return err
		}
		return fn(ctx, p)
	}
}

// State is where a session is between initialize and exit.
type State int

// The states of a session.
const (
	StateNew         State = iota // before initialize: requests are refused
	StateInitialized              // after initialize succeeded
	StateShutdown                 // after shutdown: only exit is accepted
)

// Handlers routes the messages of a session. Requests before initialize
// are answered -32002 and after shutdown -32600; notifications in those
// states are dropped, except exit.
type Handlers struct {
	// Initialize answers initialize, on the read loop, so that what it sets
	// holds for every later message. When it succeeds the session is
	// StateInitialized.
	Initialize RequestFunc
	// Shutdown answers shutdown, on the read loop, once the session is
	// StateShutdown.
	Shutdown RequestFunc
	// Exit handles exit, in any state, on the read loop.
	Exit func()
	// Requests are the other requests by method. Each runs in its own
	// goroutine (started with Go) with a context derived from Context, and
	// replies from there; $/cancelRequest cancels that context and answers
	// -32800 at once.
	Requests map[string]RequestFunc
	// Notifications are the notifications by method, run on the read loop
	// in the order they arrive; their errors are logged. $/cancelRequest is
	// handled by the Conn itself.
	Notifications map[string]NotifyFunc

	// Context is the parent of every request's context: the session's.
	Context context.Context
	// Go starts fn in a goroutine that the session waits for at its end;
	// it reports false, without running fn, when the session is ending (the
	// request is then answered -32800). Nil means a plain goroutine.
	Go func(fn func()) bool
	// WithLogger returns ctx carrying log, the Conn's logger with the
	// request's id and method, for the code under a request handler (nil:
	// the context is left alone).
	WithLogger func(ctx context.Context, log *zap.Logger) context.Context
	// MapError converts the errors of handlers that are neither an *Error
	// nor a cancellation; nil or a nil result makes them -32603 (see
	// toError).
	MapError func(error) *Error
}

// Conn is one JSON-RPC session over a byte stream: framing ([Stream]),
// the lifecycle gate, routing to [Handlers], requests in flight and their
// cancellation, exactly one reply per request, panics turned into errors,
// and the server's own messages to the client ([Conn.Notify],
// [Conn.Call]).
type Conn struct {
	stream *Stream
	conn   jsonrpc2.Conn
	log    *zap.Logger
	h      Handlers
	calls  callTable

	mu    sync.Mutex
	state State
}

// NewConn returns a session reading frames from in and writing them to out;
// bodies over maxMessageBytes are refused. log receives the transport's
// logs (methods, ids, codes, timings; never params). Messages are read once
// [Conn.Start] is called; [Conn.Notify] and [Conn.Call] work before.
func NewConn(in io.Reader, out io.Writer, maxMessageBytes int64, log *zap.Logger) *Conn {
	stream := NewStream(in, out, maxMessageBytes, log)
	return &Conn{stream: stream, conn: jsonrpc2.NewConn(stream), log: log}
}

// Start starts the read loop, which routes every message to h until the
// input ends or ctx is done.
func (c *Conn) Start(ctx context.Context, h Handlers) {
	if h.Context == nil {
		h.Context = context.Background()
	}
	if h.Go == nil {
		h.Go = func(fn func()) bool { go fn(); return true }
	}
	c.h = h
	c.conn.Go(ctx, c.handle)
}

// Done is closed when the read loop has ended.
func (c *Conn) Done() <-chan struct{} { return c.conn.Done() }

// Err is why the read loop ended, once Done is closed.
func (c *Conn) Err() error { return c.conn.Err() }

// Close closes the input when it is an io.Closer (see [Stream.Close]).
func (c *Conn) Close() error { return c.stream.Close() }

// State returns the session's state.
func (c *Conn) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// setState moves the session to state st.
func (c *Conn) setState(st State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = st
}

// CancelAll cancels the context of every request in flight (at the end of
// the session); their answers are left to their handlers.
func (c *Conn) CancelAll() { c.calls.cancelAll() }

// Notify sends a notification to the client. It is written even when the
// request that caused it has been cancelled; a failed write is logged.
// Pass params as a pointer (see the Defect on ProgressToken in
// lsp/progress.go).
func (c *Conn) Notify(method string, params any) {
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.log.Warn("send notification", zap.String("method", method), zap.Error(err))
	}
}

// Call sends a request to the client and decodes its result into result
// (nil: the result is ignored). An error response of the client is
// returned as an *Error. Never call it from the read loop (a notification
// handler, Initialize or Shutdown): the loop must be free to read the
// answer.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		var je *jsonrpc2.Error
		if errors.As(err, &je) {
			err = &Error{Code: Code(je.Code), Message: je.Message}
			if je.Data != nil {
				err.(*Error).Data = *je.Data
			}
		}
		return fmt.Errorf("rpc: %s: %w", method, err)
	}
	return nil
}

// handle is the jsonrpc2.Handler of the connection. jsonrpc2 calls it on
// its read loop, one message at a time.
//
// Defect: protocol.ServerHandler ignores its fallback handler and sends
// every method it does not know (all acode/*) to Server.Request, and an
// embedded nil protocol.Server panics on any unimplemented method; so the
// Conn routes every method itself, from the tables of [Handlers], and
// never goes through protocol.ServerHandler.
//
// Defect: an error returned by a handler makes jsonrpc2 close the whole
// connection; handle answers or logs every failure and always returns nil.
func (c *Conn) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req := req.(type) {
	case *jsonrpc2.Call:
		c.handleCall(ctx, reply, req)
	case *jsonrpc2.Notification:
		c.handleNotification(ctx, req)
	}
	return nil
}

// failureLevel is the log level of a failed request: error (a count, trim,
// fit or pack that failed is something to see at the default level, seed
// NFR-016-57), except a request the client cancelled, which is no failure
// of the server (debug). The fields never carry request values
// ([errorFields]).
func failureLevel(e *Error) zapcore.Level {
	if e.Code == RequestCancelled {
		return zapcore.DebugLevel
	}
	return zapcore.ErrorLevel
}

// JSON is a request's result that its handler encoded itself: valid,
// compact JSON, with "<", ">" and "&" escaped in strings as encoding/json
// does. It is written into the response as it is: a result of thousands
// of items (the code lenses of a 1 MB file) is not parsed again.
type JSON []byte

// writeResult writes the successful response to the request id whose
// result is raw.
func (c *Conn) writeResult(ctx context.Context, id jsonrpc2.ID, raw JSON) error {
	body, err := responseBody(id, raw)
	if err != nil {
		return err
	}
	_, err = c.stream.writeFrame(ctx, body)
	return err
}

// handleCall answers a request. initialize and shutdown run on the read
// loop so that the state they set holds for every later message; every
// other request runs in its own goroutine and replies from there.
//
// Defect: jsonrpc2.AsyncHandler still serialises requests until each one
// replies, so a slow acode/packContext would block every request behind
// it; it is not used.
func (c *Conn) handleCall(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) {
	method := call.Method()
	start := time.Now()
	// The reply must not be written with the request's context: once the
	// request is cancelled that context would refuse the write.
	replyCtx := context.WithoutCancel(ctx)
	send := func(result any, err error) {
		rerr := toError(ctx, err, c.h.MapError)
		if rerr != nil {
			result = nil
			c.log.Log(failureLevel(rerr), "request failed", append([]zap.Field{methodField(method), zap.Stringer("id", idString(call.ID())),
				zap.Int32("code", int32(rerr.Code))}, errorFields(rerr)...)...)
		} else {
			c.log.Debug("request done", methodField(method), zap.Stringer("id", idString(call.ID())), zap.Duration("took", time.Since(start)))
		}
		c.respond(replyCtx, reply, call.ID(), method, result, rerr)
	}

	state := c.State()
	switch {
	case method == protocol.MethodInitialize:
		if state != StateNew {
			send(nil, NewError(InvalidRequest, "invalid request: initialize was already received"))
			return
		}
		result, err := c.safeRequest(ctx, method, c.h.Initialize, call.Params())
		if err == nil {
			c.setState(StateInitialized)
		}
		send(result, err)
		return
	case state == StateNew:
		send(nil, NewError(ServerNotInitialized, fmt.Sprintf("server not initialized: %s before initialize", method)))
		return
	case state == StateShutdown:
		send(nil, NewError(InvalidRequest, fmt.Sprintf("invalid request: %s after shutdown", method)))
		return
	case method == protocol.MethodShutdown:
		c.setState(StateShutdown)
		send(c.safeRequest(ctx, method, c.h.Shutdown, call.Params()))
		return
	}

	h, ok := c.h.Requests[method]
	if !ok {
		send(nil, NewError(MethodNotFound, fmt.Sprintf("method not found: %s", method)))
		return
	}
	hctx, cancel := context.WithCancel(c.h.Context)
	if c.h.WithLogger != nil {
		// The code under the handler logs with the request id on every line.
		hctx = c.h.WithLogger(hctx, c.log.With(zap.Stringer("id", idString(call.ID())), methodField(method)))
	}
	p := &pendingCall{method: method, cancel: cancel, send: send}
	key := idString(call.ID())
	c.calls.add(key, p)
	started := c.h.Go(func() {
		defer cancel()
		defer c.calls.remove(key, p)
		result, err := c.safeRequest(hctx, method, h, call.Params())
		if err == nil && hctx.Err() != nil {
			err = hctx.Err()
		}
		p.finish(result, err)
	})
	if !started {
		cancel()
		c.calls.remove(key, p)
		p.finish(nil, errCancelled())
	}
}

// respond writes the response to request id: the error rerr when not nil,
// else result — as it is when the handler encoded it (JSON), not parsed
// and compacted again by jsonrpc2.NewResponse.
func (c *Conn) respond(ctx context.Context, reply jsonrpc2.Replier, id jsonrpc2.ID, method string, result any, rerr *Error) {
	var werr error
	raw, isJSON := result.(JSON)
	switch {
	case rerr != nil:
		werr = reply(ctx, nil, rerr.wire())
	case isJSON && len(raw) > 0:
		werr = c.writeResult(ctx, id, raw)
	default:
		werr = reply(ctx, result, nil)
	}
	if werr != nil {
		c.log.Warn("write response", methodField(method), zap.Error(werr))
	}
}

// safeRequest runs h and turns a panic into an internal error, so one bad
// request never takes the server down. A nil h is a request that does
// nothing.
func (c *Conn) safeRequest(ctx context.Context, method string, h RequestFunc, params json.RawMessage) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			c.log.Error("handler panicked", methodField(method), zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
			result, err = nil, NewError(InternalError, fmt.Sprintf("internal error in %s: %v", method, v))
		}
	}()
	if h == nil {
		return nil, nil
	}
	return h(ctx, params)
}

// handleNotification applies a notification on the read loop.
//
// Defect: jsonrpc2 drops errors returned for notifications silently (there
// is no one to answer); they are logged here. Handlers tell the user
// themselves when it matters (lsp's showError).
func (c *Conn) handleNotification(ctx context.Context, n *jsonrpc2.Notification) {
	method := n.Method()
	if method == protocol.MethodExit {
		if c.h.Exit != nil {
			c.h.Exit()
		}
		return
	}
	switch c.State() {
	case StateNew:
		c.log.Debug("notification before initialize dropped", methodField(method))
		return
	case StateShutdown:
		c.log.Debug("notification after shutdown dropped", methodField(method))
		return
	}
	h, ok := c.h.Notifications[method]
	if method == protocol.MethodCancelRequest {
		h, ok = Notification(c.cancelRequest), true
	}
	if !ok {
		c.log.Debug("notification ignored", methodField(method))
		return
	}
	start := time.Now()
	err := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				c.log.Error("notification handler panicked", methodField(method), zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
				err = fmt.Errorf("internal error in %s: %v", method, v)
			}
		}()
		return h(ctx, n.Params())
	}()
	if err != nil {
		c.log.Warn("notification failed", append([]zap.Field{methodField(method), zap.Duration("took", time.Since(start))}, errorFields(err)...)...)
		return
	}
	c.log.Debug("notification done", methodField(method), zap.Duration("took", time.Since(start)))
}
