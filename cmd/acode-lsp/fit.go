package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector/safeio"
	"github.com/acode-lsp/acode-lsp/conversation"
	"github.com/acode-lsp/acode-lsp/lsp"
)

// runFit implements `acode-lsp fit`: a tool output on stdin, the page (or,
// with --mode history, the summary) on stdout, the counts and the cursor of
// the next page on stderr. Exit codes: 0 ok, 1 invalid input, 2 usage, 3
// maxTokens too small for any of an item.
func runFit(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	tool := fs.String("tool", "", "tool `KIND`: project_files, search_content, read_file, vcs_diff, vcs_log (others page by lines)")
	maxTokens := fs.Int("max", conversation.DefaultToolTokens, "tokens the page may use, `N` > 0 (maxTokens)")
	cursor := fs.String("cursor", "", "continuation `C` printed by the previous page")
	mode := fs.String("mode", conversation.ModePage, "`page`, or history for a compressed summary")
	path := fs.String("path", "", "file `PATH` shown in a read_file history summary")
	model := fs.String("model", "", "model `M` whose tokenizer counts (default gpt-4o)")
	tokFile := fs.String("tokenizer-file", "", "count with the Hugging Face tokenizer.json `F` (tokenizerFile) instead of the model's tokenizer")
	pattern := fs.String("pattern", "", "the searched `PATTERN`, named in a search_content history summary")
	maxChars := fs.Int("max-chars", conversation.DefaultHistoryEntryChars, "characters a history summary may use, `N` (0: no cap)")
	historyTokens := fs.Int("history-tokens", 0, "tokens the work history already holds, `N` (history mode)")
	historyCap := fs.Int("history-cap", conversation.DefaultHistoryCap, "the work history's cap in tokens, `N` (history mode)")
	asJSON := fs.Bool("json", false, "print the acode/fitToolResult result object instead of the content")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp fit --tool KIND [--max N] [--cursor C] [--mode history] < output.txt\n\n"+
			"Prints the largest leading page of whole items of a tool output that fits N tokens;\n"+
			"the cursor for the next page is printed on stderr.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acode-lsp fit: unexpected argument %q (the output is read from stdin)\n", fs.Arg(0))
		return 2
	}
	if *maxTokens <= 0 {
		return flagError(stderr, "fit", "max", fmt.Sprint(*maxTokens), fmt.Sprintf("must be a positive number of tokens (leave it out for %d)", conversation.DefaultToolTokens))
	}
	data, err := safeio.ReadAllContext(ctx, stdin, maxStdin) // bounded, ends on a signal
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp fit: read stdin: %v\n", err)
		return 1
	}
	tk, err := conversationTokenizer(*model, *tokFile)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp fit: %v\n", err)
		return 1
	}
	req := conversation.FitRequest{Tool: *tool, Content: string(data), MaxTokens: *maxTokens,
		Cursor: *cursor, Mode: *mode, Path: *path, Model: *model, Pattern: *pattern,
		MaxChars: maxChars, HistoryTokens: historyTokens, HistoryCap: *historyCap, Outline: lsp.FileOutline}
	res, err := conversation.FitToolResult(ctx, tk, req)
	var tooSmall *conversation.Error
	switch {
	case errors.As(err, &tooSmall):
		fmt.Fprintf(stderr, "acode-lsp fit: %s: %s\n", tooSmall.Code, tooSmall.Message)
		return 3
	case err != nil:
		fmt.Fprintf(stderr, "acode-lsp fit: %v\n", err)
		return 1
	}
	out := []byte(res.Content)
	if *asJSON {
		if out, err = marshalCLIResult(res); err != nil {
			fmt.Fprintf(stderr, "acode-lsp fit: %v\n", err)
			return 1
		}
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "acode-lsp fit: write: %v\n", err)
		return 1
	}
	fmt.Fprintln(stderr, conversation.FitReport(res))
	return 0
}

// marshalCLIResult encodes a result object as indented JSON without HTML
// escaping, ending in a newline.
func marshalCLIResult(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return buf.Bytes(), nil
}

// conversationTokenizer is the cached tokenizer of `trim` and `fit`: the
// tokenizer.json file when one is named, else the model's. It comes from
// the run's registry (one per process, as the servers have), so repeated
// texts are counted once.
func conversationTokenizer(model, file string) (tokenizer.Tokenizer, error) {
	reg := tokenizer.NewRegistry()
	if file != "" {
		t, err := tokenizer.ForFile(file)
		if err != nil {
			return nil, err
		}
		return reg.Add(t, 0), nil
	}
	return reg.Get(model, "", 0)
}
