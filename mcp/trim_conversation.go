package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

func (s *Server) addTrimConversation() {
	nonNeg := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer", Minimum: ptr(0.0)} }
	addTool(s, &sdk.Tool{
		Name:        "trim_conversation",
		Description: "Trim chat messages to fit maxContextTokens - reservedOutputTokens (old tool outputs first, tool calls kept whole).",
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"messages"}, Properties: map[string]*jsonschema.Schema{
			"messages": {Type: "array", Items: &jsonschema.Schema{
				Type:     "object",
				Required: []string{"role"},
				Properties: map[string]*jsonschema.Schema{
					"role":         {Type: "string", Enum: []any{"system", "user", "assistant", "tool"}},
					"content":      {Types: []string{"string", "array", "null"}},
					"tool_calls":   {Type: "array"},
					"tool_call_id": {Type: "string"},
				},
			}},
			"model":                {Type: "string"},
			"maxContextTokens":     {Type: "integer", Minimum: ptr(1.0), Description: "Default: the model's context window."},
			"reservedOutputTokens": nonNeg(),
			"preserveRecentTurns":  nonNeg(),
			"maxAge":               nonNeg(),
			"smallOutputThreshold": nonNeg(),
			"preserveErrors":       {Type: "boolean"},
		}},
		OutputSchema: &jsonschema.Schema{Type: "object"},
	}, s.trimConversation)
}

// trimConversation is acode/trimConversation. Its result (the messages as
// JSON) must fit the server's max result tokens too: a larger one is an
// ACODE-CTX-003 error that says what to lower.
func (s *Server) trimConversation(ctx context.Context, c *call, in conversation.TrimRequest) (*sdk.CallToolResult, *conversation.TrimResult, error) {
	tok, err := c.tokenizerFor(in.Model, "", "model")
	if err != nil {
		return nil, nil, err
	}
	res, err := conversation.Trim(ctx, tok, in)
	if err != nil {
		return nil, nil, err
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, nil, err
	}
	if n := tok.Count(string(data)); n > s.opts.MaxResultTokens {
		return nil, nil, domainError(errcode.Budget, fmt.Sprintf("the trimmed conversation is %d tokens as JSON, over --max-result-tokens %d: lower maxContextTokens or raise --max-result-tokens", n, s.opts.MaxResultTokens),
			map[string]any{"currentTokens": n, "maxTokens": s.opts.MaxResultTokens})
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}}, res, nil
}
