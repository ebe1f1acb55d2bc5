package session

import (
	"context"

	"github.com/acode-lsp/acode-lsp/collector"

	"github.com/acode-lsp/acode-lsp/pack"
)

// Pack packs req with the session's engine; open lists the documents open
// in an editor (none for the command line and MCP).
func (s *Session) Pack(ctx context.Context, req pack.Request, open []pack.OpenDoc, progress func(string, int)) (*pack.Result, error) {
	res, err := s.engine.Pack(ctx, req, open, progress)
	if err == nil {
		cleanDetails(res.Included)
		cleanDetails(res.Excluded)
	}
	return res, err
}

// cleanDetails redacts and escapes the detail of result entries as their
// paths are (a .gitignore pattern or a file name quoted in an exclusion's
// reason may hold a token or control characters): every door shows the
// same safe text.
func cleanDetails(entries []pack.Entry) {
	for i := range entries {
		if d := entries[i].Detail; d != "" {
			entries[i].Detail = collector.EscapePath(collector.DisplayPath(d))
		}
	}
}

// Preview runs the stages of [Session.Pack] without the text
// (acode/previewContext).
func (s *Session) Preview(ctx context.Context, req pack.Request, open []pack.OpenDoc) (*pack.Preview, error) {
	pv, err := s.engine.Preview(ctx, req, open)
	if err == nil {
		cleanDetails(pv.Included)
		cleanDetails(pv.Excluded)
	}
	return pv, err
}

// WorkspaceRequest is the request of a pack of the whole workspace as the
// command line's `pack ROOT` and MCP's pack_context without paths make it:
// every root walked as open_file sources.
func (s *Session) WorkspaceRequest(query string) pack.Request {
	return pack.Request{Query: query, Paths: s.Roots()}
}
