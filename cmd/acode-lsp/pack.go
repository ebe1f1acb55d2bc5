package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// runPack implements `acode-lsp pack [PATH…]`: the files under the paths
// (default .) become open_file sources, packed and printed on stdout.
// Exit codes: 0 packed, 1 packing failed or nothing to pack, 2 usage or
// invalid parameters.
func runPack(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("pack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var toolResults, refs multi
	query := fs.String("query", "", "the task; ranks chunks by lexical relevance to it")
	search := fs.String("search", "", "search the workspace for PATTERN; matches become search_result sources")
	regex := fs.Bool("regex", false, "treat --search as an RE2 regular expression")
	fs.Var(&toolResults, "tool-result", "a file of tool output to include (- = stdin); repeatable")
	fs.Var(&refs, "reference", "PATH[:START-END] to include as a reference; repeatable")
	total := fs.Int("budget", 0, "total tokens (default: the config's total_tokens)")
	sysRes := fs.Int("system-reserve", -1, "tokens reserved for the system prompt (default: the config's)")
	respRes := fs.Int("response-reserve", -1, "tokens reserved for the response (default: the config's)")
	model := fs.String("model", "", "model whose tokenizer counts (default: the config's, else gpt-4o)")
	encoding := fs.String("encoding", "", "encoding to count with ("+strings.Join(tokenizer.Encodings(), ", ")+")")
	tokFile := fs.String("tokenizer-file", "", "a Hugging Face tokenizer.json to count with exactly (default: the config's context.tokenizer.file)")
	cfgPath := fs.String("config", "", "config file (default: .agent/config.yml of the workspace)")
	root := fs.String("root", "", "workspace root (default: the nearest directory up from PATH with .agent/config.yml or .git)")
	tmplPath := fs.String("template", "", "a Go text/template file for the output (data: .Files)")
	maxFile := fs.Int64("max-file-size", collector.DefaultMaxFileSize, "largest file to let in, in bytes")
	showReport := fs.Bool("report", false, "print the budget report on stderr")
	asJSON := fs.Bool("json", false, "print the acode/packContext result object instead of the text")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: acode-lsp pack [PATH…] [flags]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(interleave(fs, args)); err != nil {
		return 2
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	start := paths[0]
	if fi, err := os.Stat(start); err == nil && !fi.IsDir() {
		start = filepath.Dir(start)
	}
	wsRoot := *root
	if wsRoot == "" {
		wsRoot = findRoot(start)
	}
	cfgFile := *cfgPath
	if cfgFile == "" {
		if p := findConfig(wsRoot); p != "" && strings.HasPrefix(p, absOr(wsRoot)) {
			cfgFile = p
		}
	}
	cfg, err := loadConfig(cfgFile, wsRoot)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", err)
		return 2
	}
	ws, err := collector.New(collector.Options{Roots: []string{wsRoot}, Exclude: cfg.Context.Exclude, MaxFileSize: *maxFile})
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", err)
		return 2
	}
	if *tokFile != "" {
		if *encoding != "" {
			fmt.Fprintln(stderr, "acode-lsp pack: give --encoding or --tokenizer-file, not both")
			return 2
		}
		if _, err := tokenizer.ForFile(*tokFile); err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: --tokenizer-file %s: %v\n", *tokFile, err)
			return 2
		}
		*encoding = tokenizer.FilePrefix + *tokFile
	}
	req := pack.Request{Query: *query, Model: *model, Encoding: *encoding, Paths: absAll(paths)}
	if *total > 0 || *sysRes >= 0 || *respRes >= 0 {
		req.Budget = &pack.BudgetParams{}
		if *total > 0 {
			req.Budget.TotalTokens = total
		}
		if *sysRes >= 0 {
			req.Budget.SystemReserve = sysRes
		}
		if *respRes >= 0 {
			req.Budget.ResponseReserve = respRes
		}
	}
	if *search != "" {
		req.Search = &pack.SearchParams{Pattern: *search, Regex: *regex}
	}
	for _, f := range toolResults {
		text, err := readCounted(ctx, f, stdin, defaultCountCap)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: --tool-result %v\n", err)
			return 2
		}
		label := f
		if f == "-" {
			label = "stdin"
		}
		req.Sources = append(req.Sources, pack.SourceParams{Type: "tool_result", Label: label, Content: &text})
	}
	for _, r := range refs {
		path, s, e, err := collector.ParseReference(r)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: --reference %q: %v\n", r, err)
			return 2
		}
		abs, _ := filepath.Abs(path)
		req.Sources = append(req.Sources, pack.SourceParams{Type: "reference", Path: abs, StartLine: s, EndLine: e})
	}
	if *tmplPath != "" {
		text, err := readCounted(ctx, *tmplPath, stdin, defaultCountCap)
		if err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: --template %v\n", err)
			return 2
		}
		req.Template = text
	}
	progress := progressLine(stderr)
	res, err := pack.NewEngine(cfg, ws).Pack(ctx, req, nil, progress)
	progress("", -1)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", packErrText(err))
		var pe *pack.ParamError
		if errors.As(err, &pe) {
			return 2
		}
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(res)
	} else {
		_, _ = io.WriteString(stdout, res.Content)
	}
	if *showReport {
		fmt.Fprint(stderr, pack.Report(res))
	}
	return 0
}

func packErrText(err error) string {
	var pe *pack.ParamError
	var de *pack.Error
	switch {
	case errors.As(err, &pe):
		return fmt.Sprintf("invalid %s: %s", pe.Field, pe.Message)
	case errors.As(err, &de):
		return fmt.Sprintf("%s (%s)", de.Message, de.Code)
	}
	return err.Error()
}

// findRoot returns the nearest directory from start up that holds
// .agent/config.yml, else the nearest holding .git, else start itself.
func findRoot(start string) string {
	abs := absOr(start)
	for _, marker := range []string{filepath.Join(".agent", "config.yml"), ".git"} {
		for dir := abs; ; {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return abs
}

func absOr(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func absAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = absOr(p)
	}
	return out
}

// progressLine returns a progress callback that draws one line on stderr
// when stderr is a terminal (and does nothing otherwise); pct < 0 clears it.
func progressLine(stderr io.Writer) func(string, int) {
	f, ok := stderr.(*os.File)
	if !ok {
		return func(string, int) {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func(string, int) {}
	}
	return func(msg string, pct int) {
		if pct < 0 {
			fmt.Fprint(f, "\r\033[K")
			return
		}
		fmt.Fprintf(f, "\r\033[Kacode-lsp: %s… %d%%", msg, pct)
	}
}
