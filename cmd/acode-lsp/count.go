package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector/safeio"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/session"
)

// defaultCountCap is the size cap of `acode-lsp count` (10 MB).
const defaultCountCap = 10 << 20

// maxStdin bounds what `trim` and `fit` read from stdin (256 MiB): a
// conversation or a tool's output, never an endless stream.
const maxStdin = 256 << 20

type countFile struct {
	Path   string `json:"path"`
	Tokens int    `json:"tokens"`
}

type countResult struct {
	Encoding string              `json:"encoding"`
	Exact    bool                `json:"exact"`
	Estimate *tokenizer.Estimate `json:"estimate,omitempty"`
	Files    []countFile         `json:"files"`
	Total    int64               `json:"total"`
}

// runCount prints the exact token count of each file ("-" = stdin) and the
// total. A file that cannot be counted (a directory, unreadable, over the
// cap) is reported on stderr and makes the exit code 1; the others are
// still counted. Invalid UTF-8 is counted after U+FFFD replacement.
func runCount(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	model := fs.String("model", "", "model `M` whose tokenizer counts (default: the config's, else gpt-4o)")
	encoding := fs.String("encoding", "", "encoding `E` to count with: "+strings.Join(tokenizer.Encodings(), ", "))
	tokFile := fs.String("tokenizer-file", "", "a Hugging Face tokenizer.json `F` to count with exactly (default: the config's context.tokenizer.file)")
	asJSON := fs.Bool("json", false, `print {"encoding","exact","files":[{"path","tokens"}],"total"}`)
	maxSize := fs.Int64("max-size", defaultCountCap, "largest file to count, in `bytes`")
	cfgPath := fs.String("config", "", "config `FILE` (default: .agent/config.yml found from the current directory up)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp count [FILE…|-] [--model M | --encoding E | --tokenizer-file F] [--json]\n\nPrints the token count of each file (- = stdin) and the total: exact, or an upper-bound estimate for models without a public tokenizer.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, interleave(fs, args), stdout, stderr); !ok {
		return code
	}
	if *maxSize <= 0 {
		return flagError(stderr, "count", "max-size", fmt.Sprint(*maxSize), "must be a positive number of bytes")
	}
	tok, code := countTokenizerFlags(*cfgPath, *model, *encoding, *tokFile, stderr)
	if code != 0 {
		return code
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	res := countResult{Encoding: tok.Encoding(), Exact: tok.Exact(), Estimate: tokenizer.EstimateOf(tok), Files: []countFile{}}
	failed := false
	for _, f := range files {
		if ctx.Err() != nil {
			return 130
		}
		text, err := readCounted(ctx, f, stdin, *maxSize)
		if ctx.Err() != nil {
			return 130
		}
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp count: %v\n", err)
			failed = true
			continue
		}
		n := tok.Count(text)
		res.Files = append(res.Files, countFile{Path: f, Tokens: n})
		res.Total += int64(n)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
	} else {
		res.print(stdout)
	}
	if failed {
		return 1
	}
	return 0
}

// countTokenizerFlags returns the tokenizer the flags name (a model, an
// encoding or a tokenizer file; else the config's), or the exit code of a
// wrong flag.
func countTokenizerFlags(cfgPath, model, encoding, tokFile string, stderr io.Writer) (tokenizer.Tokenizer, int) {
	switch {
	case model != "" && encoding != "":
		fmt.Fprintln(stderr, "acode-lsp count: give --model or --encoding, not both")
		return nil, 2
	case encoding != "":
		if _, err := tokenizer.ForEncoding(encoding); err != nil {
			return nil, flagError(stderr, "count", "encoding", encoding, "is not an encoding acode-lsp knows; use "+strings.Join(tokenizer.Encodings(), ", "))
		}
		if tokFile != "" {
			fmt.Fprintln(stderr, "acode-lsp count: give --encoding or --tokenizer-file, not both")
			return nil, 2
		}
	}
	if tokFile != "" {
		tok, err := tokenizer.ForFile(tokFile)
		if err != nil {
			return nil, flagError(stderr, "count", "tokenizer-file", tokFile, strings.TrimPrefix(err.Error(), "tokenizer: "))
		}
		return tok, 0
	}
	tok, err := countTokenizer(cfgPath, model, encoding)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp count: %v\n", err)
		return nil, 2
	}
	return tok, 0
}

