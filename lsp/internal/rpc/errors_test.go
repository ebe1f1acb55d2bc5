package rpc

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"go.uber.org/zap/zapcore"
)

func TestRPCErrorMapping(t *testing.T) {
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want Code
	}{
		{"context canceled", context.Background(), context.Canceled, -32800},
		{"wrapped cancel", context.Background(), fmt.Errorf("x: %w", context.Canceled), -32800},
		{"any error after cancel", cancelledCtx, errors.New("broken"), -32800},
		{"plain error", context.Background(), errors.New("broken"), InternalError},
		{"explicit", context.Background(), NewInvalidParams("f", "bad"), InvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toError(tt.ctx, tt.err, nil).Code; got != tt.want {
				t.Errorf("code = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestMapErrorAndWire checks that the mapper sees the errors that are not
// already JSON-RPC errors, and that an Error reaches jsonrpc2 with its
// code, message and data unchanged.
func TestMapErrorAndWire(t *testing.T) {
	domain := errors.New("no content")
	mapErr := func(err error) *Error {
		if errors.Is(err, domain) {
			return NewRequestFailed("ACODE-NO-CONTENT", "nothing to pack", map[string]any{"reason": "empty"})
		}
		return nil
	}
	got := toError(context.Background(), fmt.Errorf("pack: %w", domain), mapErr)
	w := got.wire()
	if w.Code != -32803 || w.Message != "nothing to pack" || w.Data == nil || string(*w.Data) != `{"code":"ACODE-NO-CONTENT","reason":"empty"}` {
		t.Errorf("wire = %d %q %s", w.Code, w.Message, *w.Data)
	}
	if got := toError(context.Background(), errors.New("other"), mapErr); got.Code != InternalError || got.Message != "other" {
		t.Errorf("unmapped error = %+v", got)
	}
	if w := NewError(InvalidRequest, "x").wire(); w.Data != nil {
		t.Errorf("an error without data got data %s", *w.Data)
	}
}

// TestFailureLevel: a failed request is logged at error level (seed 001
// NFR-016-57), a cancelled one, which the client asked for, at debug.
func TestFailureLevel(t *testing.T) {
	tests := []struct {
		err  *Error
		want zapcore.Level
	}{
		{NewError(InvalidParams, "invalid params: uri: bad"), zapcore.ErrorLevel},
		{NewError(InternalError, "boom"), zapcore.ErrorLevel},
		{NewError(ServerNotInitialized, "server not initialized"), zapcore.ErrorLevel},
		{errCancelled(), zapcore.DebugLevel},
	}
	for _, tt := range tests {
		if got := failureLevel(tt.err); got != tt.want {
			t.Errorf("failureLevel(%d %q) = %s, want %s", tt.err.Code, tt.err.Message, got, tt.want)
		}
	}
}
