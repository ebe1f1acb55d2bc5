package mcp

import (
	"context"
	"fmt"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"path/filepath"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// countInput is the input of count_tokens.
type countInput struct {
	Text     *string `json:"text,omitempty"`
	Path     string  `json:"path,omitempty"`
	Model    string  `json:"model,omitempty"`
	Encoding string  `json:"encoding,omitempty"`
}

// countOutput is the result of count_tokens (acode/countTokens).
type countOutput struct {
	Tokens   int                 `json:"tokens"`
	Encoding string              `json:"encoding"`
	Exact    bool                `json:"exact"`
	Estimate *tokenizer.Estimate `json:"estimate,omitempty"`
}

func (s *Server) addCountTokens() {
	addTool(s, &sdk.Tool{
		Name:        "count_tokens",
		Description: "Exact token count of a text or a workspace file for a model.",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"text":     {Type: "string"},
			"path":     {Type: "string", Description: "File under the root (instead of text)."},
			"model":    {Type: "string"},
			"encoding": encodingSchema(),
		}},
	}, s.countTokens)
}

// countTokens counts a text, or a file read through every rule of the
// collector (confinement to the roots, ignores, secrets, size, binary,
// redaction), like acode/countTokens.
func (s *Server) countTokens(ctx context.Context, c *call, in countInput) (*sdk.CallToolResult, *countOutput, error) {
	switch {
	case in.Text != nil && in.Path != "":
		return nil, nil, invalidParams("path", "give text or path, not both")
	case in.Text == nil && in.Path == "":
		return nil, nil, invalidParams("text", "required (or path)")
	}
	tok, err := c.tokenizerFor(in.Model, in.Encoding, "model")
	if err != nil {
		return nil, nil, err
	}
	text := ""
	if in.Text != nil {
		text = *in.Text
	} else if text, err = c.readFile(ctx, in.Path, errcode.TokenCount); err != nil {
		return nil, nil, err
	}
	return nil, &countOutput{Tokens: tok.Count(text), Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok)}, nil
}

// readFile reads a file of the workspace (a path relative to the first root,
// or absolute) through the collector. A refused file is an error with code
// and the exclusion reason, as the language server's readSource reports it.
func (c *call) readFile(ctx context.Context, path string, code errcode.Code) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.env.roots[0], filepath.FromSlash(path))
	}
	ws := c.env.ws
	if ws == nil {
		return "", domainError(code, fmt.Sprintf("%s is outside the workspace (the server has no usable workspace root)", collector.EscapePath(path)),
			map[string]any{"reason": string(collector.ReasonOutside)})
	}
	src, exc := ws.Read(ctx, collector.Reference, path)
	if exc != nil {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if exc.Reason == collector.ReasonEmpty {
			return "", nil
		}
		msg := fmt.Sprintf("%s was not read: %s", collector.EscapePath(exc.Path), exc.Reason)
		if exc.Detail != "" {
			msg += " (" + exc.Detail + ")"
		}
		return "", domainError(code, msg, map[string]any{"reason": string(exc.Reason)})
	}
	return src.Content, nil
}
