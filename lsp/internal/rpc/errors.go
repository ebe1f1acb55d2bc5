package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// Code is a JSON-RPC error code.
type Code int32

// The error codes of JSON-RPC 2.0 and of the LSP specification that the
// server sends.
const (
	ParseError           Code = -32700
	InvalidRequest       Code = -32600
	MethodNotFound       Code = -32601
	InvalidParams        Code = -32602
	InternalError        Code = -32603
	ServerNotInitialized Code = -32002
	RequestCancelled     Code = -32800
	RequestFailed        Code = -32803
)

// Error is a JSON-RPC error, sent to the client as it is. Handlers return
// it (or any error: see [Options].MapError for how the others are sent).
type Error struct {
	Code    Code            `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error: it returns the message.
func (e *Error) Error() string { return e.Message }

// NewError returns an error with code and message.
func NewError(code Code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// NewInvalidParams is a -32602 error whose message names the field
// ("invalid params: field: message").
func NewInvalidParams(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return NewError(InvalidParams, "invalid params: "+msg)
}

// NewRequestFailed is a -32803 error with data {"code": code, ...data}; the
// codes are the ACODE-* codes of internal/errcode.
func NewRequestFailed[C ~string](code C, msg string, data map[string]any) *Error {
	d := make(map[string]any, len(data)+1)
	for k, v := range data {
		d[k] = v
	}
	d["code"] = string(code)
	e := NewError(RequestFailed, msg)
	if raw, err := json.Marshal(d); err == nil {
		e.Data = raw
	}
	return e
}

// errCancelled answers a request that was cancelled.
func errCancelled() *Error {
	return NewError(RequestCancelled, "request cancelled")
}

// toError turns an error from a handler into the JSON-RPC error sent to the
// client: an *Error anywhere in the chain is sent as it is; a cancelled
// context (in the chain, or ctx itself) is -32800; mapErr, when not nil,
// converts the errors it knows; anything else is -32603 with the error's
// message.
func toError(ctx context.Context, err error, mapErr func(error) *Error) *Error {
	if err == nil {
		return nil
	}
	var rpc *Error
	if errors.As(err, &rpc) {
		return rpc
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return errCancelled()
	}
	if mapErr != nil {
		if e := mapErr(err); e != nil {
			return e
		}
	}
	return NewError(InternalError, err.Error())
}

// wire is e in the form jsonrpc2 sends.
//
// Defect: jsonrpc2 keeps the code of an error only when it is a
// *jsonrpc2.Error at the top of the chain (errors wrapped with %w become
// code 0 with the outer message), so every error is converted explicitly
// (toError) before it reaches the library.
func (e *Error) wire() *jsonrpc2.Error {
	w := jsonrpc2.NewError(jsonrpc2.Code(e.Code), e.Message)
	if e.Data != nil {
		data := append(json.RawMessage(nil), e.Data...)
		w.Data = &data
	}
	return w
}
