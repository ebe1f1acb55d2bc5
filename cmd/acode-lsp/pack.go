package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
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
	var toolResults, refs multi
	query := fs.String("query", "", "the task, `TEXT`; ranks chunks by lexical relevance to it")
	search := fs.String("search", "", "search the workspace for `PATTERN`; matches become search_result sources")
	regex := fs.Bool("regex", false, "treat --search as an RE2 regular expression")
	fs.Var(&toolResults, "tool-result", "a `FILE` of tool output to include (- = stdin); repeatable")
	fs.Var(&refs, "reference", "`PATH[:START-END]` to include as a reference; repeatable")
	total := fs.Int("budget", 0, "total tokens, `N` > 0 (default: the config's total_tokens)")
	sysRes := fs.Int("system-reserve", 0, "tokens reserved for the system prompt, `N` ≥ 0 (default: the config's)")
	respRes := fs.Int("response-reserve", 0, "tokens reserved for the response, `N` ≥ 0 (default: the config's)")
	model := fs.String("model", "", "model `M` whose tokenizer counts (default: the config's, else gpt-4o)")
	encoding := fs.String("encoding", "", "encoding `E` to count with: "+strings.Join(tokenizer.Encodings(), ", "))
	tokFile := fs.String("tokenizer-file", "", "a Hugging Face tokenizer.json `F` to count with exactly (default: the config's context.tokenizer.file)")
	cfgPath := fs.String("config", "", "config `FILE` (default: .agent/config.yml of the workspace)")
	root := fs.String("root", "", "workspace root `DIR` (default: the nearest directory up from PATH with .agent/config.yml or .git)")
	tmplPath := fs.String("template", "", "a Go text/template `FILE` for the output (data: .Files)")
	format := fs.String("format", pack.FormatMarkdown, "output `format`: markdown or xml")
	maxFile := fs.Int64("max-file-size", collector.DefaultMaxFileSize, "largest file to let in, in `bytes`")
	showReport := fs.Bool("report", false, "print the budget report on stderr")
	asJSON := fs.Bool("json", false, "print the acode/packContext result object instead of the text")
	preview := fs.Bool("preview", false, "print what the pack would include and exclude (acode/previewContext JSON), without formatting")
	noIndex := fs.Bool("no-index", false, "neither read nor write the workspace index in the user's cache directory (docs/index.md)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp pack [PATH…] [flags]\n\nPacks the files under each PATH (default .) into a context on stdout.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, interleave(fs, args), stdout, stderr); !ok {
		return code
	}
	switch {
	case flagSet(fs, "budget") && *total <= 0:
		return flagError(stderr, "pack", "budget", fmt.Sprint(*total), "must be a positive number of tokens (leave it out to use the config's total_tokens)")
	case flagSet(fs, "system-reserve") && *sysRes < 0:
		return flagError(stderr, "pack", "system-reserve", fmt.Sprint(*sysRes), "must not be negative")
	case flagSet(fs, "response-reserve") && *respRes < 0:
		return flagError(stderr, "pack", "response-reserve", fmt.Sprint(*respRes), "must not be negative")
	case *maxFile <= 0:
		return flagError(stderr, "pack", "max-file-size", fmt.Sprint(*maxFile), "must be a positive number of bytes")
	case flagSet(fs, "search") && strings.TrimSpace(*search) == "":
		return flagError(stderr, "pack", "search", *search, "is empty; give the text (or with --regex, the pattern) to search for")
	}
	if *encoding != "" {
		if _, err := tokenizer.ForEncoding(*encoding); err != nil {
			return flagError(stderr, "pack", "encoding", *encoding, "is not an encoding acode-lsp knows; use "+strings.Join(tokenizer.Encodings(), ", "))
		}
	}
	switch *format {
	case pack.FormatMarkdown, pack.FormatXML:
		if *format == pack.FormatXML && *tmplPath != "" {
			fmt.Fprintln(stderr, "acode-lsp pack: --format xml cannot be combined with --template; leave out one of them")
			return 2
		}
	default:
		fmt.Fprintf(stderr, "acode-lsp pack: --format %q: unknown format; use markdown or xml\n", collector.EscapePath(*format))
		return 2
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: %s: %v\n", p, unwrapPathErr(err))
			return 2
		}
	}
	start := paths[0]
	if fi, err := os.Stat(start); err == nil && !fi.IsDir() {
		start = filepath.Dir(start)
	}
	wsRoot := *root
	if wsRoot == "" {
		wsRoot = findRoot(start)
	} else if fi, err := os.Stat(wsRoot); err != nil || !fi.IsDir() {
		why := "is not a directory"
		if err != nil {
			why = unwrapPathErr(err).Error()
		}
		return flagError(stderr, "pack", "root", wsRoot, why)
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
			return flagError(stderr, "pack", "tokenizer-file", *tokFile, strings.TrimPrefix(err.Error(), "tokenizer: "))
		}
		*encoding = tokenizer.FilePrefix + *tokFile
	}
	req := pack.Request{Query: *query, Model: *model, Encoding: *encoding, Paths: absAll(paths)}
	if flagSet(fs, "budget") || flagSet(fs, "system-reserve") || flagSet(fs, "response-reserve") {
		req.Budget = &config.BudgetOverrides{}
		if flagSet(fs, "budget") {
			req.Budget.TotalTokens = total
		}
		if flagSet(fs, "system-reserve") {
			req.Budget.SystemReserve = sysRes
		}
		if flagSet(fs, "response-reserve") {
			req.Budget.ResponseReserve = respRes
		}
	}
	if *search != "" {
		req.Search = &pack.Search{Pattern: *search, Regex: *regex}
	}
	for _, f := range toolResults {
		text, err := readCounted(ctx, f, stdin, defaultCountCap)
		if err != nil {
			return flagError(stderr, "pack", "tool-result", f, strings.TrimPrefix(err.Error(), f+": "))
		}
		label := f
		if f == "-" {
			label = "stdin"
		}
		req.Sources = append(req.Sources, pack.Source{Type: "tool_result", Label: label, Content: &text})
	}
	for _, r := range refs {
		path, s, e, err := collector.ParseReference(r)
		if err != nil {
			return flagError(stderr, "pack", "reference", r, err.Error())
		}
		fi, err := os.Stat(path)
		if err != nil {
			return flagError(stderr, "pack", "reference", r, fmt.Sprintf("%s: %v", path, unwrapPathErr(err)))
		}
		if fi.IsDir() {
			return flagError(stderr, "pack", "reference", r, path+" is a directory; name a file (PATH[:START-END])")
		}
		abs, _ := filepath.Abs(path)
		req.Sources = append(req.Sources, pack.Source{Type: "reference", Path: abs, StartLine: s, EndLine: e})
	}
	req.Format = *format
	if *tmplPath != "" {
		text, err := readCounted(ctx, *tmplPath, stdin, defaultCountCap)
		if err != nil {
			return flagError(stderr, "pack", "template", *tmplPath, strings.TrimPrefix(err.Error(), *tmplPath+": "))
		}
		req.Template = text
	}
	engine := pack.NewEngine(cfg, ws)
	closeIndex := withIndex(engine, []string{wsRoot}, *noIndex)
	defer closeIndex()
	if *preview {
		return printPreview(ctx, engine, req, stdout, stderr)
	}
	progress := progressLine(stderr)
	res, err := engine.Pack(ctx, req, nil, progress)
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
	if req.Search != nil && !searchMatched(res) {
		fmt.Fprintf(stderr, "acode-lsp pack: --search %q: no match in %s\n", *search, wsRoot)
	}
	if len(res.Included) == 0 {
		fmt.Fprintf(stderr, "acode-lsp pack: %s\n", nothingFits(res))
		return 1
	}
	return 0
}

// nothingFits says why a pack came out empty and what to change.
func nothingFits(res *pack.Result) string {
	b := res.Budget
	return fmt.Sprintf("no chunk fits the %s tokens available (--budget %s − reserves %s − %s), so the context is empty: raise --budget or lower --system-reserve/--response-reserve (--report shows every chunk's size)",
		comma(int64(b.Available)), comma(int64(b.Total)), comma(int64(b.SystemReserve)), comma(int64(b.ResponseReserve)))
}

// searchMatched reports whether the search gave any chunk, packed or not.
func searchMatched(res *pack.Result) bool {
	for _, x := range res.Included {
		if x.Type == "search_result" {
			return true
		}
	}
	for _, x := range res.Excluded {
		if x.Type == "search_result" && (x.Reason == "over_budget" || x.Reason == "duplicate" || x.Reason == "merged") {
			return true
		}
	}
	return false
}

// printPreview prints the acode/previewContext result of req as JSON.
func printPreview(ctx context.Context, e *pack.Engine, req pack.Request, stdout, stderr io.Writer) int {
	pv, err := e.Preview(ctx, req, nil)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", packErrText(err))
		var pe *pack.ParamError
		if errors.As(err, &pe) {
			return 2
		}
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(pv)
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
