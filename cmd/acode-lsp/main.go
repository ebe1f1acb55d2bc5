// Command acode-lsp is a language server that packs code context for LLM
// prompts under a token budget it never exceeds, and a command line for the
// same work.
//
//	acode-lsp [serve]             speak LSP on stdin/stdout
//	acode-lsp pack [PATH…]        pack files into a context (stdout)
//	acode-lsp count [FILE…|-]     exact token counts
//	acode-lsp config validate     check .agent/config.yml
//	acode-lsp trim / fit          conversation budgets for agents
//	acode-lsp mcp [--root DIR]    Model Context Protocol for agents
//	acode-lsp clear-cache [PATH]  remove the workspace index from the cache
//	acode-lsp version
//
// This file only dispatches; each subcommand lives in its own file.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go exitAfterSignal(ctx, stop, signalGrace)
	if len(os.Args) > 1 && os.Args[1] != "serve" && os.Args[1] != "mcp" {
		// A one-shot command: its GC is tuned (gctune.go). Its syntax
		// trees are freed once used, as a server's are (leaving the
		// first 1 MB of source's trees to the exit held 15–20 MB of C
		// heap through the rest of a pack and the index's job, for no
		// CPU measurable: docs/benchmarks.md, "The first query pack's
		// memory (eighth pass, first11)").
		tuneGC()
	}
	endProfiles := startProfiles(os.Stderr) // ACODE_CPUPROFILE, ACODE_MEMPROFILE (profile.go)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	endProfiles()
	stop()
	os.Exit(code)
}

// signalGrace is how long a command may take to wind down after SIGINT or
// SIGTERM before the process exits anyway.
const signalGrace = 2 * time.Second

// exitAfterSignal ends the process promptly after a signal, whatever the
// command is doing: the command sees its context canceled and normally
// returns at once; if it is stuck (a read the kernel does not interrupt),
// the process exits with 130 after grace. A second signal kills at once
// (stop restores the default handling).
func exitAfterSignal(ctx context.Context, stop func(), grace time.Duration) {
	<-ctx.Done()
	stop()
	time.Sleep(grace)
	fmt.Fprintln(os.Stderr, "acode-lsp: interrupted")
	os.Exit(130)
}

// run dispatches a command line and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return runServe(ctx, nil, stdin, stdout, stderr)
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return runServe(ctx, rest, stdin, stdout, stderr)
	case "pack":
		return runPack(ctx, rest, stdin, stdout, stderr)
	case "count":
		return runCount(ctx, rest, stdin, stdout, stderr)
	case "calibrate":
		return runCalibrate(ctx, rest, stdin, stdout, stderr)
	case "config":
		return runConfig(ctx, rest, stdin, stdout, stderr)
	case "trim":
		return runTrim(ctx, rest, stdin, stdout, stderr)
	case "fit":
		return runFit(ctx, rest, stdin, stdout, stderr)
	case "mcp":
		return runMCP(ctx, rest, stdin, stdout, stderr)
	case "clear-cache":
		return runClearCache(ctx, rest, stdin, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintf(stdout, "acode-lsp %s\n", version)
		return 0
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return 0
	default:
		if len(cmd) > 0 && cmd[0] == '-' {
			// Flags without a subcommand belong to serve (editors start
			// `acode-lsp --log-level debug`).
			return runServe(ctx, args, stdin, stdout, stderr)
		}
		fmt.Fprintf(stderr, "acode-lsp: unknown command %q\nRun 'acode-lsp -h' for the commands.\n", cmd)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `acode-lsp packs code context for LLM prompts under an exact token budget.

Usage:
  acode-lsp [serve] [--log-file F] [--log-level L]   language server on stdio
  acode-lsp pack [PATH…] [flags]                      pack files into a context (stdout)
  acode-lsp count [FILE…|-] [--model M|--encoding E|--tokenizer-file F] [--json]
  acode-lsp calibrate --model M --actual N FILE       record a provider's real count (estimates)
  acode-lsp config validate [--config FILE]
  acode-lsp trim --max N [--reserve N] [--model M] < conversation.json
  acode-lsp fit --tool KIND --max N [--cursor C] < output.txt
  acode-lsp mcp [--root DIR] [--max-result-tokens N]  Model Context Protocol on stdio (agents)
  acode-lsp clear-cache [PATH] [--all]                remove the workspace index from the cache
  acode-lsp version

Run 'acode-lsp COMMAND -h' for the flags of a command. Docs: docs/ in the repository.
`)
}
