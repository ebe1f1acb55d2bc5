package main

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
)

// TestExitCode: the exit code comes from the error table, whatever
// package's error carries the class.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, 0},
		{"pack param", &pack.ParamError{Field: "encoding", Message: "unknown"}, exitUsage},
		{"pack no content", &pack.Error{Code: errcode.NoContent, Message: "nothing"}, exitFailed},
		{"pack budget", &pack.Error{Code: errcode.Budget, Message: "no budget"}, exitNoFit},
		{"conversation cannot fit", &conversation.Error{Code: errcode.Budget, Message: "cannot fit"}, exitNoFit},
		{"config", &config.Error{File: "x.yml"}, exitFailed},
		{"wrapped budget", fmt.Errorf("trim: %w", &pack.Error{Code: errcode.Budget, Message: "x"}), exitNoFit},
		{"cancelled", fmt.Errorf("pack: %w", context.Canceled), exitCancelled},
		{"other", errors.New("disk on fire"), exitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}
