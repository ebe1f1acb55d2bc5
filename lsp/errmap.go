package lsp

import (
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// domainError maps the errors of the pipeline packages to their JSON-RPC
// form, as sorted by [errcode.Classify]: parameter errors to -32602 naming
// the field, domain failures to -32803 with data.code
// (docs/design.md#errors). It returns nil for any other error.
func domainError(err error) *rpc.Error {
	switch c := errcode.Classify(err); c.Kind {
	case errcode.InvalidParams:
		return rpc.NewInvalidParams(c.Field, "%s", c.Message)
	case errcode.RequestFailed:
		return rpc.NewRequestFailed(c.Code, c.Message, c.Data)
	}
	return nil
}
