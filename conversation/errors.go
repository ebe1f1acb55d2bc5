package conversation

import (
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Error is a domain failure for the RPC layer, answered as JSON-RPC -32803
// (RequestFailed): the one error type of [errcode], under the name callers
// of this package know. Code is [errcode.Budget] when a conversation cannot
// be made to fit its budget; the error wraps it, so errors.Is(err,
// errcode.Budget) holds. Data is the complete JSON-RPC error data object: it
// always holds "code" (equal to Code) and, for [errcode.Budget],
// "currentTokens" and "maxTokens".
type Error = errcode.Error

// ParamError reports an invalid request parameter, answered as JSON-RPC
// -32602: the one parameter error of [errcode]. Field names the offending
// parameter with its JSON path ("maxTokens", "ratios.memory",
// "messages[3].role").
type ParamError = errcode.ParamError

func paramErrorf(field, format string, args ...any) *ParamError {
	return errcode.Paramf(field, format, args...)
}

// Counter counts the tokens of a text with the model's tokenizer. The
// server and the CLI pass a cached tokenizer from budget/tokenizer; tests
// pass a fake.
type Counter interface {
	Count(text string) int
}
