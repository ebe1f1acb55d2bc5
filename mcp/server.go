// Package mcp serves acode-lsp's packing pipeline to coding agents over the
// Model Context Protocol (docs/design.md, "Model Context Protocol (agents)"),
// on the official Go SDK. Start with [New] and [Server.Serve] (stdio) or
// [Server.Run]: four tools, pack_context, count_tokens, fit_tool_result and
// trim_conversation, each in its own file, run the same pipeline, config
// (.agent/config.yml of the first root), rules and exclusions as the
// language server. No tool result's text exceeds Options.MaxResultTokens.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/internal/wire"
	"github.com/acode-lsp/acode-lsp/pack"
)

// DefaultMaxResultTokens is the default cap of a tool result's text: Claude
// Code's limit for MCP tool results.
const DefaultMaxResultTokens = 25000

// Options configures a Server.
type Options struct {
	// Root is the workspace root used when the client offers no roots;
	// "" means the working directory.
	Root string
	// MaxResultTokens caps the text of every tool result, counted with the
	// request's tokenizer; 0 means DefaultMaxResultTokens.
	MaxResultTokens int
	// Logger receives the server's logs (never stdout); nil means none.
	Logger *zap.Logger
	// Version is reported in serverInfo.
	Version string
	// Stats records the packs of this server; nil means a new recorder.
	Stats *pack.Recorder
	// WorkspaceIndex keeps the persistent workspace index of the roots in
	// the user's cache directory (docs/index.md); the command turns it on
	// unless --no-index.
	WorkspaceIndex bool
}

// Server is the acode-lsp MCP server: the tools and the workspace state
// they share (roots, configuration, engine).
type Server struct {
	opts  Options
	log   *zap.Logger
	sdk   *sdk.Server
	stats *pack.Recorder
	heavy chan struct{} // bounds the tool calls running at once
	seq   atomic.Uint64 // request ids
	// tokenizers are the server's tokenizers, one count cache per
	// encoding, shared by every engine and tool call.
	tokenizers *tokenizer.Registry

	mu         sync.Mutex
	env        *env
	rootsAsked bool       // the client's roots were asked for (and are current)
	roots      []string   // the client's file roots, when it offered any
	index      *index.Set // the workspace index of indexRoots (index.go)
	indexRoots []string
}

// env is what a tool call needs of the workspace: the roots, the
// configuration of the first root and the engine built on both. It is
// rebuilt when the roots or the config file change.
type env struct {
	roots  []string
	stamp  config.Stamp
	cfg    config.Config
	cfgErr error // the config file is invalid: every tool call says why
	ws     *collector.Workspace
	engine *pack.Engine
	// tokenizers is the server's registry ([Server] tokenizers).
	tokenizers *tokenizer.Registry
}

// New returns a server with the four tools.
func New(opts Options) (*Server, error) {
	if opts.MaxResultTokens == 0 {
		opts.MaxResultTokens = DefaultMaxResultTokens
	}
	if opts.MaxResultTokens < 0 {
		return nil, fmt.Errorf("mcp: max result tokens %d is negative", opts.MaxResultTokens)
	}
	if opts.Root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("mcp: working directory: %w", err)
		}
		opts.Root = wd
	}
	abs, err := absDir(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("mcp: root: %w", err)
	}
	opts.Root = abs
	s := &Server{opts: opts, log: opts.Logger, stats: opts.Stats, heavy: make(chan struct{}, max(1, runtime.GOMAXPROCS(0))), tokenizers: tokenizer.NewRegistry()}
	if s.log == nil {
		s.log = zap.NewNop()
	}
	if s.stats == nil {
		s.stats = &pack.Recorder{}
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "acode-lsp", Version: version}, &sdk.ServerOptions{
		// No logging capability: logs go to stderr or the log file.
		Capabilities:            &sdk.ServerCapabilities{},
		RootsListChangedHandler: func(context.Context, *sdk.RootsListChangedRequest) { s.rootsChanged() },
	})
	s.addPackContext()
	s.addCountTokens()
	s.addFitToolResult()
	s.addTrimConversation()
	return s, nil
}

// Run serves one client on t until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	s.log.Info("serving MCP", zap.String("root", collector.EscapePath(s.opts.Root)), zap.Int("maxResultTokens", s.opts.MaxResultTokens))
	err := s.sdk.Run(ctx, t)
	s.closeIndex()
	st := s.Stats()
	s.log.Info("MCP session ended", zap.Int("packs", st.Packs), zap.Int("failed", st.Failed), zap.Float64("p50Ms", st.LatencyMs.P50),
		zap.Float64("p95Ms", st.LatencyMs.P95), zap.Float64("utilization", st.Tokens.Utilization), zap.Float64("cacheHitRate", st.Cache.HitRate))
	if errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return err
}

