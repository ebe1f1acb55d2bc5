package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/collector"
)

// readSource returns the text of a document by URI for a request: an open
// document without a file (untitled:) as the editor has it, anything else
// through the collector, which reads the open document in preference to
// the disk and applies every filter of DESIGN rule 9 (workspace
// confinement, ignores, secrets, size, binary, redaction). A refused file
// is a -32803 error with data.code set to code and data.reason to the
// exclusion reason.
func (s *Server) readSource(ctx context.Context, u protocol.DocumentURI, code string) (string, error) {
	path, err := uriToPath(u)
	if err != nil {
		if doc, ok := s.docs.get(u); ok {
			return doc.Text, nil
		}
		return "", invalidParams("uri", "%v", err)
	}
	ws := s.conf.env().workspace
	if ws == nil {
		return "", requestFailed(code, fmt.Sprintf("%s is outside the workspace (the server has no workspace root)", path),
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
		return "", requestFailed(code, msg, map[string]any{"reason": string(exc.Reason), "path": exc.Path})
	}
	return src.Content, nil
}
