package main

import (
	"context"
	"errors"
	"slices"

	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// Exit codes of the commands, from the error table (internal/errcode)
// rather than from Go types: what kind of failure it is decides, whatever
// package reported it.
const (
	exitFailed    = 1   // a domain failure (ACODE-CTX-001/002/004, ACODE-CFG-001) or an unclassified error
	exitUsage     = 2   // invalid parameters: a flag's value, a request field
	exitNoFit     = 3   // ACODE-CTX-003: the budget leaves no room, or the input cannot fit
	exitCancelled = 130 // interrupted (SIGINT/SIGTERM)
)

// exitCode returns the exit code of err (0 for nil).
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return exitCancelled
	}
	switch c := errcode.Classify(err); c.Kind {
	case errcode.InvalidParams:
		return exitUsage
	case errcode.RequestFailed:
		if c.Code == errcode.Budget {
			return exitNoFit
		}
	}
	return exitFailed
}

// flagErrOf words an invalid-params error of the core with the flag the
// user typed instead of the request field ("--tokenizer-file …" for
// tokenizerFile); pairs are field, flag. Other errors keep their text.
func flagErrOf(err error, pairs ...string) string {
	c := errcode.Classify(err)
	if c.Kind == errcode.InvalidParams {
		for i := 0; i+1 < len(pairs); i += 2 {
			if c.Field == pairs[i] {
				return pairs[i+1] + ": " + c.Message
			}
		}
		if c.Field != "" {
			return c.Field + ": " + c.Message
		}
		return c.Message
	}
	return packErrText(err)
}

// isFlagField reports whether err is invalid params of one of fields.
func isFlagField(err error, fields ...string) bool {
	c := errcode.Classify(err)
	return c.Kind == errcode.InvalidParams && slices.Contains(fields, c.Field)
}
