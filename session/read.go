package session

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
)

// ReadFile reads a workspace file (absolute, or relative to the primary
// root) through every rule of the collector — confinement to the roots,
// ignores, secret files, size, binary, redaction — as a pack reads it. A
// file refused is a *pack.Error with code and the exclusion's reason in
// its data ("reason": "secret"); an empty file is "".
func (s *Session) ReadFile(ctx context.Context, path string, code errcode.Code) (string, error) {
	if !filepath.IsAbs(path) && len(s.roots) > 0 {
		path = filepath.Join(s.roots[0], filepath.FromSlash(path))
	}
	if s.ws == nil {
		return "", &pack.Error{Code: code, Message: fmt.Sprintf("%s is outside the workspace (there is no usable workspace root)", collector.EscapePath(path)),
			Data: map[string]any{"reason": string(collector.ReasonOutside)}}
	}
	src, exc := s.ws.Read(ctx, collector.Reference, path)
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
		return "", &pack.Error{Code: code, Message: msg, Data: map[string]any{"reason": string(exc.Reason)}}
	}
	return src.Content, nil
}

// RelPath returns path relative to the primary root when it is under it
// (slash-separated), else path itself: the name a result shows.
func (s *Session) RelPath(path string) string {
	if len(s.roots) == 0 || !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(s.roots[0], path)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == "../" {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
