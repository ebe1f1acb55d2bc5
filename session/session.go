// Package session is the one core behind acode-lsp's three doors — the
// command line, the language server and the MCP server (docs/design.md,
// "One core, three doors"). A [Session] owns one workspace as every door
// sees it: its roots, its configuration (found by [LoadConfig]), the
// collector that reads and redacts its files, the packing engine with the
// persistent index, and the process's tokenizers. Every rule a door used
// to apply on its own lives here once: which tokenizer counts
// ([Session.Tokenizer]), what "budget" means ([ContextBudget]), the
// defaults and redaction of paging and trimming ([Session.Fit],
// [Session.Trim]), how a workspace file is read ([Session.ReadFile]).
//
// The doors are adapters: each converts its own params (flags, LSP params,
// MCP arguments) into the requests of this package and its results back,
// the way gopls's MCP server shares the language server's session instead
// of assembling its own. Start with [New].
package session

import (
	"errors"
	"fmt"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Options describe a session's workspace.
type Options struct {
	// Roots are the workspace roots (absolute directories), the first the
	// primary one; none means packs of content sources only.
	Roots []string
	// Config is the configuration, loaded by the door ([LoadConfig], plus
	// the language server's editor settings).
	Config config.Config
	// Tokenizers is the process's registry (one count cache per
	// encoding, kept across sessions); nil means a new one.
	Tokenizers *tokenizer.Registry
	// Overlay gives the text of documents open in an editor.
	Overlay collector.Overlay
	// MaxFileSize caps the files read; 0 means the collector's default.
	MaxFileSize int64
	// Index is the persistent workspace index; nil means none.
	Index pack.FileIndex
}

// Session is one workspace with its configuration. It is immutable and
// safe for concurrent use: a door that sees the roots or the configuration
// change makes a new one.
type Session struct {
	cfg        config.Config
	roots      []string
	ws         *collector.Workspace
	wsErr      error
	engine     *pack.Engine
	tokenizers *tokenizer.Registry
}

// ErrNoWorkspace is returned (wrapped) when the roots cannot be used.
var ErrNoWorkspace = errors.New("session: workspace roots cannot be used")

// New makes the session of opts. Roots that cannot be used leave a session
// that packs content sources only; [Session.WorkspaceErr] says why.
func New(opts Options) *Session {
	s := &Session{cfg: opts.Config, roots: append([]string(nil), opts.Roots...), tokenizers: opts.Tokenizers}
	if s.tokenizers == nil {
		s.tokenizers = tokenizer.NewRegistry()
	}
	if len(s.roots) > 0 {
		// No collector logger: the pipeline logs every exclusion of a pack
		// with the request id, which the collector's own lines would lack.
		ws, err := collector.New(collector.Options{Roots: s.roots, Exclude: s.cfg.Context.Exclude, Overlay: opts.Overlay, MaxFileSize: opts.MaxFileSize,
			NoIgnoreDefaults: !s.cfg.Context.IgnoreDefaults})
		if err != nil {
			s.wsErr = fmt.Errorf("%w: %v", ErrNoWorkspace, err)
		} else {
			s.ws = ws
		}
	}
	s.engine = pack.NewEngine(s.cfg, s.ws)
	s.engine.Tokenizers = s.tokenizers
	if s.ws != nil && opts.Index != nil {
		s.engine.Index = opts.Index
		// Through a server's memos too (pack.IndexAs): every door
		// remembers refused files and knows clean texts.
		if r, ok := pack.IndexAs[collector.RefusedFiles](opts.Index); ok {
			s.ws.SetRefusedFiles(r)
		}
		if c, ok := pack.IndexAs[collector.CleanTexts](opts.Index); ok {
			s.ws.SetCleanTexts(c)
		}
		if p, ok := pack.IndexAs[collector.PlainPaths](opts.Index); ok {
			s.ws.SetPlainPaths(p)
		}
	}
	return s
}

// Config returns the session's configuration.
func (s *Session) Config() config.Config { return s.cfg }

// Roots returns the workspace roots.
func (s *Session) Roots() []string { return append([]string(nil), s.roots...) }

// Workspace returns the collector of the roots; nil when they cannot be
// used.
func (s *Session) Workspace() *collector.Workspace { return s.ws }

// WorkspaceErr says why the roots cannot be used; nil when they can (or
// there are none).
func (s *Session) WorkspaceErr() error { return s.wsErr }

// Engine returns the packing engine of the session.
func (s *Session) Engine() *pack.Engine { return s.engine }

// Tokenizers returns the process's tokenizer registry.
func (s *Session) Tokenizers() *tokenizer.Registry { return s.tokenizers }
