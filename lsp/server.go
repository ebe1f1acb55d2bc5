package lsp

import (
	"cmp"
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Methods of the acode/* extension (docs/design.md#language-server
// and "Conversation budgets").
const (
	methodBudget           = "acode/budget" // notification, server → client
	methodBudgetStatus     = "acode/budgetStatus"
	methodPackContext      = "acode/packContext"
	methodCountTokens      = "acode/countTokens"
	methodSectionBudget    = "acode/sectionBudget"
	methodTrimConversation = "acode/trimConversation"
	methodFitToolResult    = "acode/fitToolResult"
	methodUsageStats       = "acode/usageStats"
	methodPreviewContext   = "acode/previewContext"
	methodPackStats        = "acode/packStats"
)

// Server is one language-server session: the state shared by the handlers
// of one connection.
type Server struct {
	opts   Options
	log    *zap.Logger
	conn   *rpc.Conn // the transport: lifecycle, requests in flight
	client *client

	ctx    context.Context // done at exit: stops handlers and background work
	cancel context.CancelFunc
	wg     sync.WaitGroup // request goroutines and background work

	// The routing tables, handed to conn by Serve (tests add methods).
	requests      map[string]rpc.RequestFunc
	notifications map[string]rpc.NotifyFunc

	mu       sync.Mutex
	stopping bool // set by stop: no new goroutine starts
	caps     clientCaps
	exited   chan struct{}
	exitOnce sync.Once

	// watching is set once the client watches every workspace file for
	// the server (initialized.go): workspaces then keep their listing
	// across packs, kept current by didChangeWatchedFiles.
	watching atomic.Bool

	docs   *documentStore
	conf   *configState
	counts *countCache
	lenses *lensCache
	budget *budgetNotifier
	whatif *whatIf
	usage  conversation.UsageLog // trims of this session, for acode/usageStats
	stats  pack.Recorder         // packs of this session, for acode/packStats
	// sessions tracks agent sessions (sessionId) across conversation requests.
	sessions conversation.Sessions
	// heavy bounds the packs and counts running at once, so that a burst of
	// requests shares the CPU instead of starving lenses.
	heavy chan struct{}
	// onSettle, when set (tests), is told of every settling of
	// provisional lens chunks (lens_settle.go).
	onSettle settled
}

// newServer returns the session state for conn. The session context is
// cancelled by stop, not by ctx (Serve watches ctx itself).
func newServer(ctx context.Context, conn *rpc.Conn, opts Options, log *zap.Logger) *Server {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Server{
		opts:   opts,
		log:    log,
		conn:   conn,
		client: &client{Conn: conn, timeout: cmp.Or(opts.ClientTimeout, DefaultClientTimeout)},
		ctx:    sctx,
		cancel: cancel,
		exited: make(chan struct{}),
		docs:   newDocumentStore(),
		counts: newCountCache(),
		heavy:  make(chan struct{}, max(1, runtime.GOMAXPROCS(0))),
	}
	s.conf = newConfigState(s)
	s.lenses = newLensCache()
	debounce := opts.BudgetDebounce
	if debounce <= 0 {
		debounce = DefaultBudgetDebounce
	}
	s.budget = newBudgetNotifier(s, debounce)
	s.whatif = newWhatIf(s, whatIfQuiet*debounce)
	s.requests = map[string]rpc.RequestFunc{
		protocol.MethodTextDocumentCodeLens: rpc.Request(s.codeLens),
		methodBudgetStatus:                  s.budgetStatus,
		methodPackContext:                   rpc.Request(s.packContext),
		methodCountTokens:                   rpc.Request(s.countTokens),
		methodPreviewContext:                rpc.Request(s.previewContext),
		methodPackStats:                     s.packStats,
	}
	s.notifications = map[string]rpc.NotifyFunc{
		protocol.MethodInitialized:                        rpc.Notification(s.initialized),
		protocol.MethodTextDocumentDidOpen:                rpc.Notification(s.didOpen),
		protocol.MethodTextDocumentDidChange:              rpc.Notification(s.didChange),
		protocol.MethodTextDocumentDidClose:               rpc.Notification(s.didClose),
		protocol.MethodTextDocumentDidSave:                rpc.Notification(s.didSave),
		protocol.MethodWorkspaceDidChangeConfiguration:    rpc.Notification(s.didChangeConfiguration),
		protocol.MethodWorkspaceDidChangeWatchedFiles:     rpc.Notification(s.didChangeWatchedFiles),
		protocol.MethodWorkspaceDidChangeWorkspaceFolders: rpc.Notification(s.didChangeWorkspaceFolders),
	}
	s.registerConversation()
	s.registerReportUsage()
	return s
}

// clientCaps returns the client capabilities of initialize.
func (s *Server) clientCaps() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// stop ends the session: requests in flight are cancelled and background
// work stops. It waits a bounded time for them.
func (s *Server) stop() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.cancel()
	s.conn.CancelAll()
	s.budget.stop()
	s.whatif.stop()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	timer := time.NewTimer(exitGrace)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		s.log.Warn("handlers still running at exit")
	}
	s.lenses.closeAll()
}

// spawn runs fn in a goroutine that stop waits for; it reports false, and
// does not run fn, once the server is stopping.
func (s *Server) spawn(fn func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
	return true
}

// acquire takes a slot for heavy work, or fails when ctx is done first.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	select {
	case s.heavy <- struct{}{}:
		return func() { <-s.heavy }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// returnAbove is how much memory the Go runtime may keep from the OS after
// a pack (heap, stacks and runtime structures not yet released) before the
// server returns it at once. A large pack (a search over thousands of
// files) leaves hundreds of MB of garbage behind it, which the runtime's
// background scavenger would give back only over minutes; a small pack
// stays below and costs nothing. A variable so benchmarks can compare.
var returnAbove uint64 = 96 << 20

// returning is set while a return of memory runs: one at a time.
var returning atomic.Bool

// returnMemory returns memory to the OS after a pack when the runtime
// holds more than returnAbove: a full collection and release
// (debug.FreeOSMemory), run in the background so the pack's answer does
// not wait for it.
func (s *Server) returnMemory() {
	if heldBytes() <= returnAbove || !returning.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer returning.Store(false)
		debug.FreeOSMemory()
		chunker.TrimC() // packs parse with tree-sitter too
	}()
}

// trimDelay is how long after a tree is freed the C heap is trimmed:
// frees in a burst (closing or switching between many files) share one
// trim.
const trimDelay = 200 * time.Millisecond

// trimPending is set while a trim is scheduled.
var trimPending atomic.Bool

// scheduleTrim trims the C heap (chunker.TrimC) trimDelay from now, unless a trim
// is already scheduled. Called after tree-sitter trees are freed: glibc
// keeps their memory otherwise (about 30 MB with 200 open files).
func scheduleTrim() {
	if trimPending.CompareAndSwap(false, true) {
		time.AfterFunc(trimDelay, func() {
			trimPending.Store(false)
			chunker.TrimC()
		})
	}
}

// heldBytes is the memory the Go runtime has mapped and not released to
// the OS: about its share of the resident set.
func heldBytes() uint64 {
	m := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindUint64 || m[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return m[0].Value.Uint64() - m[1].Value.Uint64()
}
