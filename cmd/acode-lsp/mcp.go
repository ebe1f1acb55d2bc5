package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/mcp"
)

// runMCP implements `acode-lsp mcp`: the Model Context Protocol on
// stdin/stdout for coding agents. Logs go to stderr or --log-file, never
// to stdout, which carries only protocol.
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	tools := fs.String("tools", strings.Join(mcp.DefaultTools, ","), "the tools offered, a comma-separated `LIST` of "+strings.Join(mcp.AllTools, ", "))
	root := fs.String("root", "", "workspace root `DIR` when the client offers no roots (default: the working directory)")
	maxResult := tokensFlag(fs, "max-result-tokens", mcp.DefaultMaxResultTokens, "largest tool result, `N` tokens counted on everything a client may pass (25k accepted)")
	logFile := fs.String("log-file", "", "write logs to the file `F` instead of stderr")
	logLevel := fs.String("log-level", "info", "log `level`: debug, info, warn, error")
	noIndex := fs.Bool("no-index", false, "neither read nor write the workspace index in the user's cache directory (docs/index.md)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp mcp [--root DIR] [--tools LIST] [--max-result-tokens N] [flags]\n\n"+
			"Serves the Model Context Protocol on stdio for coding agents. Set-up: docs/agents.md.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acode-lsp mcp: unexpected argument %q (use --root DIR)\n", collector.EscapePath(fs.Arg(0)))
		return 2
	}
	if *maxResult <= 0 {
		return flagError(stderr, "mcp", "max-result-tokens", fmt.Sprint(*maxResult), "must be a positive number of tokens, such as 25000 or 25k")
	}
	toolList, err := mcp.ParseTools(*tools)
	if err != nil {
		return flagError(stderr, "mcp", "tools", *tools, err.Error())
	}
	logger, closeLog, err := newLogger(*logFile, *logLevel, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp mcp: %v\n", err)
		return 2
	}
	defer closeLog()
	srv, err := mcp.New(mcp.Options{Root: *root, Tools: toolList, MaxResultTokens: *maxResult, Logger: logger, Version: version, WorkspaceIndex: !*noIndex, WatchFiles: true})
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
