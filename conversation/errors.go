package conversation

import (
	"fmt"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Error is a domain failure for the RPC layer, answered as JSON-RPC -32803
// (RequestFailed). Code is [errcode.Budget] when a conversation cannot be
// made to fit its budget; the error wraps it, so errors.Is(err,
// errcode.Budget) holds. Data is the complete JSON-RPC error data object: it
// always holds "code" (equal to Code) and, for [errcode.Budget],
// "currentTokens" and "maxTokens".
type Error struct {
	Code    errcode.Code
	Message string
	Data    map[string]any
}

// Unwrap returns the code, a sentinel error.
func (e *Error) Unwrap() error { return e.Code }

// Failure implements [errcode.Failure].
func (e *Error) Failure() (errcode.Code, string, map[string]any) { return e.Code, e.Message, e.Data }

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("conversation: %s: %s", e.Code, e.Message)
}

// ParamError reports an invalid request parameter, answered as JSON-RPC
// -32602. Field names the offending parameter with its JSON path
// ("maxTokens", "ratios.memory", "messages[3].role").
type ParamError struct {
	Field   string
	Message string
}

// Error implements the error interface.
func (e *ParamError) Error() string {
	return fmt.Sprintf("conversation: invalid params: %s: %s", e.Field, e.Message)
}

// Param implements [errcode.Param].
func (e *ParamError) Param() (field, message string) { return e.Field, e.Message }

func paramErrorf(field, format string, args ...any) *ParamError {
	return &ParamError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Counter counts the tokens of a text with the model's tokenizer. The
// server and the CLI pass a cached tokenizer from budget/tokenizer; tests
// pass a fake.
type Counter interface {
	Count(text string) int
}