// Connect serves one client on t in the background (tests use it with
// the SDK's in-memory transports).
func (s *Server) Connect(ctx context.Context, t sdk.Transport) (*sdk.ServerSession, error) {
	return s.sdk.Connect(ctx, t, nil)
}

// Serve speaks MCP on in/out (newline-delimited JSON-RPC) until the input
// ends or ctx is done.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Stats returns the statistics of the packs this server answered.
func (s *Server) Stats() pack.PackStats {
	return s.stats.Snapshot(s.tokenizers.Stats()...)
}

// call is the state of one tool call.
type call struct {
	id  string
	log *zap.Logger
	env *env
}

// handler is a typed tool handler of this package.
type handler[In, Out any] func(ctx context.Context, c *call, in In) (*sdk.CallToolResult, Out, error)

// addTool registers a tool. Every call gets a request id (on each of its
// log lines), waits for a slot, sees one consistent workspace state, turns
// a panic into an error result, and has its errors reported as isError
// results in the words of the language server's errors ([toolError]).
func addTool[In, Out any](s *Server, t *sdk.Tool, h handler[In, Out]) {
	sdk.AddTool(s.sdk, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		id := "mcp-" + strconv.FormatUint(s.seq.Add(1), 10)
		log := s.log.With(zap.String("request", id), zap.String("tool", t.Name))
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				log.Error("tool panicked", zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
				var zero Out
				res, out, err = nil, zero, &toolErr{msg: fmt.Sprintf("internal error in %s: %v", t.Name, v)}
			}
			if err != nil {
				if ctx.Err() == nil {
					log.Debug("tool failed", zap.Duration("took", time.Since(start)))
				}
				err = toolError(err)
			} else {
				log.Debug("tool done", zap.Duration("took", time.Since(start)))
			}
		}()
		release, err := s.acquire(ctx)
		if err != nil {
			var zero Out
			return nil, zero, err
		}
		defer release()
		e := s.workspace(ctx, req.Session, log)
		if e.cfgErr != nil {
			var zero Out
			return nil, zero, e.cfgErr
		}
		return h(pack.WithLogger(ctx, log), &call{id: id, log: log, env: e}, in)
	})
}

// acquire waits for a slot for heavy work; the release must be called.
func (s *Server) acquire(ctx context.Context) (func(), error) {
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// toolError is the error a tool result reports: the message of the
// language server's error for the same failure, with its ACODE-* code in
// front for domain failures ("ACODE-CTX-004: no content to pack: …") and
// "invalid params: FIELD: …" for parameters (the field named as this
// server's tools name it).
func toolError(err error) error {
	var te *toolErr
	switch {
	case errors.As(err, &te):
		return te
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return errors.New("request cancelled")
	}
	switch c := errcode.Classify(err); c.Kind {
	case errcode.InvalidParams:
		return invalidParams(mcpField(c.Field), c.Message)
	case errcode.RequestFailed:
		return domainError(c.Code, c.Message, c.Data)
	}
	return &toolErr{msg: "internal error: " + err.Error()}
}

// toolErr is an error already in the words a tool result shows.
type toolErr struct{ msg string }

func (e *toolErr) Error() string { return e.msg }

// invalidParams is the text of a -32602 error of the language server.
func invalidParams(field, msg string) error {
	if field != "" {
		msg = field + ": " + msg
	}
	return &toolErr{msg: "invalid params: " + msg}
}

// domainError is the text of a -32803 error: its code, message and data.
func domainError(code errcode.Code, msg string, data map[string]any) error {
	text := string(code) + ": " + msg
	keys := make([]string, 0, len(data))
	for k := range data {
		if k != "code" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%v", k, data[k])
		}
		text += " (" + strings.Join(parts, ", ") + ")"
	}
	return &toolErr{msg: text}
}

// mcpField names a pack_context field as the tool names it (the pipeline
// names the fields of acode/packContext); the fields of conversation
// parameters pass unchanged.
func mcpField(f string) string {
	switch {
	case f == "budget.totalTokens":
		return "budget"
	case f == "search.pattern":
		return "search"
	case strings.HasPrefix(f, "budget."):
		return "budget"
	}
	return f
}

