package lsp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
	"github.com/acode-lsp/acode-lsp/pack"
	"github.com/acode-lsp/acode-lsp/session"
)

// env is everything derived from the configuration and the workspace
// roots. It is replaced as a whole when either changes, so a request sees
// one consistent view from start to end.
type env struct {
	cfg       config.Config
	roots     []string
	model     string               // the model the budget is shown for
	tok       tokenizer.Tokenizer  // counts under the current model, cached
	workspace *collector.Workspace // nil when the roots cannot be used
	engine    *pack.Engine
	// sess is the core session of the configuration and roots (package
	// session, shared in kind with the command line and the MCP server):
	// tokenizer rule, defaults, redaction.
	sess *session.Session
}

// exact reports whether counts under the current model are exact.
func (e *env) exact() bool { return e.tok.Exact() }

// configState holds the layers of the configuration: the file of the first
// workspace root (last good version), initializationOptions and the editor
// settings of workspace/didChangeConfiguration, in increasing precedence.
type configState struct {
	s   *Server
	cur atomic.Pointer[env]

	mu        sync.Mutex // serialises reloads
	roots     []string
	file      config.Config
	fileStamp config.Stamp // of the last load, for the poller
	initOpts  json.RawMessage
	editor    json.RawMessage // last good editor settings
	// tokenizers are the server's tokenizers, one count cache per
	// encoding, kept across reloads and shared with every engine.
	tokenizers *tokenizer.Registry
	index      workspaceIndex // persistent index of the roots (index.go)
}

// newConfigState starts with the defaults and no roots.
func newConfigState(s *Server) *configState {
	c := &configState{s: s, file: config.Default(), tokenizers: tokenizer.NewRegistry()}
	e, err := c.build(config.Default(), nil)
	if err != nil {
		// The defaults always build; this is a programming error.
		panic(fmt.Sprintf("lsp: default configuration: %v", err))
	}
	c.cur.Store(e)
	return c
}

// env returns the current environment.
func (c *configState) env() *env { return c.cur.Load() }

// configPath returns the config file of the primary (first) root, or "".
func (c *configState) configPath() string {
	if len(c.roots) == 0 {
		return ""
	}
	path, _ := config.Discover(c.roots[0], false) // watched whether or not it exists
	return path
}

// rootsCopy returns the workspace roots.
func (c *configState) rootsCopy() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.roots...)
}

// setRoots sets the workspace roots and reloads everything.
func (c *configState) setRoots(roots []string) {
	c.mu.Lock()
	c.roots = append([]string(nil), roots...)
	c.mu.Unlock()
	c.reloadFile("workspace roots changed")
}

// setInitOptions records initializationOptions (before setRoots).
func (c *configState) setInitOptions(raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.initOpts = raw
	c.warnUnknown("initializationOptions", raw)
}

// reloadFile reads the config file again and rebuilds the environment. An
// invalid file keeps the last good configuration and tells the user why.
func (c *configState) reloadFile(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	path := c.configPath()
	if path != "" {
		c.fileStamp = config.StampOf(path)
		cfg, err := config.Load(path)
		if err != nil {
			c.s.log.Warn("config rejected", zap.String("path", collector.EscapePath(path)), zap.String("trigger", why))
			c.s.client.showMessage(protocol.MessageTypeError, configMessage(err)+" — keeping the last good configuration.")
		} else {
			c.file = cfg
		}
	} else {
		c.file = config.Default()
	}
	c.rebuildLocked(why)
}

// setEditorSettings applies the "acode" section of the editor settings. An
// invalid value keeps the last good settings and tells the user why.
func (c *configState) setEditorSettings(raw json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.file.WithOverrides(raw); err != nil {
		c.s.log.Warn("editor settings rejected")
		c.s.client.showMessage(protocol.MessageTypeError, configMessage(err)+" — keeping the last good settings.")
		return
	}
	c.editor = raw
	c.warnUnknown("editor settings", raw)
	c.rebuildLocked("editor settings changed")
}

// warnUnknown tells the user which keys of a layer of editor settings
// acode-lsp does not read: a misspelt setting changes nothing, silently
// otherwise. The log has their number only (they came from outside).
func (c *configState) warnUnknown(layer string, raw json.RawMessage) {
	unknown := config.UnknownSettings(raw)
	if len(unknown) == 0 {
		return
	}
	c.s.log.Warn("unknown editor settings ignored", zap.String("layer", layer), zap.Int("keys", len(unknown)))
	c.s.client.showMessage(protocol.MessageTypeWarning, fmt.Sprintf("acode-lsp: %s: %s ignored: not a setting of acode-lsp (it reads acode.%s)",
		layer, collector.EscapePath(strings.Join(unknown, ", ")), strings.Join(config.SettingKeys(), ", acode.")))
}

