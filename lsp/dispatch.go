package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
	"github.com/acode-lsp/acode-lsp/pack"
)

// requestFunc handles a request; its result is encoded as the response.
type requestFunc func(ctx context.Context, params json.RawMessage) (any, error)

// notifyFunc handles a notification. It runs on the read loop, so it must
// be quick: notifications are applied in the order they arrive, before any
// later message is read.
type notifyFunc func(ctx context.Context, params json.RawMessage) error

// request adapts a typed handler to a requestFunc: it decodes the params
// (a -32602 error names the field that does not decode) and calls fn.
func request[P, R any](fn func(context.Context, *P) (R, error)) requestFunc {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		p := new(P)
		if err := rpc.DecodeParams(raw, p); err != nil {
			return nil, err
		}
		return fn(ctx, p)
	}
}

// notification adapts a typed notification handler to a notifyFunc.
func notification[P any](fn func(context.Context, *P) error) notifyFunc {
	return func(ctx context.Context, raw json.RawMessage) error {
		p := new(P)
		if err := rpc.DecodeParams(raw, p); err != nil {
			return err
		}
		return fn(ctx, p)
	}
}

// lifecycle is where the server is between initialize and exit.
type lifecycle int

const (
	stateNew         lifecycle = iota // before initialize: requests are refused
	stateInitialized                  // after initialize
	stateShutdown                     // after shutdown: only exit is accepted
)

// handle is the jsonrpc2.Handler of the connection. jsonrpc2 calls it on
// its read loop, one message at a time.
//
// Defect: protocol.ServerHandler ignores its fallback handler and sends
// every method it does not know (all acode/*) to Server.Request, and an
// embedded nil protocol.Server panics on any unimplemented method; so the
// server routes every method itself, from its own tables, and never goes
// through protocol.ServerHandler.
//
// Defect: an error returned by a handler makes jsonrpc2 close the whole
// connection; handle answers or logs every failure and always returns nil.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req := req.(type) {
	case *jsonrpc2.Call:
		s.handleCall(ctx, reply, req)
	case *jsonrpc2.Notification:
		s.handleNotification(ctx, req)
	}
	return nil
}

// handleCall answers a request. initialize and shutdown run on the read
// loop so that the state they set holds for every later message; every
// other request runs in its own goroutine and replies from there.
//
// Defect: jsonrpc2.AsyncHandler still serialises requests until each one
// replies, so a slow acode/packContext would block every request behind
// it; it is not used.
func (s *Server) handleCall(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) {
	method := call.Method()
	start := time.Now()
	// The reply must not be written with the request's context: once the
	// request is cancelled that context would refuse the write.
	replyCtx := context.WithoutCancel(ctx)
	send := func(result any, err error) {
		rerr := rpc.ToError(ctx, err, domainError)
		if rerr != nil {
			result = nil
			s.log.Debug("request failed", append([]zap.Field{methodField(method), zap.Stringer("id", idString(call.ID())),
				zap.Int32("code", int32(rerr.Code))}, errorFields(rerr)...)...)
		} else {
			s.log.Debug("request done", methodField(method), zap.Stringer("id", idString(call.ID())), zap.Duration("took", time.Since(start)))
		}
		var e error
		if rerr != nil {
			e = rerr.Wire()
		}
		if werr := reply(replyCtx, result, e); werr != nil {
			s.log.Warn("write response", methodField(method), zap.Error(werr))
		}
	}

	state := s.lifecycle()
	switch {
	case method == protocol.MethodInitialize:
		if state != stateNew {
			send(nil, rpc.NewError(rpc.InvalidRequest, "invalid request: initialize was already received"))
			return
		}
		send(s.safeRequest(ctx, method, request(s.initialize), call.Params()))
		return
	case state == stateNew:
		send(nil, rpc.NewError(rpc.ServerNotInitialized, fmt.Sprintf("server not initialized: %s before initialize", method)))
		return
	case state == stateShutdown:
		send(nil, rpc.NewError(rpc.InvalidRequest, fmt.Sprintf("invalid request: %s after shutdown", method)))
		return
	case method == protocol.MethodShutdown:
		send(s.safeRequest(ctx, method, s.shutdown, call.Params()))
		return
	}

	h, ok := s.requests[method]
	if !ok {
		send(nil, rpc.NewError(rpc.MethodNotFound, fmt.Sprintf("method not found: %s", method)))
		return
	}
	hctx, cancel := context.WithCancel(s.ctx)
	// The pipeline logs with the request id on every line.
	hctx = pack.WithLogger(hctx, s.log.With(zap.Stringer("id", idString(call.ID())), methodField(method)))
	p := &pendingCall{method: method, cancel: cancel, send: send}
	key := idString(call.ID())
	s.calls.add(key, p)
	started := s.spawn(func() {
		defer cancel()
		defer s.calls.remove(key, p)
		result, err := s.safeRequest(hctx, method, h, call.Params())
		if err == nil && hctx.Err() != nil {
			err = hctx.Err()
		}
		p.finish(result, err)
	})
	if !started {
		cancel()
		s.calls.remove(key, p)
		p.finish(nil, rpc.NewError(rpc.RequestCancelled, "request cancelled"))
	}
}

