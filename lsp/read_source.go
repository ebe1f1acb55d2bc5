package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// readSource returns the text of a document by URI for a request: an open
// document without a file (untitled:) as the editor has it, anything else
// through the collector, which reads the open document in preference to
// the disk and applies every filter of docs/design.md#rule-9 (workspace
// confinement, ignores, secrets, size, binary, redaction). A refused file
// is a -32803 error with data.code set to code and data.reason to the
// exclusion reason.
func (s *Server) readSource(ctx context.Context, u protocol.DocumentURI, code errcode.Code) (string, error) {
	src, err := s.readSourceFull(ctx, u, code)
	return src.Content, err
}

// readSourceFull is readSource returning the whole source (its path and
// the number of values redacted).
func (s *Server) readSourceFull(ctx context.Context, u protocol.DocumentURI, code errcode.Code) (collector.Source, error) {
	path, err := uriToPath(u)
	if err != nil {
		if doc, ok := s.docs.get(u); ok {
			return collector.Source{Content: doc.Text}, nil
		}
		return collector.Source{}, rpc.NewInvalidParams("uri", "%v", err)
	}
	ws := s.conf.env().workspace
	if ws == nil {
		return collector.Source{}, rpc.NewRequestFailed(code, fmt.Sprintf("%s is outside the workspace (the server has no workspace root)", path),
			map[string]any{"reason": string(collector.ReasonOutside)})
	}
	src, exc := ws.Read(ctx, collector.Reference, path)
	if exc != nil {
		if err := ctx.Err(); err != nil {
			return collector.Source{}, err
		}
		if exc.Reason == collector.ReasonEmpty {
			return collector.Source{}, nil
		}
		msg := fmt.Sprintf("%s was not read: %s", collector.EscapePath(exc.Path), exc.Reason)
		if exc.Detail != "" {
			msg += " (" + exc.Detail + ")"
		}
		return collector.Source{}, rpc.NewRequestFailed(code, msg, map[string]any{"reason": string(exc.Reason), "path": exc.Path})
	}
	return src, nil
}
