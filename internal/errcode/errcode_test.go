package errcode_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
)

func TestClassify(t *testing.T) {
	cfgErr := &config.Error{Problems: []config.Problem{{Key: "context.budget.total_tokens", Value: "-1", Rule: "must be positive", Fix: "set it"}}}
	tests := []struct {
		name string
		err  error
		want errcode.Class
		is   error // a sentinel the error must match, or nil
	}{
		{"pack param", &pack.ParamError{Field: "sources[0].type", Message: "bad"}, errcode.Class{Kind: errcode.InvalidParams, Field: "sources[0].type", Message: "bad"}, nil},
		{"conversation param, wrapped", fmt.Errorf("x: %w", &conversation.ParamError{Field: "ratios.memory", Message: "bad"}), errcode.Class{Kind: errcode.InvalidParams, Field: "ratios.memory", Message: "bad"}, nil},
		{"pack failure", &pack.Error{Code: errcode.NoContent, Message: "nothing", Data: map[string]any{"excluded": 2}}, errcode.Class{Kind: errcode.RequestFailed, Code: errcode.NoContent, Message: "nothing", Data: map[string]any{"excluded": 2}}, errcode.NoContent},
		{"conversation failure, wrapped", fmt.Errorf("x: %w", &conversation.Error{Code: errcode.Budget, Message: "too big", Data: map[string]any{"code": "ACODE-CTX-003"}}), errcode.Class{Kind: errcode.RequestFailed, Code: errcode.Budget, Message: "too big", Data: map[string]any{"code": "ACODE-CTX-003"}}, errcode.Budget},
		{"config", cfgErr, errcode.Class{Kind: errcode.RequestFailed, Code: errcode.InvalidConfig, Message: cfgErr.Error()}, nil},
		{"other", errors.New("boom"), errcode.Class{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, errcode.Classify(tt.err)); diff != "" {
				t.Errorf("Classify (-want +got):\n%s", diff)
			}
			if tt.is != nil && !errors.Is(tt.err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", tt.err, tt.is)
			}
			if tt.is != nil && errors.Is(tt.err, errcode.PackFailed) {
				t.Errorf("errors.Is(%v, PackFailed) = true", tt.err)
			}
		})
	}
}

// TestCodes pins the wire strings of docs/design.md#errors.
func TestCodes(t *testing.T) {
	got := []errcode.Code{errcode.PackFailed, errcode.TokenCount, errcode.Budget, errcode.NoContent, errcode.InvalidConfig}
	want := []errcode.Code{"ACODE-CTX-001", "ACODE-CTX-002", "ACODE-CTX-003", "ACODE-CTX-004", "ACODE-CFG-001"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

// TestOneErrorType: the domain packages fail with the one type of errcode,
// so an error made by one package is found by errors.As with another's
// name, and its text is the same whatever package made it.
func TestOneErrorType(t *testing.T) {
	var err error = fmt.Errorf("trim: %w", &conversation.Error{Code: errcode.Budget, Message: "cannot fit"})
	var pe *pack.Error
	if !errors.As(err, &pe) || pe.Code != errcode.Budget {
		t.Fatalf("errors.As(conversation error, *pack.Error) = false or wrong code: %v", err)
	}
	var param error = &pack.ParamError{Field: "maxTokens", Message: "must be positive"}
	var cp *conversation.ParamError
	if !errors.As(param, &cp) {
		t.Fatalf("errors.As(pack param error, *conversation.ParamError) = false")
	}
	tests := []struct {
		err  error
		want string
	}{
		{errcode.Errorf(errcode.NoContent, "no content to pack: %d excluded", 3), "ACODE-CTX-004: no content to pack: 3 excluded"},
		{errcode.Paramf("sources[1].uri", "is %s", "relative"), "invalid params: sources[1].uri: is relative"},
		{&errcode.ParamError{Message: "give text or path"}, "invalid params: give text or path"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
