package lsp

import (
	"context"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/config"
)

// didChangeWatchedFiles handles workspace/didChangeWatchedFiles: a change
// of the configuration file reloads it; every change updates the
// workspace's kept listing (collector.Workspace.FileChanged: the file
// stated again, or the listing dropped when a walk could list otherwise)
// and drops the file's entries from the workspace index (docs/index.md),
// so the next pack reads it again and only it.
func (s *Server) didChangeWatchedFiles(_ context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	ws := s.conf.env().workspace
	for _, ch := range p.Changes {
		if ch == nil {
			continue
		}
		if path, err := uriToPath(ch.URI); err == nil {
			if ws != nil {
				ws.FileChanged(path)
			}
			s.conf.index.forget(path)
		}
	}
	for _, ch := range p.Changes {
		if ch != nil && s.isConfigFile(ch.URI) {
			s.conf.reloadFile("config file changed")
			return nil
		}
	}
	return nil
}

// isConfigFile reports whether u is the configuration file in use.
func (s *Server) isConfigFile(u protocol.DocumentURI) bool {
	path, err := uriToPath(u)
	if err != nil {
		return false
	}
	s.conf.mu.Lock()
	defer s.conf.mu.Unlock()
	return path == s.conf.configPath()
}

// pollConfig checks the configuration file for changes until ctx is done;
// it is used when the client cannot watch files for the server.
func (s *Server) pollConfig(ctx context.Context) {
	every := s.opts.ConfigPollInterval
	if every <= 0 {
		every = DefaultConfigPoll
	}
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	var seen config.Stamp // a change seen on the previous tick
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		s.conf.mu.Lock()
		path, last := s.conf.configPath(), s.conf.fileStamp
		s.conf.mu.Unlock()
		if path == "" {
			continue
		}
		// A change is reloaded once it has been stable for one tick, so a
		// file caught in the middle of a save is not read half-written.
		now := config.StampOf(path)
		switch {
		case now == last:
			seen = config.Stamp{}
		case now != seen:
			seen = now
		default:
			seen = config.Stamp{}
			s.conf.reloadFile("config file changed")
		}
	}
}
