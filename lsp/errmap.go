package lsp

import (
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/pack"
)

// domainError maps the errors of the pipeline packages to their JSON-RPC
// form: parameter errors to -32602 naming the field, domain failures to
// -32803 with data.code (docs/design.md#errors). It returns nil for any other
// error.
func domainError(err error) *jsonrpc2.Error {
	var (
		packParam *pack.ParamError
		packErr   *pack.Error
		convParam *conversation.ParamError
		convErr   *conversation.Error
		cfgErr    *config.Error
	)
	switch {
	case errors.As(err, &packParam):
		return invalidParams(packParam.Field, "%s", packParam.Message)
	case errors.As(err, &convParam):
		return invalidParams(convParam.Field, "%s", convParam.Message)
	case errors.As(err, &packErr):
		return requestFailed(packErr.Code, packErr.Message, packErr.Data)
	case errors.As(err, &convErr):
		return requestFailed(convErr.Code, convErr.Message, convErr.Data)
	case errors.As(err, &cfgErr):
		return requestFailed(CodeInvalidConfig, cfgErr.Error(), nil)
	}
	return nil
}
