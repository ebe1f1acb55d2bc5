package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/session"
)

// noteReserve is what the continuation note after a page may take, in
// tokens: a maxTokens capped by --max-result-tokens leaves it this room.
const noteReserve = 60

// fitInput is the input of fit_tool_result.
type fitInput struct {
	Tool      string         `json:"tool,omitempty"`
	Content   *string        `json:"content,omitempty"`
	Path      string         `json:"path,omitempty"`
	MaxTokens *config.Tokens `json:"maxTokens,omitempty"`
	Cursor    string         `json:"cursor,omitempty"`
	Mode      string         `json:"mode,omitempty"`
	Model     string         `json:"model,omitempty"`
}

func (s *Server) addFitToolResult() {
	addTool(s, &sdk.Tool{
		Name:        "fit_tool_result",
		Description: "Page a large tool output or workspace file (whole lines, matches, hunks) to fit maxTokens; pass the cursor for the next page.",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"tool":      {Type: "string", Description: "project_files, search_content, read_file, vcs_diff, vcs_log, …"},
			"content":   {Type: "string", Description: "The output (or give path)."},
			"path":      {Type: "string", Description: "A workspace file to page."},
			"maxTokens": {Types: []string{"integer", "string"}, Minimum: ptr(1.0), Description: "Default 8000."},
			"cursor":    {Type: "string"},
			"mode":      {Type: "string", Enum: []any{"page", "history"}},
			"model":     {Type: "string"},
		}},
	}, s.fitToolResult)
}

// fitToolResult is acode/fitToolResult through the core
// (session.Session.Fit: defaults, redaction, a file read by path). The
// result is text only: the page, then the continuation note. A maxTokens
// above what --max-result-tokens leaves is lowered to it, so a larger page
// is paged.
func (s *Server) fitToolResult(ctx context.Context, c *call, in *fitInput) (*sdk.CallToolResult, error) {
	req, capped, err := s.fitRequest(in)
	if err != nil {
		return nil, err
	}
	tok, err := c.sess.Tokenizer("", "", "") // what addTool's cap counts with
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		res, err := c.sess.Fit(ctx, req)
		if err != nil {
			return nil, err
		}
		text := fitText(res, capped, req.MaxTokens)
		over := tok.Count(text) - s.opts.MaxResultTokens
		if over <= 0 || attempt == 3 || req.MaxTokens <= over {
			return textResult(text), nil
		}
		// A long cursor made the note larger than its reserve: page less.
		req.MaxTokens, capped = max(1, req.MaxTokens-2*over-4), true
	}
}

// fitRequest converts the arguments to the core's request: content or a
// path (both only in history mode), maxTokens lowered to what
// --max-result-tokens leaves after the note (capped says so).
func (s *Server) fitRequest(in *fitInput) (req session.FitRequest, capped bool, err error) {
	switch {
	case in.Content != nil && in.Path != "" && in.Mode != conversation.ModeHistory:
		return req, false, invalidParams("path", "give content or path, not both")
	case in.Content == nil && in.Path == "":
		return req, false, invalidParams("content", "required (or path: a workspace file to page)")
	}
	req = session.FitRequest{FitRequest: conversation.FitRequest{Tool: in.Tool, Cursor: in.Cursor, Mode: in.Mode, Path: in.Path, Model: in.Model}}
	if in.Content != nil {
		req.Content = *in.Content
	} else {
		req.ReadPath = true
	}
	if in.MaxTokens != nil {
		if *in.MaxTokens <= 0 {
			return req, false, invalidParams("maxTokens", fmt.Sprintf("must be a positive number of tokens, not %d", *in.MaxTokens))
		}
		req.MaxTokens = int(*in.MaxTokens)
	}
	want := req.MaxTokens
	if want == 0 {
		want = conversation.DefaultToolTokens
	}
	if limit := max(1, s.opts.MaxResultTokens-noteReserve); want > limit {
		req.MaxTokens, capped = limit, true
	}
	return req, capped, nil
}

// fitText is fit_tool_result's text: the page, then the note in brackets.
func fitText(res *conversation.FitResult, capped bool, limit int) string {
	var notes []string
	if res.Note != "" {
		notes = append(notes, res.Note)
	} else if res.Continuation != nil {
		notes = append(notes, fmt.Sprintf("Call again with cursor %q for the next page.", *res.Continuation))
	}
	if capped {
		notes = append(notes, fmt.Sprintf("maxTokens capped to %d by --max-result-tokens.", limit))
	}
	text := res.Content
	if len(notes) > 0 {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "\n[" + strings.Join(notes, " ") + "]"
	}
	return text
}
