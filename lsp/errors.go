package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// JSON-RPC error codes of the LSP specification that jsonrpc2 v0.10.0 does
// not define.
const (
	codeRequestFailed    jsonrpc2.Code = -32803
	codeRequestCancelled               = protocol.CodeRequestCancelled // -32800
)

// invalidParams is a -32602 error whose message names the field.
func invalidParams(field, format string, args ...any) *jsonrpc2.Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, "invalid params: "+msg)
}

// requestFailed is a -32803 error with data {"code": code, ...data}; the
// codes are those of internal/errcode.
func requestFailed(code errcode.Code, msg string, data map[string]any) *jsonrpc2.Error {
	d := make(map[string]any, len(data)+1)
	for k, v := range data {
		d[k] = v
	}
	d["code"] = string(code)
	e := jsonrpc2.NewError(codeRequestFailed, msg)
	if raw, err := json.Marshal(d); err == nil {
		rm := json.RawMessage(raw)
		e.Data = &rm
	}
	return e
}

// errCancelled answers a request that was cancelled.
func errCancelled() *jsonrpc2.Error {
	return jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
}

// rpcError turns an error from a handler into the JSON-RPC error sent to the
// client.
//
// Defect: jsonrpc2 keeps the code of an error only when it is a
// *jsonrpc2.Error at the top of the chain (errors wrapped with %w become
// code 0 with the outer message), so every error is converted explicitly
// here, before it reaches the library.
func rpcError(ctx context.Context, err error) *jsonrpc2.Error {
	if err == nil {
		return nil
	}
	var rpc *jsonrpc2.Error
	if errors.As(err, &rpc) {
		return rpc
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
		return errCancelled()
	}
	if e := domainError(err); e != nil {
		return e
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}
