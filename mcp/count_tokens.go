package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/session"
)

// countInput is the input of count_tokens.
type countInput struct {
	Text     *string `json:"text,omitempty"`
	Path     string  `json:"path,omitempty"`
	Model    string  `json:"model,omitempty"`
	Encoding string  `json:"encoding,omitempty"`
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
// collector (session.Session.Count), like acode/countTokens; the result is
// structured and the same JSON as text.
func (s *Server) countTokens(ctx context.Context, c *call, in *countInput) (*sdk.CallToolResult, error) {
	res, err := c.sess.Count(ctx, session.CountRequest{Text: in.Text, Path: in.Path, Model: in.Model, Encoding: in.Encoding})
	if err != nil {
		return nil, err
	}
	return jsonResult(res)
}
