package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/mcp"
)

// runMCP implements `acode-lsp mcp`: the Model Context Protocol on
// stdin/stdout for coding agents. Logs go to stderr or --log-file, never
// to stdout, which carries only protocol.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := fs.String("root", "", "workspace root when the client offers no roots (default: the working directory)")
	maxResult := fs.Int("max-result-tokens", mcp.DefaultMaxResultTokens, "largest tool result text, in tokens of the request's tokenizer")
	logFile := fs.String("log-file", "", "write logs to this file instead of stderr")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn, error")
	noIndex := fs.Bool("no-index", false, "neither read nor write the workspace index in the user's cache directory (docs/index.md)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: acode-lsp mcp [--root DIR] [--max-result-tokens N] [--log-file F] [--log-level L] [--no-index]\n\n"+
			"Serves the Model Context Protocol on stdio (tools: pack_context, count_tokens,\nfit_tool_result, trim_conversation). Set-up for agents: docs/agents.md.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acode-lsp mcp: unexpected argument %q (use --root DIR)\n", fs.Arg(0))
		return 2
	}
	if *maxResult <= 0 {
		fmt.Fprintf(stderr, "acode-lsp mcp: --max-result-tokens must be positive, got %d\n", *maxResult)
		return 2
	}
	logger, closeLog, err := newLogger(*logFile, *logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp mcp: %v\n", err)
		return 2
	}
	defer closeLog()
	srv, err := mcp.New(mcp.Options{Root: *root, MaxResultTokens: *maxResult, Logger: logger, Version: version, WorkspaceIndex: !*noIndex})
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp mcp: --root: %v\n", err)
		return 2
	}
	if err := srv.Serve(ctx, stdin, stdout); err != nil {
		logger.Error("mcp server stopped", zap.Error(err))
		return 1
	}
	return 0
}
