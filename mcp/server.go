// Package mcp serves acode-lsp's packing pipeline to coding agents over the
// Model Context Protocol (docs/design.md, "Model Context Protocol (agents)"),
// on the official Go SDK. Start with [New] and [Server.Serve] (stdio) or
// [Server.Run]. The tools — pack_context, count_tokens, fit_tool_result
// and, with Options.Tools, trim_conversation, each in its own file — are
// adapters over the one core, package session, that the command line and
// the language server use too: the same workspace rules, configuration
// (.agent/config.yml of the first root), tokenizer choice, defaults and
// redaction. What a tool returns is what reaches the model (docs/agents.md):
// text only for pack_context and fit_tool_result, structured content and
// the same JSON as text for count_tokens and trim_conversation; no result
// exceeds Options.MaxResultTokens counted on all its parts.
package mcp

import (
	"context"
	"encoding/json"
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

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/index"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/internal/wire"
	"github.com/acode-lsp/acode-lsp/pack"
	"github.com/acode-lsp/acode-lsp/session"
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
	// Tools names the tools offered (AllTools); nil means DefaultTools.
	Tools []string
	// WorkspaceIndex keeps the persistent workspace index of the roots in
	// the user's cache directory (docs/index.md); the command turns it on
	// unless --no-index.
	WorkspaceIndex bool
	// WatchFiles watches the workspace's directories so that the
	// workspace's listing is kept across packs (watch.go); off, every
	// pack walks and states the tree. The command turns it on.
	WatchFiles bool
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
	rootsAsked bool           // the client's roots were asked for (and are current)
	roots      []string       // the client's file roots, when it offered any
	rootsErr   error          // the client's roots cannot be used
	index      *index.Set     // the workspace index of indexRoots (index.go)
	indexMemo  pack.FileIndex // index with the term tables it refuses kept in memory (pack.MissedTerms)
	indexRoots []string
	watch      *watcher // the file watcher (watch.go); nil: none
	watchOnce  sync.Once
}

// env is what a tool call needs of the workspace: the roots and the core
// session built on them and the configuration of the first root. It is
// rebuilt when the roots or the config file change.
type env struct {
	roots  []string
	stamp  config.Stamp
	cfgErr error // the config file is invalid: every tool call says why
	sess   *session.Session
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
	tools := opts.Tools
	if tools == nil {
		tools = DefaultTools
	}
	for _, name := range tools {
		switch name {
		case "pack_context":
			s.addPackContext()
		case "count_tokens":
			s.addCountTokens()
		case "fit_tool_result":
			s.addFitToolResult()
		case "trim_conversation":
			s.addTrimConversation()
		default:
			return nil, fmt.Errorf("mcp: unknown tool %q; the tools are %s", collector.EscapePath(name), strings.Join(AllTools, ", "))
		}
	}
	return s, nil
}

// AllTools are the tools the server can offer.
var AllTools = []string{"pack_context", "count_tokens", "fit_tool_result", "trim_conversation"}

// DefaultTools are the tools offered unless --tools names others:
// trim_conversation serves harness code, not a model, and its schema would
// cost every agent's model context on every turn.
var DefaultTools = []string{"pack_context", "count_tokens", "fit_tool_result"}

