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
	f := newTrimFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp trim --max N [--reserve N] [--model M] [--check] [flags] < conversation.json\n\n"+
			"Trims an OpenAI chat-messages conversation (a JSON array, or an object with \"messages\")\n"+
			"to fit max − reserve tokens and prints it in the same shape; the report goes to stderr.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if code := f.check(fs, stderr); code != 0 {
		return code
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
	f.apply(fs, &req)
	// The core counts as every door does: the model or tokenizer file asked
	// for, else the configuration's tokenizer (found from the current
	// directory up), and redacts the messages as a pack would.
	sess, err := cliSession("")
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
		return 1
	}
	if req.TokenizerFile != "" {
		req.TokenizerFile = absOr(req.TokenizerFile)
	}
	tk, err := sess.Tokenizer(req.Model, "", req.TokenizerFile)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp trim: %s\n", flagErrOf(err, "model", "--model", "tokenizerFile", "--tokenizer-file"))
		return exitCode(err)
	}
	if *f.checkOnly {
		return runTrimCheck(ctx, tk, req, stdout, stderr)
	}
	res, err := sess.Trim(ctx, req)
	if err != nil {
		return trimFailed(err, req, stderr)
	}
	var out []byte
	if *f.asJSON {
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

// trimFlags are the flags of `acode-lsp trim`; each names the request
// field it sets.
type trimFlags struct {
	maxTokens, reserve, small     *int
	turns, maxAge                 *int
	model, tokFile                *string
	keepErrors, asJSON, checkOnly *bool
	markers                       *bool
}

// newTrimFlags defines the flags of trim on fs.
func newTrimFlags(fs *flag.FlagSet) *trimFlags {
	f := &trimFlags{}
	f.maxTokens = tokensFlag(fs, "max", 0, "context window in tokens, `N` > 0, 128k accepted (maxContextTokens; default: the model's known window)")
	f.reserve = tokensFlag(fs, "reserve", 0, "tokens reserved for the response, `N` ≥ 0 (reservedOutputTokens)")
	f.model = fs.String("model", "", "model `M` whose tokenizer counts (default gpt-4o, or the input's \"model\")")
	f.turns = fs.Int("preserve-turns", conversation.DefaultPreserveRecentTurns, "recent turns never dropped, `N` (preserveRecentTurns)")
	f.maxAge = fs.Int("max-age", conversation.DefaultMaxAge, "assistant steps after which tool outputs are truncated first, `N` (maxAge)")
	f.small = tokensFlag(fs, "small-output", conversation.DefaultSmallOutputThreshold, "tool outputs under `N` tokens survive the first pass (smallOutputThreshold)")
	f.keepErrors = fs.Bool("preserve-errors", true, "error outputs survive the first pass (preserveErrors)")
	f.asJSON = fs.Bool("json", false, "print the acode/trimConversation result object instead of the messages")
	f.checkOnly = fs.Bool("check", false, "only measure: print the acode/checkConversation result (maxInputTokens, currentTokens, availableTokens, withinBudget, …), trim nothing")
	f.tokFile = fs.String("tokenizer-file", "", "count with the Hugging Face tokenizer.json `F` (tokenizerFile) instead of the model's tokenizer")
	f.markers = fs.Bool("markers", false, "mark placeholders with \"_truncated\": true and \"_originalTokens\": N (markers; strip them before sending)")
	return f
}

// check rejects flag values that cannot be right, naming the flag.
func (f *trimFlags) check(fs *flag.FlagSet, stderr io.Writer) int {
	switch {
	case flagSet(fs, "max") && *f.maxTokens <= 0:
		return flagError(stderr, "trim", "max", fmt.Sprint(*f.maxTokens), "must be a positive number of tokens (the model's context window)")
	case *f.reserve < 0:
		return flagError(stderr, "trim", "reserve", fmt.Sprint(*f.reserve), "must not be negative")
	case *f.turns < 0:
		return flagError(stderr, "trim", "preserve-turns", fmt.Sprint(*f.turns), "must not be negative")
	case *f.maxAge < 0:
		return flagError(stderr, "trim", "max-age", fmt.Sprint(*f.maxAge), "must not be negative")
	case *f.small < 0:
		return flagError(stderr, "trim", "small-output", fmt.Sprint(*f.small), "must not be negative")
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "acode-lsp trim: unexpected argument %q (the conversation is read from stdin)\n", fs.Arg(0))
		return 2
	}
	return 0
}

// apply sets the request fields of the flags given on the command line,
// which win over the input's params.
func (f *trimFlags) apply(fs *flag.FlagSet, req *conversation.TrimRequest) {
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "max":
			req.MaxContextTokens = *f.maxTokens
		case "reserve":
			req.ReservedOutputTokens = *f.reserve
		case "model":
			req.Model = *f.model
		case "preserve-turns":
			req.PreserveRecentTurns = f.turns
		case "max-age":
			req.MaxAge = f.maxAge
		case "small-output":
			req.SmallOutputThreshold = f.small
		case "preserve-errors":
			req.PreserveErrors = f.keepErrors
		case "markers":
			req.Markers = f.markers
		case "tokenizer-file":
			req.TokenizerFile = *f.tokFile
		}
	})
}

// trimFailed reports a trim that failed and returns its exit code: 3 when
// the conversation cannot fit (ACODE-CTX-003), 1 for invalid input.
func trimFailed(err error, req conversation.TrimRequest, stderr io.Writer) int {
	var overflow *conversation.Error
	switch {
	case errors.As(err, &overflow):
		fmt.Fprintf(stderr, "acode-lsp trim: %s: %s\n", overflow.Code, overflow.Message)
		return exitCode(err)
	case req.MaxContextTokens == 0 && strings.Contains(err.Error(), "maxContextTokens"):
		fmt.Fprintln(stderr, "acode-lsp trim: give --max N (the context window): the input has no maxContextTokens and its model's window is not known")
		return 1
	}
	fmt.Fprintf(stderr, "acode-lsp trim: %v\n", err)
	return exitFailed // invalid input on stdin (documented: exit 1)
}

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
