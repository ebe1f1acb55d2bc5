package errcode

import "fmt"

// Error is the one domain failure of acode-lsp: a [Code] of the table, the
// message a person reads and the data sent beside the code (JSON-RPC -32803
// with data.code at the RPC boundary, exit 1 or 3 on the command line).
// It wraps its code, so errors.Is(err, NoContent) holds. The packages that
// fail with it name it under their own name (pack.Error and
// conversation.Error are aliases of this type), so a new code never needs a
// new error type: it is one constant in errcode.go.
type Error struct {
	Code    Code
	Message string
	// Data is the JSON-RPC error data object (nil for none). The
	// conversation requests put "code" in it too, with the values the
	// code's contract names (currentTokens, maxTokens).
	Data map[string]any
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error implements the error interface: "ACODE-CTX-004: no content to
// pack", the text an MCP tool error starts with too.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap returns the code, a sentinel error.
func (e *Error) Unwrap() error { return e.Code }

// Failure implements [Failure].
func (e *Error) Failure() (Code, string, map[string]any) { return e.Code, e.Message, e.Data }

// ParamError is the one invalid-parameter error (JSON-RPC -32602 naming
// the field, exit 2 on the command line). Field is the JSON path of the
// parameter ("sources[2].range", "ratios.memory", "messages[3].role");
// the command line names the flag the user typed instead. pack.ParamError
// and conversation.ParamError are aliases of this type.
type ParamError struct {
	Field   string
	Message string
}

// Paramf returns a *ParamError for field with a formatted message.
func Paramf(field, format string, args ...any) *ParamError {
	return &ParamError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Error implements the error interface: "invalid params: field: message",
// the text an MCP tool error starts with too.
func (e *ParamError) Error() string {
	if e.Field == "" {
		return "invalid params: " + e.Message
	}
	return "invalid params: " + e.Field + ": " + e.Message
}

// Param implements [Param].
func (e *ParamError) Param() (field, message string) { return e.Field, e.Message }