// rebuildLocked layers the configuration and swaps in a new environment.
func (c *configState) rebuildLocked(why string) {
	cfg := c.file
	for _, layer := range []struct {
		name string
		raw  json.RawMessage
	}{{"initializationOptions", c.initOpts}, {"editor settings", c.editor}} {
		next, err := cfg.WithOverrides(layer.raw)
		if err != nil {
			c.s.log.Warn("settings layer rejected", zap.String("layer", layer.name))
			c.s.client.showMessage(protocol.MessageTypeError, configMessage(err)+" — ignoring the "+layer.name+".")
			continue
		}
		cfg = next
	}
	e, err := c.build(cfg, c.roots)
	if err != nil {
		c.s.log.Warn("configuration not applied", zap.Error(err))
		c.s.client.showMessage(protocol.MessageTypeError, "acode-lsp: "+err.Error())
		return
	}
	c.cur.Store(e)
	c.s.log.Info("configuration applied", zap.String("why", why), zap.String("model", collector.EscapePath(e.model)),
		zap.String("encoding", e.tok.Encoding()), zap.Int("available", cfg.Available()), zap.Int("roots", len(c.roots)))
	c.s.configChanged()
}

// build makes the environment of cfg and roots: the core session
// (session.New) with the open documents as the collector's overlay and the
// persistent index of the roots.
func (c *configState) build(cfg config.Config, roots []string) (*env, error) {
	var ix pack.FileIndex
	if len(roots) > 0 {
		if x := c.index.forRoots(c.s, roots); x != nil {
			ix = x
		}
	}
	sess := session.New(session.Options{Roots: roots, Config: cfg, Tokenizers: c.tokenizers, Overlay: c.s.docs, Index: ix})
	tok, err := sess.Tokenizer("", "", "")
	if err != nil {
		return nil, fmt.Errorf("lsp: tokenizer: %w", err)
	}
	model, encoding := pack.ConfiguredTokenizer(cfg)
	if encoding != "" && model == "" {
		model = encoding
	}
	if ws := sess.Workspace(); ws != nil && c.s.watching.Load() {
		ws.KeepListings(nil) // the client reports every change (initialized.go)
	}
	if err := sess.WorkspaceErr(); err != nil {
		// Packs can still use content sources; uri sources are refused.
		c.s.log.Warn("workspace roots unusable", zap.Error(err))
	}
	return &env{cfg: cfg, roots: roots, model: model, tok: tok, workspace: sess.Workspace(), engine: sess.Engine(), sess: sess}, nil
}

// configMessage is the text shown to the user for a configuration error.
func configMessage(err error) string {
	var ce *config.Error
	if errors.As(err, &ce) {
		return "acode-lsp: " + ce.Error()
	}
	return "acode-lsp: configuration: " + err.Error()
}

// editorSection extracts the "acode" section from editor settings
// (initializationOptions, workspace/didChangeConfiguration): {"acode":
// {...}}, or the section itself from clients that send it bare. It returns
// nil when the settings hold nothing for acode-lsp (other servers'
// sections), so they change nothing.
func editorSection(settings json.RawMessage) json.RawMessage {
	settings = bytes.TrimSpace(settings)
	if len(settings) == 0 || string(settings) == "null" {
		return nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(settings, &wrapper); err != nil {
		return settings // not an object: let WithOverrides report it
	}
	if section, ok := wrapper["acode"]; ok {
		return section
	}
	for _, key := range config.SettingKeys() {
		if _, ok := wrapper[key]; ok {
			return settings
		}
	}
	return nil
}

// configChanged is called after a new configuration was applied: editors
// are told the new budget and, when they can, to ask for lenses again.
func (s *Server) configChanged() {
	if s.conn.State() != rpc.StateInitialized {
		return // initialize applies the first configuration; initialized notifies
	}
	s.budget.trigger()
	if s.clientCaps().codeLensRefresh {
		s.spawn(func() {
			if err := s.client.refreshCodeLenses(s.ctx); err != nil {
				s.log.Debug("code lens refresh failed")
			}
		})
	}
}
