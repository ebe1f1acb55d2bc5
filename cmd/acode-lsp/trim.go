package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector/safeio"
	"github.com/acode-lsp/acode-lsp/conversation"
)

// runTrim implements `acode-lsp trim`: a conversation (OpenAI chat-messages
// JSON) on stdin, the trimmed conversation in the same shape on stdout, a
// report on stderr. Exit codes: 0 ok, 1 invalid input, 2 usage, 3 the
// conversation cannot fit (ACODE-CTX-003).
func runTrim(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trim", flag.ContinueOnError)
	maxTokens := fs.Int("max", 0, "context window in tokens, `N` > 0 (maxContextTokens; default: the model's known window)")
	reserve := fs.Int("reserve", 0, "tokens reserved for the response, `N` ≥ 0 (reservedOutputTokens)")
	model := fs.String("model", "", "model `M` whose tokenizer counts (default gpt-4o, or the input's \"model\")")
	turns := fs.Int("preserve-turns", conversation.DefaultPreserveRecentTurns, "recent turns never dropped, `N` (preserveRecentTurns)")
	maxAge := fs.Int("max-age", conversation.DefaultMaxAge, "assistant steps after which tool outputs are truncated first, `N` (maxAge)")
	small := fs.Int("small-output", conversation.DefaultSmallOutputThreshold, "tool outputs under `N` tokens survive the first pass (smallOutputThreshold)")
	keepErrors := fs.Bool("preserve-errors", true, "error outputs survive the first pass (preserveErrors)")
	asJSON := fs.Bool("json", false, "print the acode/trimConversation result object instead of the messages")
	check := fs.Bool("check", false, "only measure: print the acode/checkConversation result (maxInputTokens, currentTokens, availableTokens, withinBudget, …), trim nothing")
	tokFile := fs.String("tokenizer-file", "", "count with the Hugging Face tokenizer.json `F` (tokenizerFile) instead of the model's tokenizer")
	markers := fs.Bool("markers", false, "mark placeholders with \"_truncated\": true and \"_originalTokens\": N (markers; strip them before sending)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp trim --max N [--reserve N] [--model M] [--check] [flags] < conversation.json\n\n"+
			"Trims an OpenAI chat-messages conversation (a JSON array, or an object with \"messages\")\n"+
			"to fit max − reserve tokens and prints it in the same shape; the report goes to stderr.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	switch {
	case flagSet(fs, "max") && *maxTokens <= 0:
		return flagError(stderr, "trim", "max", fmt.Sprint(*maxTokens), "must be a positive number of tokens (the model's context window)")
	case *reserve < 0:
		return flagError(stderr, "trim", "reserve", fmt.Sprint(*reserve), "must not be negative")
	case *turns < 0:
		return flagError(stderr, "trim", "preserve-turns", fmt.Sprint(*turns), "must not be negative")
	case *maxAge < 0:
		return flagError(stderr, "trim", "max-age", fmt.Sprint(*maxAge), "must not be negative")
	case *small < 0:
		return flagError(stderr, "trim", "small-output", fmt.Sprint(*small), "must not be negative")
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acode-lsp trim: unexpected argument %q (the conversation is read from stdin)\n", fs.Arg(0))
		return 2
	}
	data, err := safeio.ReadAllContext(ctx, stdin, maxStdin) // bounded, ends on a signal
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: read stdin: %v\n", err)
		return 1
	}
	in, err := conversation.ParseTrimInput(data)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	req := in.Request
	fs.Visit(func(f *flag.Flag) { // flags given on the command line win over the input's params
		switch f.Name {
		case "max":
			req.MaxContextTokens = *maxTokens
		case "reserve":
			req.ReservedOutputTokens = *reserve
		case "model":
			req.Model = *model
		case "preserve-turns":
			req.PreserveRecentTurns = turns
		case "max-age":
			req.MaxAge = maxAge
		case "small-output":
			req.SmallOutputThreshold = small
		case "preserve-errors":
			req.PreserveErrors = keepErrors
		case "markers":
			req.Markers = markers
		case "tokenizer-file":
			req.TokenizerFile = *tokFile
		}
	})
	tk, err := conversationTokenizer(req.Model, req.TokenizerFile)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	if *check {
		return runTrimCheck(ctx, tk, req, stdout, stderr)
	}
	res, err := conversation.Trim(ctx, tk, req)
	var overflow *conversation.Error
	switch {
	case errors.As(err, &overflow):
		fmt.Fprintf(stderr, "acode-lsp trim: %s: %s\n", overflow.Code, overflow.Message)
		return 3
	case err != nil && req.MaxContextTokens == 0 && strings.Contains(err.Error(), "maxContextTokens"):
		fmt.Fprintln(stderr, "acode-lsp trim: give --max N (the context window): the input has no maxContextTokens and its model's window is not known")
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	var out []byte
	if *asJSON {
		out, err = marshalCLIResult(res)
	} else {
		out, err = in.Output(res.Messages)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: write: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, conversation.TrimReport(res, tk.Encoding(), tk.Exact()))
	return 0
}

// runTrimCheck implements `acode-lsp trim --check`: the acode/checkConversation
// result on stdout, a one-line report on stderr, nothing trimmed. Exit 0
// whether or not the conversation is within budget (read withinBudget).
func runTrimCheck(ctx context.Context, tk tokenizer.Tokenizer, req conversation.TrimRequest, stdout, stderr io.Writer) int {
	res, err := conversation.CheckConversation(ctx, tk, conversation.CheckRequest{
		Messages: req.Messages, Model: req.Model, MaxContextTokens: req.MaxContextTokens, ReservedOutputTokens: req.ReservedOutputTokens})
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	out, err := marshalCLIResult(res)
	if err == nil {
		_, err = stdout.Write(out)
	}
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: write: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, conversation.CheckReport(res, tk.Encoding(), tk.Exact()))
	return 0
}
