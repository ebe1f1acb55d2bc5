package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// runCalibrate records the provider's real token count for a text
// (acode/reportUsage on the command line): for a model without a public
// tokenizer the factor of its estimate becomes at least the observed ratio
// plus a margin, kept in $XDG_STATE_HOME/acode-lsp/calibration.json; for a
// model with an exact encoding the count is only checked. A ratio outside
// [0.5, 4] is refused with exit 2 naming --actual (a report can only raise
// a factor).
func runCalibrate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	model := fs.String("model", "", "the model `M` the provider counted for (required)")
	actual := fs.Int("actual", 0, "the provider's real input token count `N` for FILE (required, > 0)")
	asJSON := fs.Bool("json", false, `print {"model","factor","samples"} (as acode/reportUsage)`)
	maxSize := fs.Int64("max-size", defaultCountCap, "largest file to read, in `bytes`")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp calibrate --model M --actual N FILE|-\n\n"+
			"Records that the provider counted N tokens for the text of FILE, so that\n"+
			"estimates for M (a model without a public tokenizer) are never below it.\n"+
			"A report can only raise the factor: N below half or above four times the\n"+
			"o200k_base count of FILE cannot be that text's full count and is refused (exit 2);\n"+
			"with prompt caching, N is input_tokens + cache_read_input_tokens + cache_creation_input_tokens.\n"+
			"State: $XDG_STATE_HOME/acode-lsp/calibration.json (numbers only, never text).\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, interleave(fs, args), stdout, stderr); !ok {
		return code
	}
	switch {
	case *model == "":
		fmt.Fprintln(stderr, "acode-lsp calibrate: --model is required")
		return 2
	case *actual <= 0:
		return flagError(stderr, "calibrate", "actual", fmt.Sprint(*actual), "must be a positive token count")
	case fs.NArg() != 1:
		fmt.Fprintln(stderr, "acode-lsp calibrate: give exactly one FILE (- = stdin): the text the provider counted")
		return 2
	}
	text, err := readCounted(ctx, fs.Arg(0), stdin, *maxSize)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp calibrate: %v\n", err)
		return 1
	}
	res, err := tokenizer.ReportUsage(tokenizer.UsageReport{Model: *model, Text: &text, Actual: *actual})
	var re *tokenizer.RatioError
	if errors.As(err, &re) {
		// A report can only raise a factor (docs/design.md rule 1).
		return flagError(stderr, "calibrate", "actual", fmt.Sprint(*actual), re.Error())
	}
	if res.Model == "" {
		fmt.Fprintf(stderr, "acode-lsp calibrate: %v\n", err)
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp calibrate: not saved (%v); the factor holds for this run only\n", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return exitOf(err)
	}
	switch {
	case res.Exact && *res.Match:
		fmt.Fprintf(stdout, "%s counts exactly: %d tokens, as the provider said; nothing to calibrate\n", *model, *actual)
	case res.Exact:
		tk, _ := tokenizer.ForModel(*model)
		fmt.Fprintf(stdout, "%s counts exactly (%s): acode counts %d tokens, the provider %d — nothing learned (the provider's count may include a chat template or system prompt)\n", *model, tk.Encoding(), tk.Count(text), *actual)
	default:
		fmt.Fprintf(stdout, "%s: estimates are now o200k_base × %g (calibrated from %d reports)\n", *model, res.Factor, res.Samples)
	}
	return exitOf(err)
}

func exitOf(err error) int {
	if err != nil {
		return 1
	}
	return 0
}