// tokenizerFor returns the cached tokenizer of a model or an encoding, the
// configured one when neither is given. field names the parameter blamed
// for an unknown name.
func (c *call) tokenizerFor(model, encoding, field string) (tokenizer.Tokenizer, error) {
	if model == "" && encoding == "" {
		model, encoding = pack.ConfiguredTokenizer(c.env.cfg) // context.tokenizer.file too, as pack_context
	} else if encoding != "" {
		field = "encoding"
	}
	t, err := c.env.tokenizers.Get(model, encoding, c.env.cfg.Context.Tokenizer.CacheSize)
	if err != nil {
		return nil, invalidParams(field, err.Error())
	}
	return t, nil
}

// rootsChanged is called when the client's roots change: they are asked
// for again at the next tool call.
func (s *Server) rootsChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rootsAsked = false
	s.log.Debug("client roots changed")
}

// workspace returns the workspace state for a tool call: the client's file
// roots when it offers roots, else the --root directory; rebuilt when the
// roots or the config file changed.
func (s *Server) workspace(ctx context.Context, ss *sdk.ServerSession, log *zap.Logger) *env {
	roots := s.clientRoots(ctx, ss, log)
	if len(roots) == 0 {
		roots = []string{s.opts.Root}
	}
	path, _ := config.Discover(roots[0], false)
	stamp := config.StampOf(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.env; e != nil && slices.Equal(e.roots, roots) && e.stamp == stamp {
		return e
	}
	e := s.build(roots, path, stamp, log)
	s.env = e
	return e
}

// build makes the workspace state of roots.
func (s *Server) build(roots []string, path string, stamp config.Stamp, log *zap.Logger) *env {
	e := &env{roots: roots, stamp: stamp, cfg: config.Default(), tokenizers: s.tokenizers}
	if stamp.Exists {
		cfg, err := config.Load(path)
		if err != nil {
			log.Warn("config rejected", zap.String("path", collector.EscapePath(path)))
			e.cfgErr = err
			return e
		}
		e.cfg = cfg
	}
	// No collector logger: the pipeline logs every exclusion of a pack with
	// the request id, which the collector's own lines would lack.
	ws, err := collector.New(collector.Options{Roots: roots, Exclude: e.cfg.Context.Exclude})
	if err != nil {
		// Packs can still use content sources; paths are refused.
		log.Warn("workspace roots unusable", zap.Error(err))
	} else {
		e.ws = ws
	}
	e.engine = pack.NewEngine(e.cfg, e.ws)
	e.engine.Tokenizers = s.tokenizers
	if e.ws != nil {
		if ix := s.indexFor(roots, log); ix != nil {
			e.engine.Index = ix
		}
	}
	log.Info("workspace", zap.Int("roots", len(roots)), zap.String("root", collector.EscapePath(roots[0])), zap.Bool("config", stamp.Exists))
	return e
}

// clientRoots returns the client's file roots as directories, asking the
// client when it offers roots and they are not known yet; nil when it
// offers none (or cannot be asked: protocol 2026-07-28 forbids requests
// from the server, see docs/agents.md).
func (s *Server) clientRoots(ctx context.Context, ss *sdk.ServerSession, log *zap.Logger) []string {
	s.mu.Lock()
	if s.rootsAsked {
		defer s.mu.Unlock()
		return s.roots
	}
	s.mu.Unlock()
	var roots []string
	if ss != nil && offersRoots(ss.InitializeParams()) {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		res, err := ss.ListRoots(rctx, nil)
		cancel()
		if err != nil {
			log.Warn("roots/list failed: using --root", zap.Error(err))
		} else {
			for _, r := range res.Roots {
				path, err := wire.PathFromURI(r.URI)
				if err == nil {
					path, err = absDir(path)
				}
				if err != nil {
					log.Warn("client root skipped", zap.String("uri", collector.EscapePath(r.URI)), zap.Error(err))
					continue
				}
				if !slices.Contains(roots, path) {
					roots = append(roots, path)
				}
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roots, s.rootsAsked = roots, true
	return roots
}

// offersRoots reports whether the client declared the roots capability on
// a protocol version that lets the server ask for them.
func offersRoots(p *sdk.InitializeParams) bool {
	if p == nil || p.Capabilities == nil || p.ProtocolVersion >= "2026-07-28" {
		return false
	}
	return p.Capabilities.RootsV2 != nil || p.Capabilities.Roots.ListChanged
}

// absDir returns the absolute path of an existing directory.
func absDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", collector.EscapePath(abs))
	}
	return abs, nil
}
