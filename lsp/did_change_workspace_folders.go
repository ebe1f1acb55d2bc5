package lsp

import (
	"context"
	"slices"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// didChangeWorkspaceFolders handles workspace/didChangeWorkspaceFolders:
// the workspace roots follow the editor's folders.
func (s *Server) didChangeWorkspaceFolders(_ context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	roots := s.conf.rootsCopy()
	for _, f := range p.Event.Removed {
		if path, err := uriToPath(protocol.DocumentURI(f.URI)); err == nil {
			roots = slices.DeleteFunc(roots, func(r string) bool { return r == path })
		}
	}
	for _, f := range p.Event.Added {
		path, err := uriToPath(protocol.DocumentURI(f.URI))
		if err != nil {
			s.log.Warn("workspace folder skipped", zap.Error(err))
			continue
		}
		if !slices.Contains(roots, path) {
			roots = append(roots, path)
		}
	}
	s.conf.setRoots(roots)
	return nil
}
