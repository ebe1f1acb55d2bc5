package lsp

import (
	"context"
	"io"
	"os"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Options configures [Serve]. The zero value works: no logging, defaults
// everywhere.
type Options struct {
	// Logger receives the server's logs (paths, sizes, timings; never file
	// content). Nil means a logger on stderr at LogLevel, or no logging when
	// LogLevel is empty too. It must never write to stdout.
	Logger *zap.Logger
	// LogLevel is the zap level name ("debug", "info", "warn", "error")
	// used when Logger is nil.
	LogLevel string
	// Version is reported in serverInfo.
	Version string

	// MaxMessageBytes is the largest message body accepted (0:
	// DefaultMaxMessageBytes).
	MaxMessageBytes int64
	// BudgetDebounce is the quiet time before an acode/budget notification
	// (0: DefaultBudgetDebounce).
	BudgetDebounce time.Duration
	// ConfigPollInterval is how often the server checks .agent/config.yml
	// itself when the client cannot watch files (0: DefaultConfigPoll).
	ConfigPollInterval time.Duration
	// ClientTimeout bounds every request the server sends the editor
	// (workspace/configuration, registrations, progress tokens, lens
	// refreshes): an editor that does not answer in time is given up on
	// and the server goes on without its answer (0: DefaultClientTimeout).
	ClientTimeout time.Duration
	// WorkspaceIndex keeps the persistent workspace index of each root in
	// the user's cache directory (docs/index.md); the command turns it on
	// unless --no-index.
	WorkspaceIndex bool
}

// Defaults of [Options].
const (
	// DefaultMaxMessageBytes is the largest message body accepted when
	// [Options].MaxMessageBytes is zero. Larger messages are answered with
	// an error and skipped without being buffered.
	DefaultMaxMessageBytes = rpc.DefaultMaxMessageBytes

	DefaultBudgetDebounce = 200 * time.Millisecond
	// DefaultClientTimeout is how long the server waits for the editor's
	// answer to one of its requests (seed FR-016-30: sources time out).
	DefaultClientTimeout = 5 * time.Second
	DefaultConfigPoll    = 2 * time.Second
)

// exitGrace bounds how long Serve waits, after exit, for the read loop and
// the handlers still running to notice the end.
const exitGrace = 2 * time.Second

// Serve speaks LSP over in and out (stdin and stdout in production) until
// the client sends exit, in reaches EOF, or ctx is done. It returns the
// process exit code: 0 after shutdown then exit, 1 otherwise (exit without
// shutdown, or the stream ended first), as the LSP specification asks.
//
// Nothing but protocol frames is written to out. When in is an io.Closer it
// is closed before Serve returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) int {
	return serve(ctx, in, out, opts, nil)
}

// serve is Serve with a hook that sees the server before it starts
// reading (tests add methods with it).
func serve(ctx context.Context, in io.Reader, out io.Writer, opts Options, setup func(*Server)) int {
	log := opts.logger()
	max := opts.MaxMessageBytes
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	conn := rpc.NewConn(in, out, max, log)
	s := newServer(ctx, conn, opts, log)
	if setup != nil {
		setup(s)
	}
	log.Info("serving", zap.String("version", opts.Version), zap.Int("pid", os.Getpid()))
	conn.Start(ctx, s.handlers())

	// Defect: closing stdin does not unblock a pending read, so the end is
	// the exit notification (an exit channel), not the end of the input.
	select {
	case <-s.exited:
	case <-conn.Done():
		if err := conn.Err(); err != nil {
			log.Info("connection ended", zap.Error(err))
		}
	case <-ctx.Done():
	}
	code := 1
	if conn.State() == rpc.StateShutdown {
		code = 0
	}
	s.stop()
	s.conf.index.close()
	if err := conn.Close(); err != nil {
		log.Debug("close input", zap.Error(err))
	}
	// Closing a pipe or a socket ends the read loop; closing an *os.File
	// (stdin) does not, and the process is about to exit anyway, so the
	// loop is only waited for when it can end.
	if _, isFile := in.(*os.File); !isFile {
		timer := time.NewTimer(exitGrace)
		defer timer.Stop()
		select {
		case <-conn.Done():
		case <-timer.C:
			log.Warn("read loop still blocked at exit")
		}
	}
	log.Info("exit", zap.Int("code", code))
	_ = log.Sync()
	return code
}

// handlers routes the session's messages: the lifecycle methods, the
// tables of requests and notifications, and how requests run (in the
// session's context, as goroutines the session waits for, with the pack
// logger, domain errors mapped by errmap.go).
func (s *Server) handlers() rpc.Handlers {
	return rpc.Handlers{
		Initialize:    rpc.Request(s.initialize),
		Shutdown:      s.shutdown,
		Exit:          s.exit,
		Requests:      s.requests,
		Notifications: s.notifications,
		Context:       s.ctx,
		Go:            s.spawn,
		WithLogger:    pack.WithLogger,
		MapError:      domainError,
	}
}

// logger returns the logger of o.
func (o Options) logger() *zap.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	if o.LogLevel == "" {
		return zap.NewNop()
	}
	level, err := zapcore.ParseLevel(o.LogLevel)
	if err != nil {
		level = zapcore.InfoLevel
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	return zap.New(zapcore.NewCore(enc, zapcore.Lock(os.Stderr), level))
}
