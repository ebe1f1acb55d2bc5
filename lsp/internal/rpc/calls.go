package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/collector"
)

// cancelParams is the params of $/cancelRequest, with the id kept raw.
//
// Defect: go.lsp.dev/protocol decodes CancelParams.ID into an interface{},
// where a numeric id becomes a float64, then matches it against int32 or
// string ids only, so a numeric id never cancels anything. The id is
// decoded here from its JSON text instead (see rawIDKey).
type cancelParams struct {
	ID json.RawMessage `json:"id"`
}

// cancelRequest handles $/cancelRequest: the request is cancelled and
// answered -32800 at once; its handler sees its context cancelled. An id
// that is not in flight (finished, or never sent) is ignored.
func (c *Conn) cancelRequest(_ context.Context, p *cancelParams) error {
	key, ok := rawIDKey(p.ID)
	if !ok {
		return &FieldError{Field: "id", Msg: "must be an integer or a string"}
	}
	if c.calls.cancel(key) {
		c.log.Debug("request cancelled", zap.Stringer("id", key))
	} else {
		c.log.Debug("cancel for a request not in flight", zap.Stringer("id", key))
	}
	return nil
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
	p.finish(nil, errCancelled())
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