// ParseTools reads a --tools list ("pack_context,count_tokens"): names of
// AllTools separated by commas, each at most once.
func ParseTools(list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(AllTools, name) {
			return nil, fmt.Errorf("%q is not a tool; choose from %s", collector.EscapePath(name), strings.Join(AllTools, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("names no tool; choose from %s", strings.Join(AllTools, ", "))
	}
	return out, nil
}

// Run serves one client on t until the client disconnects or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	s.log.Info("serving MCP", zap.String("root", collector.EscapePath(s.opts.Root)), zap.Int("maxResultTokens", s.opts.MaxResultTokens))
	err := s.sdk.Run(ctx, t)
	s.closeWatcher()
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
// ends or ctx is done. A message over MaxMessageBytes is answered with an
// error and skipped (transport.go).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	return s.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(newLineGuard(in, w, MaxMessageBytes-1)), Writer: nopWriteCloser{w}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Stats returns the statistics of the packs this server answered.
func (s *Server) Stats() pack.PackStats {
	return s.stats.Snapshot(s.tokenizers.Stats()...)
}

// call is the state of one tool call.
type call struct {
	id   string
	log  *zap.Logger
	env  *env
	sess *session.Session
}

// handler is a tool handler of this package: the decoded arguments in, the
// result a client sees out.
type handler[In any] func(ctx context.Context, c *call, in *In) (*sdk.CallToolResult, error)

// addTool registers a tool. Every call has its arguments decoded here, in
// plain words naming the argument (decodeArgs), gets a request id (on each
// of its log lines), waits for a slot, sees one consistent workspace
// state, turns a panic into an error result, has its errors reported as
// isError results in the words of the language server's errors
// ([toolError]), and is checked against --max-result-tokens counted on
// every part a client may pass ([Server.checkSize]).
func addTool[In any](s *Server, t *sdk.Tool, h handler[In]) {
	s.sdk.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		id := "mcp-" + strconv.FormatUint(s.seq.Add(1), 10)
		log := s.log.With(zap.String("request", id), zap.String("tool", t.Name))
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				log.Error("tool panicked", zap.String("panic", fmt.Sprint(v)), zap.ByteString("stack", debug.Stack()))
				res, err = errorResult(&toolErr{msg: fmt.Sprintf("internal error in %s: %v", t.Name, v)}), nil
			}
		}()
		fail := func(err error) (*sdk.CallToolResult, error) {
			te := toolError(err)
			if ctx.Err() == nil {
				// Error level: a failed count, fit or pack is worth seeing
				// at the default level (seed NFR-016-57); the kind only,
				// never the message (it may quote request values).
				log.Error("tool failed", zap.String("kind", failureKind(te)), zap.Duration("took", time.Since(start)))
			}
			return errorResult(te), nil
		}
		in := new(In)
		if err := decodeArgs(req.Params.Arguments, in, t.InputSchema.(*jsonschema.Schema)); err != nil {
			return fail(err)
		}
		release, err := s.acquire(ctx)
		if err != nil {
			return fail(err)
		}
		defer release()
		e, err := s.workspace(ctx, req.Session, log)
		if err != nil {
			return fail(err)
		}
		if e.cfgErr != nil {
			return fail(e.cfgErr)
		}
		res, err = h(pack.WithLogger(ctx, log), &call{id: id, log: log, env: e, sess: e.sess}, in)
		if err == nil {
			err = s.checkSize(e.sess, res)
		}
		if err != nil {
			return fail(err)
		}
		log.Debug("tool done", zap.Duration("took", time.Since(start)))
		return res, nil
	})
}

// textResult is a result whose answer is text for a model: text only, no
// structured content (a client that passes structuredContent would pass
// nothing else, docs/agents.md).
func textResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// jsonResult is a result whose answer is data: the structured content and
// the same JSON as its text, so every client passes the same thing.
func jsonResult(v any) (*sdk.CallToolResult, error) {
	data, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(data)}}, StructuredContent: json.RawMessage(data)}, nil
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(buf.String(), "\n")), nil
}

// maxErrorText bounds the text of an error result: an error never echoes
// a large argument.
const maxErrorText = 1000

// errorResult is the isError result of err, its text at most maxErrorText
// bytes.
func errorResult(err error) *sdk.CallToolResult {
	msg := err.Error()
	if len(msg) > maxErrorText {
		cut := maxErrorText
		for cut > 0 && msg[cut]&0xC0 == 0x80 {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// resultTokens counts what a client may pass of a result to a model: every
// text block and the structured content as JSON (Claude Code and VS Code
// pass the latter; others the former).
func resultTokens(tok tokenizer.Tokenizer, res *sdk.CallToolResult) int {
	n := 0
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			n += tok.Count(tc.Text)
		}
	}
	if res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			n += tok.Count(string(data))
		}
	}
	return n
}

