package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// configGlob is the watcher pattern of the configuration files.
const configGlob = "**/.agent/config.yml"

// initialized handles the initialized notification: the server starts to
// follow .agent/config.yml (through the client's file watcher when it can
// register one, else by polling the file itself), pulls the editor's
// "acode" settings when the client offers workspace/configuration, and
// sends the first acode/budget.
func (s *Server) initialized(_ context.Context, _ *protocol.InitializedParams) error {
	caps := s.clientCaps()
	// Requests to the client wait for its answer, which the read loop
	// delivers: they must not run on the read loop.
	s.spawn(func() {
		if caps.watchFilesDynamic && s.registerConfigWatcher(s.ctx) {
			return
		}
		s.pollConfig(s.ctx)
	})
	if caps.configuration {
		s.spawn(func() { s.pullSettings(s.ctx) })
	}
	s.budget.trigger()
	return nil
}

// registerConfigWatcher asks the client to report changes of the
// configuration files and of every workspace file
// (workspace/didChangeWatchedFiles). Once it does, workspaces keep their
// listing across packs; without it every pack walks and states the tree.
func (s *Server) registerConfigWatcher(ctx context.Context) bool {
	watchers := []protocol.FileSystemWatcher{{
		GlobPattern: configGlob,
		Kind:        protocol.WatchKindCreate + protocol.WatchKindChange + protocol.WatchKindDelete,
	}}
	// Every file's changes keep the workspace's listing (kept across packs
	// from then on) and the workspace index current (index.go).
	watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: "**/*", Kind: protocol.WatchKindCreate + protocol.WatchKindChange + protocol.WatchKindDelete})
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:              "acode-lsp/config-watcher",
		Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
		RegisterOptions: &protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	if err := s.client.Call(ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.log.Info("file watcher not registered; polling the config file", zap.Error(err))
		return false
	}
	s.watching.Store(true)
	if ws := s.conf.env().workspace; ws != nil {
		ws.KeepListings(nil)
	}
	return true
}

// pullSettings asks the client for the "acode" settings.
func (s *Server) pullSettings(ctx context.Context) {
	raw, err := s.client.configuration(ctx)
	if err != nil {
		s.log.Info("workspace/configuration failed", zap.Error(err))
		return
	}
	if section := editorSection(raw); section != nil {
		s.conf.setEditorSettings(section)
	}
}