// print writes the counts as text: one line per file, then the total with
// how it was counted.
func (res countResult) print(w io.Writer) {
	approx := ""
	if !res.Exact {
		approx = "≈"
	}
	for _, f := range res.Files {
		fmt.Fprintf(w, "%s%8d  %s\n", approx, f.Tokens, f.Path)
	}
	kind := "exact"
	if est := res.Estimate; est != nil {
		kind = fmt.Sprintf("estimated upper bound: %s × %g", est.Basis, est.Factor)
		if est.Calibrated {
			kind += fmt.Sprintf(", calibrated from %d reports", est.Samples)
		} else {
			kind += ", not calibrated: acode-lsp calibrate --model M --actual N FILE"
		}
	} else if !res.Exact {
		kind = "estimated, unknown model"
	}
	fmt.Fprintf(w, "%s%8d  total (%s, %s)\n", approx, res.Total, res.Encoding, kind)
}

// readCounted reads a file for counting ("-" = stdin): a regular file only
// (a FIFO, a device or a link to /dev/zero is refused without being read),
// at most maxSize bytes whatever stat says, and cancellable by ctx (a
// signal), also while stdin blocks.
func readCounted(ctx context.Context, path string, stdin io.Reader, maxSize int64) (string, error) {
	if path == "-" {
		data, err := safeio.ReadAllContext(ctx, stdin, maxSize)
		if errors.Is(err, safeio.ErrTooLarge) {
			return "", fmt.Errorf("stdin: more than the %s cap (raise it with --max-size)", humanBytes(maxSize))
		}
		if err != nil {
			return "", fmt.Errorf("stdin: %w", err)
		}
		return string(data), nil
	}
	data, err := safeio.ReadFile(ctx, path, maxSize, safeio.Options{})
	var tl *safeio.TooLargeError
	switch {
	case err == nil:
		return string(data), nil
	case errors.As(err, &tl) && tl.Size > maxSize+1:
		return "", fmt.Errorf("%s: %s is over the %s cap (raise it with --max-size)", path, humanBytes(tl.Size), humanBytes(maxSize))
	case errors.As(err, &tl):
		return "", fmt.Errorf("%s: more than the %s cap (raise it with --max-size)", path, humanBytes(maxSize))
	}
	var nr *safeio.NotRegularError
	if errors.As(err, &nr) && nr.Kind == "directory" {
		return "", fmt.Errorf("%s: is a directory (name the files to count, e.g. %s/*.go)", path, path)
	}
	if errors.As(err, &nr) {
		return "", fmt.Errorf("%s: is a %s, not a regular file; only regular files are counted", path, nr.Kind)
	}
	return "", fmt.Errorf("%s: %w", path, unwrapPathErr(err))
}

// countTokenizer resolves the tokenizer by the core's one rule
// (session.Session.Tokenizer): flags first, then the config file found
// from the current directory up (or --config).
func countTokenizer(cfgPath, model, encoding string) (tokenizer.Tokenizer, error) {
	sess, err := cliSession(cfgPath)
	if err != nil {
		return nil, err
	}
	tok, err := sess.Tokenizer(model, encoding, "")
	if err != nil {
		return nil, errors.New(packErrText(err))
	}
	return tok, nil
}

// cliSession is the core session of a command that reads no workspace
// (count, trim, fit): the configuration of --config, or the one found from
// the current directory up, or the defaults; the root is the current
// directory.
func cliSession(cfgPath string) (*session.Session, error) {
	cfg, err := loadConfig(cfgPath, "")
	if err != nil {
		return nil, err
	}
	return session.New(session.Options{Config: cfg}), nil
}

// loadConfig loads --config, or the .agent/config.yml found from start
// (default: the current directory) upwards, or the defaults.
// Discovery is the core's (session.LoadConfig, upward as the command line
// finds its project's config).
func loadConfig(path, start string) (config.Config, error) {
	if start == "" {
		start = cwd()
	}
	cfg, _, err := session.LoadConfig(start, path, true)
	if err != nil && path != "" {
		if _, statErr := os.Stat(path); statErr != nil {
			return cfg, fmt.Errorf("--config %s: %w", path, unwrapPathErr(statErr))
		}
	}
	return cfg, err
}

func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// interleave lets flags follow positional arguments ("count a.go --json"),
// as users of gopls-style tools expect: it moves flags in front.
func interleave(fs *flag.FlagSet, args []string) []string {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && a != "-" {
			flags = append(flags, a)
			name := a[1:]
			if len(name) > 0 && name[0] == '-' {
				name = name[1:]
			}
			if eq := indexByte(name, '='); eq >= 0 {
				continue
			}
			if f := fs.Lookup(name); f != nil {
				if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() {
					continue
				}
				if i+1 == len(args) {
					return []string{a} // the flag lacks its value: let Parse say so
				}
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	// "--" ends the flags, so a flag missing its value at the end is reported
	// as such instead of taking a moved positional argument.
	if len(pos) == 0 {
		return flags
	}
	return append(append(flags, "--"), pos...)
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
