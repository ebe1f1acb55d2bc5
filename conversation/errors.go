package conversation

import "fmt"

// CodeBudgetExceeded is the data.code of an [*Error] returned when a
// conversation cannot be made to fit its budget.
const CodeBudgetExceeded = "ACODE-CTX-003"

// Error is a domain failure for the RPC layer, answered as JSON-RPC -32803
// (RequestFailed). Data is the complete JSON-RPC error data object: it always
// holds "code" (equal to Code) and, for [CodeBudgetExceeded],
// "currentTokens" and "maxTokens".
type Error struct {
	Code    string
	Message string
	Data    map[string]any
}

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

func paramErrorf(field, format string, args ...any) *ParamError {
	return &ParamError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Counter counts the tokens of a text with the model's tokenizer. The
// server and the CLI pass a cached tokenizer from budget/tokenizer; tests
// pass a fake.
type Counter interface {
	Count(text string) int
}
