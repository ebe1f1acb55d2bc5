package session

import (
	"context"

	"github.com/acode-lsp/acode-lsp/pack"
)

// Pack packs req with the session's engine; open lists the documents open
// in an editor (none for the command line and MCP).
func (s *Session) Pack(ctx context.Context, req pack.Request, open []pack.OpenDoc, progress func(string, int)) (*pack.Result, error) {
	return s.engine.Pack(ctx, req, open, progress)
}

// Preview runs the stages of [Session.Pack] without the text
// (acode/previewContext).
func (s *Session) Preview(ctx context.Context, req pack.Request, open []pack.OpenDoc) (*pack.Preview, error) {
	return s.engine.Preview(ctx, req, open)
}

// WorkspaceRequest is the request of a pack of the whole workspace as the
// command line's `pack ROOT` and MCP's pack_context without paths make it:
// every root walked as open_file sources.
func (s *Session) WorkspaceRequest(query string) pack.Request {
	return pack.Request{Query: query, Paths: s.Roots()}
}
