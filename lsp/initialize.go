package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/collector"
)

// initializeParams is the part of InitializeParams the server reads.
// protocol.InitializeParams is not used: its typed ClientCapabilities
// (LSP 3.16) reject capabilities that newer clients send with other shapes,
// and a client must never fail to start over a capability the server
// ignores. Capabilities are decoded leniently instead (see parseCaps).
type initializeParams struct {
	ProcessID             *int32                     `json:"processId"`
	RootPath              *string                    `json:"rootPath"`
	RootURI               *string                    `json:"rootUri"`
	WorkspaceFolders      []protocol.WorkspaceFolder `json:"workspaceFolders"`
	InitializationOptions json.RawMessage            `json:"initializationOptions"`
	Capabilities          json.RawMessage            `json:"capabilities"`
	ClientInfo            *protocol.ClientInfo       `json:"clientInfo"`
}

// initialize handles the initialize request: it records the workspace roots
// (every workspace folder, else rootUri, else rootPath), the client's
// capabilities and initializationOptions, loads the configuration and
// advertises the server's capabilities. When it returns, the rpc.Conn moves
// the session to rpc.StateInitialized.
func (s *Server) initialize(_ context.Context, p *initializeParams) (*protocol.InitializeResult, error) {
	caps := parseCaps(p.Capabilities)
	s.mu.Lock()
	s.caps = caps
	s.mu.Unlock()

	roots := s.rootsOf(p)
	fields := []zap.Field{zap.Strings("roots", escapeAll(roots))}
	if p.ClientInfo != nil {
		fields = append(fields, zap.String("client", collector.EscapePath(p.ClientInfo.Name)), zap.String("clientVersion", collector.EscapePath(p.ClientInfo.Version)))
	}
	s.log.Info("initialize", fields...)
	s.conf.setInitOptions(editorSection(p.InitializationOptions))
	s.conf.setRoots(roots)

	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				// Incremental changes are decoded by the server itself; see
				// did_change.go for the defect this avoids.
				Change: protocol.TextDocumentSyncKindIncremental,
				Save:   &protocol.SaveOptions{},
			},
			CodeLensProvider: &protocol.CodeLensOptions{},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{Supported: true, ChangeNotifications: true},
			},
			Experimental: map[string]any{"acode": map[string]any{"methods": []string{
				methodBudgetStatus, methodPackContext, methodCountTokens,
				methodSectionBudget, methodTrimConversation, methodFitToolResult, methodUsageStats,
				methodCheckConversation, methodReportUsage,
			}, "notifications": []string{methodBudget}}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "acode-lsp", Version: s.opts.Version},
	}, nil
}

// rootsOf returns the workspace roots of the initialize params as absolute
// paths, without duplicates. Folders that are not file: URIs are skipped.
func (s *Server) rootsOf(p *initializeParams) []string {
	var uris []protocol.DocumentURI
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, protocol.DocumentURI(f.URI))
	}
	if len(uris) == 0 && p.RootURI != nil && *p.RootURI != "" {
		uris = append(uris, protocol.DocumentURI(*p.RootURI))
	}
	var roots []string
	seen := map[string]bool{}
	for _, u := range uris {
		path, err := uriToPath(u)
		if err != nil {
			s.log.Warn("workspace folder skipped", zap.Error(err))
			continue
		}
		if !seen[path] {
			seen[path] = true
			roots = append(roots, path)
		}
	}
	if len(roots) == 0 && len(uris) == 0 && p.RootPath != nil && *p.RootPath != "" {
		roots = append(roots, *p.RootPath)
	}
	return roots
}

// parseCaps reads the client capabilities the server uses, ignoring any
// part that does not have the expected shape.
func parseCaps(raw json.RawMessage) clientCaps {
	var c struct {
		Window struct {
			WorkDoneProgress json.RawMessage `json:"workDoneProgress"`
		} `json:"window"`
		Workspace struct {
			Configuration         json.RawMessage `json:"configuration"`
			DidChangeWatchedFiles struct {
				DynamicRegistration json.RawMessage `json:"dynamicRegistration"`
			} `json:"didChangeWatchedFiles"`
			CodeLens struct {
				RefreshSupport json.RawMessage `json:"refreshSupport"`
			} `json:"codeLens"`
		} `json:"workspace"`
	}
	_ = json.Unmarshal(raw, &c) // a part of the wrong shape stays unset
	isTrue := func(r json.RawMessage) bool { return string(r) == "true" }
	return clientCaps{
		workDoneProgress:  isTrue(c.Window.WorkDoneProgress),
		watchFilesDynamic: isTrue(c.Workspace.DidChangeWatchedFiles.DynamicRegistration),
		configuration:     isTrue(c.Workspace.Configuration),
		codeLensRefresh:   isTrue(c.Workspace.CodeLens.RefreshSupport),
	}
}

// escapeAll escapes strings that came from the client for a log field.
func escapeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = collector.EscapePath(s)
	}
	return out
}
