package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/conversation"
)

func (s *Server) addTrimConversation() {
	nonNeg := func() *jsonschema.Schema { return &jsonschema.Schema{Type: "integer", Minimum: ptr(0.0)} }
	addTool(s, &sdk.Tool{
		Name:        "trim_conversation",
		Description: "Trim chat messages to fit maxContextTokens - reservedOutputTokens (old tool outputs first, tool calls kept whole).",
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"messages"}, Properties: map[string]*jsonschema.Schema{
			"messages": {Type: "array", Description: "The conversation, OpenAI chat messages.", Items: &jsonschema.Schema{
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
			"tokenizerFile":        {Type: "string", Description: "A tokenizer.json to count with."},
			"maxContextTokens":     {Type: "integer", Minimum: ptr(1.0), Description: "Default: the model's context window."},
			"reservedOutputTokens": nonNeg(),
			"preserveRecentTurns":  nonNeg(),
			"maxAge":               nonNeg(),
			"smallOutputThreshold": nonNeg(),
			"preserveErrors":       {Type: "boolean"},
		}},
	}, s.trimConversation)
}

// trimConversation is acode/trimConversation through the core
// (session.Session.Trim: the configured model, redaction). Its result is
// structured and the same JSON as text; both together must fit the
// server's max result tokens (checked by addTool).
func (s *Server) trimConversation(ctx context.Context, c *call, in *conversation.TrimRequest) (*sdk.CallToolResult, error) {
	res, err := c.sess.Trim(ctx, *in)
	if err != nil {
		return nil, err
	}
	return jsonResult(res)
}
