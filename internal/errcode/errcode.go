// Package errcode is the one table of the ACODE-* domain error codes
// (docs/design.md#errors) and the one place where an error of the pipeline
// is sorted into the form a front end answers with: a parameter error
// naming the field (JSON-RPC -32602), a domain failure with its code and
// data (JSON-RPC -32803 with data.code), or neither.
//
// The domain packages fail with its one error type, [Error] (a code, a
// message, data), and [ParamError] (a field and a message), which pack and
// conversation name as aliases (error.go). A Code is also a sentinel error
// that an Error wraps, so errors.Is(err, errcode.NoContent) holds for any
// error carrying ACODE-CTX-004. Adding a code is one constant below plus
// `go generate ./config` (the editors' tables and docs/configuration.md). The
// table is a leaf package because the domain packages need the codes too
// (the command line prints them and the pack log records them) and must not
// import a front end.
package errcode

import "errors"

// Code is an ACODE-* domain error code.
type Code string

// The codes of docs/design.md#errors.
const (
	PackFailed    Code = "ACODE-CTX-001" // packing failed (a request limit, formatting, anything unexpected)
	TokenCount    Code = "ACODE-CTX-002" // a text could not be counted (a source that was not read)
	Budget        Code = "ACODE-CTX-003" // no budget available / budget exceeded
	NoContent     Code = "ACODE-CTX-004" // nothing to pack
	InvalidConfig Code = "ACODE-CFG-001" // invalid configuration
)

// Error implements the error interface, so that a Code is a sentinel.
func (c Code) Error() string { return string(c) }

// Failure is implemented by domain failures: their code, message and the
// data sent beside the code (nil for none).
type Failure interface {
	error
	Failure() (code Code, message string, data map[string]any)
}

// Param is implemented by invalid-parameter errors: the JSON path of the
// field ("sources[2].range", "ratios.memory") and what is wrong with it.
type Param interface {
	error
	Param() (field, message string)
}

// Kind is how a front end answers an error.
type Kind int

// The kinds of [Classify].
const (
	Other         Kind = iota // not a domain error
	InvalidParams             // -32602 naming Field
	RequestFailed             // -32803 with data.code = Code
)

// Class is the boundary form of an error.
type Class struct {
	Kind    Kind
	Field   string         // InvalidParams
	Code    Code           // RequestFailed
	Message string         // InvalidParams, RequestFailed
	Data    map[string]any // RequestFailed; may hold "code" already
}

// Classify sorts err: a parameter error anywhere in the chain first, then
// a domain failure; Other for anything else.
func Classify(err error) Class {
	var p Param
	if errors.As(err, &p) {
		f, m := p.Param()
		return Class{Kind: InvalidParams, Field: f, Message: m}
	}
	var d Failure
	if errors.As(err, &d) {
		c, m, data := d.Failure()
		return Class{Kind: RequestFailed, Code: c, Message: m, Data: data}
	}
	return Class{}
}
