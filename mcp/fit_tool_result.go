package mcp

import (
	"context"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/conversation"
)

func (s *Server) addFitToolResult() {
	addTool(s, &sdk.Tool{
		Name:        "fit_tool_result",
		Description: "Page a large tool output (whole lines, files, matches, hunks) to fit maxTokens; pass the returned cursor for the next page.",
		InputSchema: &jsonschema.Schema{Type: "object", Required: []string{"content", "maxTokens"}, Properties: map[string]*jsonschema.Schema{
			"tool":      {Type: "string", Description: "Kind: project_files, search_content, read_file, vcs_diff, vcs_log, …"},
			"content":   {Type: "string"},
			"maxTokens": {Type: "integer", Minimum: ptr(1.0)},
			"cursor":    {Type: "string"},
			"mode":      {Type: "string", Enum: []any{"page", "history"}, Description: "history: a summary for the work log."},
			"path":      {Type: "string"},
			"model":     {Type: "string"},
		}},
	}, s.fitToolResult)
}

// fitToolResult is acode/fitToolResult: the page is the text of the result;
// a maxTokens above the server's max result tokens is lowered to it, so a
// larger page is paged.
func (s *Server) fitToolResult(ctx context.Context, c *call, in conversation.FitRequest) (*sdk.CallToolResult, *fitOutput, error) {
	tok, err := c.tokenizerFor(in.Model, "", "model")
	if err != nil {
		return nil, nil, err
	}
	capped := in.MaxTokens > s.opts.MaxResultTokens
	if capped {
		in.MaxTokens = s.opts.MaxResultTokens
	}
	res, err := conversation.FitToolResult(ctx, tok, in)
	if err != nil {
		return nil, nil, err
	}
	if capped {
		note := fmt.Sprintf("maxTokens capped to %d, the server's --max-result-tokens.", s.opts.MaxResultTokens)
		if res.Note != "" {
			note = res.Note + " " + note
		}
		res.Note = note
	}
	out := &fitOutput{Tokens: res.Tokens, Returned: res.Returned, Total: res.Total, Continuation: res.Continuation, Note: res.Note}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: res.Content}}}, out, nil
}

// fitOutput is fit_tool_result's structured result: the acode/fitToolResult
// result without its content, which is the text of the tool result (so the
// page is sent once).
type fitOutput struct {
	Tokens       int     `json:"tokens"`
	Returned     int     `json:"returned"`
	Total        int     `json:"total"`
	Continuation *string `json:"continuation"`
	Note         string  `json:"note,omitempty"`
}