// safeRequest runs h and turns a panic into an internal error, so one bad
// request never takes the server down.
func (s *Server) safeRequest(ctx context.Context, method string, h requestFunc, params json.RawMessage) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("handler panicked", methodField(method), zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
			result, err = nil, rpc.NewError(rpc.InternalError, fmt.Sprintf("internal error in %s: %v", method, v))
		}
	}()
	return h(ctx, params)
}

// handleNotification applies a notification on the read loop.
//
// Defect: jsonrpc2 drops errors returned for notifications silently (there
// is no one to answer); they are logged here, and the user is told when it
// matters (see showError).
func (s *Server) handleNotification(ctx context.Context, n *jsonrpc2.Notification) {
	method := n.Method()
	if method == protocol.MethodExit {
		s.exit()
		return
	}
	switch s.lifecycle() {
	case stateNew:
		s.log.Debug("notification before initialize dropped", methodField(method))
		return
	case stateShutdown:
		s.log.Debug("notification after shutdown dropped", methodField(method))
		return
	}
	h, ok := s.notifications[method]
	if !ok {
		s.log.Debug("notification ignored", methodField(method))
		return
	}
	start := time.Now()
	err := func() (err error) {
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("notification handler panicked", methodField(method), zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
				err = fmt.Errorf("internal error in %s: %v", method, v)
			}
		}()
		return h(ctx, n.Params())
	}()
	if err != nil {
		s.log.Warn("notification failed", append([]zap.Field{methodField(method), zap.Duration("took", time.Since(start))}, errorFields(err)...)...)
		return
	}
	s.log.Debug("notification done", methodField(method), zap.Duration("took", time.Since(start)))
}

// pendingCall is a request being handled in its own goroutine.
type pendingCall struct {
	method string
	cancel context.CancelFunc
	once   sync.Once
	send   func(any, error)
}

// finish sends the response; only the first call has an effect, so a
// request cancelled by the client is answered -32800 at once and the late
// result of its handler is dropped.
func (p *pendingCall) finish(result any, err error) {
	p.once.Do(func() { p.send(result, err) })
}

// callTable holds the requests in flight by id, for $/cancelRequest.
type callTable struct {
	mu    sync.Mutex
	calls map[idKey]*pendingCall
}

// add records a request in flight.
func (t *callTable) add(key idKey, p *pendingCall) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls == nil {
		t.calls = make(map[idKey]*pendingCall)
	}
	t.calls[key] = p
}

// remove forgets a request that has finished, unless its id was reused.
func (t *callTable) remove(key idKey, p *pendingCall) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls[key] == p {
		delete(t.calls, key)
	}
}

// cancel cancels the request with the given key and answers it -32800;
// it reports whether such a request was in flight.
func (t *callTable) cancel(key idKey) bool {
	t.mu.Lock()
	p := t.calls[key]
	t.mu.Unlock()
	if p == nil {
		return false
	}
	p.cancel()
	p.finish(nil, rpc.NewError(rpc.RequestCancelled, "request cancelled"))
	return true
}

// cancelAll cancels every request in flight (at exit).
func (t *callTable) cancelAll() {
	t.mu.Lock()
	calls := make([]*pendingCall, 0, len(t.calls))
	for _, p := range t.calls {
		calls = append(calls, p)
	}
	t.mu.Unlock()
	for _, p := range calls {
		p.cancel()
	}
}

// idKey is the key of a request id in the call table: numbers and strings
// never collide ("#5" and "\"5\"").
type idKey string

// String implements fmt.Stringer, for log fields.
func (k idKey) String() string { return string(k) }

// idString returns the key of a jsonrpc2 request id.
func idString(id jsonrpc2.ID) idKey { return idKey(fmt.Sprintf("%q", id)) }

// rawIDKey returns the key of a request id as it appears in JSON, so that a
// number decoded as float64 and a string both find their request.
func rawIDKey(raw json.RawMessage) (idKey, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	switch v := v.(type) {
	case float64:
		if v != float64(int32(v)) {
			return "", false
		}
		return idKey("#" + strconv.Itoa(int(v))), true
	case string:
		return idKey(strconv.Quote(v)), true
	}
	return "", false
}

// methodField is the log field of a method name, escaped: it came from the
// client.
func methodField(method string) zap.Field {
	return zap.String("method", collector.EscapePath(method))
}
