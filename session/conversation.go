package session

import (
	"context"
	"encoding/json"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// FitRequest is a fit of a tool's output: conversation.FitRequest, whose
// Content is the output unless ReadPath asks the session to read the file
// Path of the workspace (so an agent pages a file it has not loaded).
type FitRequest struct {
	conversation.FitRequest
	// ReadPath reads Path through the collector ([Session.ReadFile]) as
	// the content.
	ReadPath bool
}

// Fit pages a tool output (or summarises it, mode history) with the
// defaults of every door: maxTokens 8,000 when not given, counted with
// [Session.Tokenizer] of the request's model and tokenizerFile. The
// output is cleaned and redacted as a pack redacts a tool result
// (collector.NewContent) before it is paged, so no door returns a secret
// a pack would hide; a file read by path is redacted by the collector.
func (s *Session) Fit(ctx context.Context, req FitRequest) (*conversation.FitResult, error) {
	tok, err := s.Tokenizer(req.Model, "", req.TokenizerFile)
	if err != nil {
		return nil, err
	}
	r := req.FitRequest
	if req.ReadPath {
		text, err := s.ReadFile(ctx, r.Path, errcode.TokenCount)
		if err != nil {
			return nil, err
		}
		r.Content = text
		r.Path = s.RelPath(r.Path)
		if r.Tool == "" {
			r.Tool = "read_file"
		}
	} else {
		r.Content = collector.NewContent(collector.ToolResult, "", r.Content).Content
	}
	if r.Outline == nil {
		r.Outline = FileOutline
	}
	return conversation.FitToolResult(ctx, tok, r)
}

// Trim trims a conversation to fit, counted with [Session.Tokenizer] of
// the request's model and tokenizerFile (the configured tokenizer when it
// names neither). Every message's text — string content, text parts, tool
// call arguments — is redacted first as a pack redacts text it is given.
func (s *Session) Trim(ctx context.Context, req conversation.TrimRequest) (*conversation.TrimResult, error) {
	tok, err := s.Tokenizer(req.Model, "", req.TokenizerFile)
	if err != nil {
		return nil, err
	}
	if req.Model == "" && req.TokenizerFile == "" {
		req.Model = s.ModelName()
	}
	req.Messages = RedactMessages(req.Messages)
	return conversation.Trim(ctx, tok, req)
}

// ModelName is the configured model, or the encoding's name when the
// configuration names an encoding only.
func (s *Session) ModelName() string {
	tc := s.cfg.Context.Tokenizer
	if tc.Model != "" {
		return tc.Model
	}
	return tc.Encoding
}

// RedactMessages returns the messages with every secret in their text
// replaced as collector.Redact replaces it; messages without one are
// returned as they are (their JSON unchanged).
func RedactMessages(msgs []conversation.Message) []conversation.Message {
	out := make([]conversation.Message, len(msgs))
	for i, m := range msgs {
		c := m.Content
		switch {
		case c.IsParts():
			parts := append([]conversation.Part(nil), c.Parts()...)
			changed := false
			for j, p := range parts {
				if t, n := collector.Redact(p.Text); n > 0 {
					p.Text = t
					changed = true
				}
				if p.Raw != nil {
					if raw, ok := redactJSON(p.Raw); ok {
						p.Raw = raw
						changed = true
					}
				}
				parts[j] = p
			}
			if changed {
				m.Content = conversation.PartsContent(parts...)
			}
		case !c.IsNull():
			if t, n := collector.Redact(c.Text()); n > 0 {
				m.Content = conversation.TextContent(t)
			}
		}
		if len(m.ToolCalls) > 0 {
			calls := append([]conversation.ToolCall(nil), m.ToolCalls...)
			for j, tc := range calls {
				if a, ok := redactJSON(tc.Arguments); ok {
					tc.Arguments = a
				}
				if r, ok := redactJSON(tc.Raw); ok {
					tc.Raw = r
				}
				calls[j] = tc
			}
			m.ToolCalls = calls
		}
		out[i] = m
	}
	return out
}

// redactJSON redacts the text of a JSON value; ok is false when there was
// nothing to redact or the result would not be valid JSON.
func redactJSON(raw json.RawMessage) (json.RawMessage, bool) {
	if len(raw) == 0 {
		return raw, false
	}
	t, n := collector.Redact(string(raw))
	if n == 0 || !json.Valid([]byte(t)) {
		return raw, false
	}
	return json.RawMessage(t), true
}

// outlineOptions give one chunk per top-level declaration.
var outlineOptions = chunker.Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}

// FileOutline lists the top-level declarations of a file as "kind name"
// ("function Checkout", "type Cart"), in file order, for read_file history
// summaries. A file the chunker has no grammar for (or cannot parse) has
// none.
func FileOutline(ctx context.Context, path, content string) []string {
	if path == "" || chunker.Language(path) == "" {
		return nil
	}
	chunks, err := chunker.Split(ctx, path, []byte(content), func(string) int { return 0 }, outlineOptions)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range chunks {
		if c.TopLevel && c.Name != "" && c.Kind != "imports" && c.Kind != "package" {
			out = append(out, c.Kind+" "+c.Name)
		}
	}
	return out
}
