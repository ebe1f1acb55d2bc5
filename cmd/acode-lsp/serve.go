package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/acode-lsp/acode-lsp/lsp"
)

// runServe speaks LSP on stdin/stdout. Logs go to stderr or --log-file,
// never to stdout, which carries only protocol.
func runServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	logFile := fs.String("log-file", "", "write logs to this `FILE` instead of stderr")
	logLevel := fs.String("log-level", "info", "log `level`: debug, info, warn, error")
	noIndex := fs.Bool("no-index", false, "neither read nor write the workspace index in the user's cache directory (docs/index.md)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp [serve] [flags]\n\nSpeaks the Language Server Protocol on stdin/stdout; logs go to stderr or --log-file.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	logger, closeLog, err := newLogger(*logFile, *logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp serve: %v\n", err)
		return 2
	}
	defer closeLog()
	return lsp.Serve(ctx, stdin, stdout, lsp.Options{Logger: logger, LogLevel: *logLevel, Version: version, WorkspaceIndex: !*noIndex})
}

// newLogger builds a zap logger writing JSON lines to a file or stderr.
func newLogger(file, level string, stderr io.Writer) (*zap.Logger, func(), error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	var sink zapcore.WriteSyncer = zapcore.AddSync(stderr)
	closeFn := func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		sink = zapcore.AddSync(f)
		closeFn = func() { _ = f.Close() }
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	core := zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(sink), lvl)
	return zap.New(core).Named("acode-lsp"), closeFn, nil
}
