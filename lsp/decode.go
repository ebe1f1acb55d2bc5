package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// decodeParams decodes the params of a message into v. A params value of
// the wrong type becomes a -32602 error whose message names the field.
func decodeParams(raw json.RawMessage, v any) *jsonrpc2.Error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return invalidParams("params", "missing")
	}
	if raw[0] != '{' {
		return invalidParams("params", "must be an object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return decodeError(err)
	}
	return nil
}

// decodeError describes a JSON decoding error as a -32602 error.
func decodeError(err error) *jsonrpc2.Error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "params"
		}
		return invalidParams(field, "expected %s, got %s", jsonKind(te.Type.Kind().String()), te.Value)
	}
	var fe *fieldError
	if errors.As(err, &fe) {
		return invalidParams(fe.field, "%s", fe.msg)
	}
	return invalidParams("params", "%v", err)
}

// jsonKind names a Go kind the way a JSON user would.
func jsonKind(kind string) string {
	switch kind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return kind
}

// fieldError is a params value that decodes but is not acceptable.
type fieldError struct {
	field, msg string
}

// Error implements error.
func (e *fieldError) Error() string { return fmt.Sprintf("%s: %s", e.field, e.msg) }

// required returns a -32602 error naming field when ok is false.
func required(ok bool, field string) *jsonrpc2.Error {
	if ok {
		return nil
	}
	return invalidParams(field, "required")
}
