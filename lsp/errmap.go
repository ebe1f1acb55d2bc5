package lsp

import (
	"go.lsp.dev/jsonrpc2"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// domainError maps the errors of the pipeline packages to their JSON-RPC
// form, as sorted by [errcode.Classify]: parameter errors to -32602 naming
// the field, domain failures to -32803 with data.code
// (docs/design.md#errors). It returns nil for any other error.
func domainError(err error) *jsonrpc2.Error {
	switch c := errcode.Classify(err); c.Kind {
	case errcode.InvalidParams:
		return invalidParams(c.Field, "%s", c.Message)
	case errcode.RequestFailed:
		return requestFailed(c.Code, c.Message, c.Data)
	}
	return nil
}
