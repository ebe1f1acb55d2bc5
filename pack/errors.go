package pack

import "github.com/acode-lsp/acode-lsp/internal/errcode"

// Error is a domain failure of a pack (-32803 with data.code at the RPC
// boundary): the one error type of [errcode], under the name callers of
// this package know. Code is one of the codes of errcode; the error wraps
// it, so errors.Is(err, errcode.NoContent) holds.
type Error = errcode.Error

// ParamError is an invalid request parameter (-32602 naming the field at
// the RPC boundary): the one parameter error of [errcode].
type ParamError = errcode.ParamError