// checkSize keeps the promise of --max-result-tokens, counted with the
// configured tokenizer on every part of the result: a tool that cannot
// fit its answer says so and what to lower.
func (s *Server) checkSize(sess *session.Session, res *sdk.CallToolResult) error {
	tok, err := sess.Tokenizer("", "", "")
	if err != nil {
		return err
	}
	if n := resultTokens(tok, res); n > s.opts.MaxResultTokens {
		return domainError(errcode.Budget, fmt.Sprintf("the result is %d tokens, over --max-result-tokens %d: ask for less (a smaller budget, maxTokens or conversation)", n, s.opts.MaxResultTokens),
			map[string]any{"currentTokens": n, "maxTokens": s.opts.MaxResultTokens})
	}
	return nil
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

// failureKind is the kind of a tool error for the log, without its
// details: "invalid params", "request cancelled", "internal error" or the
// ACODE-* code.
func failureKind(err error) string {
	msg := err.Error()
	for _, k := range []string{"invalid params", "request cancelled", "internal error"} {
		if strings.HasPrefix(msg, k) {
			return k
		}
	}
	if code, _, ok := strings.Cut(msg, ":"); ok && strings.HasPrefix(code, "ACODE-") && !strings.ContainsAny(code, " /\\") {
		return code
	}
	return "other"
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
// roots or the config file changed. Roots the client offers that cannot be
// used are an error, never a fallback to --root.
func (s *Server) workspace(ctx context.Context, ss *sdk.ServerSession, log *zap.Logger) (*env, error) {
	roots, err := s.clientRoots(ctx, ss, log)
	if err != nil {
		return nil, err
	}
	if len(roots) == 0 {
		roots = []string{s.opts.Root}
	}
	path, _ := config.Discover(roots[0], false)
	stamp := config.StampOf(path)
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.env; e != nil && slices.Equal(e.roots, roots) && e.stamp == stamp {
		return e, nil
	}
	e := s.build(roots, path, stamp, log)
	if err := e.sess.WorkspaceErr(); err != nil {
		return nil, domainError(errcode.PackFailed, fmt.Sprintf("the workspace roots cannot be used: %v", err), nil)
	}
	if s.env != nil {
		s.env.sess.Engine().ForgetFiles() // what its packs kept goes with it
	}
	s.env = e
	return e, nil
}

// build makes the workspace state of roots.
func (s *Server) build(roots []string, path string, stamp config.Stamp, log *zap.Logger) *env {
	e := &env{roots: roots, stamp: stamp}
	cfg, _, err := session.LoadConfig(roots[0], "", false) // the first root's file, as the language server's
	if err != nil {
		log.Warn("config rejected", zap.String("path", collector.EscapePath(path)))
		e.cfgErr = err
	}
	var ix pack.FileIndex
	if e.cfgErr == nil {
		if x := s.indexFor(roots, log); x != nil {
			ix = x
		}
	}
	e.sess = session.New(session.Options{Roots: roots, Config: cfg, Tokenizers: s.tokenizers, Index: ix})
	// The server has no editor's overlay: its packs keep the files they
	// read, by their listed stat (pack.Engine.KeepFiles).
	e.sess.Engine().KeepFiles()
	if ws := e.sess.Workspace(); ws != nil {
		if w := s.watcher(log); w != nil {
			ws.KeepListings(w.admit)
		}
	}
	log.Info("workspace", zap.Int("roots", len(roots)), zap.String("root", collector.EscapePath(roots[0])), zap.Bool("config", stamp.Exists))
	return e
}

// clientRoots returns the client's file roots as directories, asking the
// client when it offers roots and they are not known yet; nil when it
// offers none (or cannot be asked: protocol 2026-07-28 forbids requests
// from the server, see docs/agents.md). A root that is not a local
// directory, or a failed roots/list, is an error naming it.
func (s *Server) clientRoots(ctx context.Context, ss *sdk.ServerSession, log *zap.Logger) ([]string, error) {
	s.mu.Lock()
	if s.rootsAsked {
		defer s.mu.Unlock()
		return s.roots, s.rootsErr
	}
	s.mu.Unlock()
	var roots []string
	var rootsErr error
	if ss != nil && offersRoots(ss.InitializeParams()) {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		res, err := ss.ListRoots(rctx, nil)
		cancel()
		if err != nil {
			log.Warn("roots/list failed", zap.Error(err))
			rootsErr = domainError(errcode.PackFailed, "the client's workspace roots could not be listed (roots/list failed); the server does not guess a workspace: fix the client's roots or start acode-lsp mcp --root DIR with a client that offers none", nil)
		} else {
			for _, r := range res.Roots {
				path, err := wire.PathFromURI(r.URI)
				if err == nil {
					path, err = absDir(path)
				}
				if err != nil {
					log.Warn("client root unusable", zap.String("uri", collector.EscapePath(r.URI)), zap.Error(err))
					rootsErr = domainError(errcode.PackFailed, fmt.Sprintf("the client's workspace root %s cannot be used: %v", session.Short(r.URI), err), nil)
					break
				}
				if !slices.Contains(roots, path) {
					roots = append(roots, path)
				}
			}
		}
	}
	if rootsErr != nil {
		roots = nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.roots, s.rootsErr, s.rootsAsked = roots, rootsErr, true
	return roots, rootsErr
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
		return "", unwrapPath(err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", collector.EscapePath(abs))
	}
	return abs, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
