package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/pack"
	"github.com/acode-lsp/acode-lsp/session"
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
	f := newPackFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: acode-lsp pack [PATH…] [flags]\n\nPacks the files under each PATH (default .) into a context on stdout.\n\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, interleave(fs, args), stdout, stderr); !ok {
		return code
	}
	if code := f.check(fs, stderr); code != 0 {
		return code
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"."}
	}
	wsRoot, code := packRoot(paths, *f.root, stderr)
	if code != 0 {
		return code
	}
	cfgFile := *f.cfgPath
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
	req, code := f.request(ctx, fs, paths, cfg, stdin, stderr)
	if code != 0 {
		return code
	}
	ix, closeIndex := openIndex([]string{absOr(wsRoot)}, *f.noIndex)
	defer closeIndex()
	sess := session.New(session.Options{Roots: []string{absOr(wsRoot)}, Config: cfg, MaxFileSize: *f.maxFile, Index: ix})
	if err := sess.WorkspaceErr(); err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", err)
		return 2
	}
	pack.OneOff() // this process packs once: no memo for later packs
	if *f.preview {
		return printPreview(ctx, sess, req, stdout, stderr)
	}
	progress := progressLine(stderr)
	res, err := sess.Pack(ctx, req, nil, progress)
	progress("", -1)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", flagErrOf(err, packFlagFields...))
		return exitCode(err)
	}
	code = f.print(res, req, wsRoot, stdout, stderr)
	endAnswer(stdout) // the index is finished after (closeIndex)
	return code
}

// packFlags are the flags of `acode-lsp pack`.
type packFlags struct {
	toolResults, refs                  multi
	query, search, model, encoding     *string
	tokFile, cfgPath, root, tmplPath   *string
	format                             *string
	regex, showReport, asJSON, preview *bool
	noIndex                            *bool
	total, window, sysRes, respRes     *int
	maxFile                            *int64
}

// newPackFlags defines the flags of pack on fs.
func newPackFlags(fs *flag.FlagSet) *packFlags {
	f := &packFlags{}
	f.query = fs.String("query", "", "the task, `TEXT`; ranks chunks by lexical relevance to it")
	f.search = fs.String("search", "", "search the workspace for `PATTERN`; matches become search_result sources")
	f.regex = fs.Bool("regex", false, "treat --search as an RE2 regular expression")
	fs.Var(&f.toolResults, "tool-result", "a `FILE` of tool output to include (- = stdin); repeatable")
	fs.Var(&f.refs, "reference", "`PATH[:START-END]` to include as a reference; repeatable")
	f.total = tokensFlag(fs, "budget", 0, "the tokens the context may take, `N` > 0 (8000, 8k, 1.5m); reserves subtract only when given")
	f.window = tokensFlag(fs, "window", 0, "a model's context window, `N` > 0 (8k accepted): the config's reserves subtract")
	f.sysRes = tokensFlag(fs, "system-reserve", 0, "tokens reserved for the system prompt, `N` ≥ 0 (default: 0 with --budget, else the config's)")
	f.respRes = tokensFlag(fs, "response-reserve", 0, "tokens reserved for the response, `N` ≥ 0 (default: 0 with --budget, else the config's)")
	f.model = fs.String("model", "", "model `M` whose tokenizer counts (default: the config's, else gpt-4o)")
	f.encoding = fs.String("encoding", "", "encoding `E` to count with: "+strings.Join(tokenizer.Encodings(), ", "))
	f.tokFile = fs.String("tokenizer-file", "", "a Hugging Face tokenizer.json `F` to count with exactly (default: the config's context.tokenizer.file)")
	f.cfgPath = fs.String("config", "", "config `FILE` (default: .agent/config.yml of the workspace)")
	f.root = fs.String("root", "", "workspace root `DIR` (default: the nearest directory up from PATH with .agent/config.yml or .git)")
	f.tmplPath = fs.String("template", "", "a Go text/template `FILE` for the output (data: .Files)")
	f.format = fs.String("format", pack.FormatMarkdown, "output `format`: markdown or xml")
	f.maxFile = fs.Int64("max-file-size", collector.DefaultMaxFileSize, "largest file to let in, in `bytes`")
	f.showReport = fs.Bool("report", false, "print the budget report on stderr")
	f.asJSON = fs.Bool("json", false, "print the acode/packContext result object instead of the text")
	f.preview = fs.Bool("preview", false, "print what the pack would include and exclude (acode/previewContext JSON), without formatting")
	f.noIndex = fs.Bool("no-index", false, "neither read nor write the workspace index in the user's cache directory (docs/index.md)")
	return f
}

// check rejects flag values that are wrong on their own or together, naming
// the flag; 0 when they are fine.
func (f *packFlags) check(fs *flag.FlagSet, stderr io.Writer) int {
	switch {
	case flagSet(fs, "budget") && flagSet(fs, "window"):
		fmt.Fprintln(stderr, "acode-lsp pack: give --budget (the room the context may take) or --window (a model's window, less the reserves), not both")
		return 2
	case flagSet(fs, "budget") && *f.total <= 0:
		return flagError(stderr, "pack", "budget", fmt.Sprint(*f.total), "must be a positive number of tokens, such as 8000 or 8k (leave it out to use the config's budget)")
	case flagSet(fs, "window") && *f.window <= 0:
		return flagError(stderr, "pack", "window", fmt.Sprint(*f.window), "must be a positive number of tokens, such as 128k (leave it out to use the config's total_tokens)")
	case *f.maxFile <= 0:
		return flagError(stderr, "pack", "max-file-size", fmt.Sprint(*f.maxFile), "must be a positive number of bytes")
	case flagSet(fs, "search") && strings.TrimSpace(*f.search) == "":
		return flagError(stderr, "pack", "search", *f.search, "is empty; give the text (or with --regex, the pattern) to search for")
	}
	if *f.encoding != "" {
		if _, err := tokenizer.ForEncoding(*f.encoding); err != nil {
			return flagError(stderr, "pack", "encoding", *f.encoding, "is not an encoding acode-lsp knows; use "+strings.Join(tokenizer.Encodings(), ", "))
		}
	}
	switch *f.format {
	case pack.FormatMarkdown, pack.FormatXML:
		if *f.format == pack.FormatXML && *f.tmplPath != "" {
			fmt.Fprintln(stderr, "acode-lsp pack: --format xml cannot be combined with --template; leave out one of them")
			return 2
		}
	default:
		fmt.Fprintf(stderr, "acode-lsp pack: --format %q: unknown format; use markdown or xml\n", collector.EscapePath(*f.format))
		return 2
	}
	return 0
}

// packRoot checks the paths and returns the workspace root: --root when
// given, else the nearest root above the first path.
func packRoot(paths []string, root string, stderr io.Writer) (string, int) {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(stderr, "acode-lsp pack: %s: %v\n", p, unwrapPathErr(err))
			return "", 2
		}
	}
	if root != "" {
		if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
			why := "is not a directory"
			if err != nil {
				why = unwrapPathErr(err).Error()
			}
			return "", flagError(stderr, "pack", "root", root, why)
		}
		return root, 0
	}
	start := paths[0]
	if fi, err := os.Stat(start); err == nil && !fi.IsDir() {
		start = filepath.Dir(start)
	}
	return findRoot(start), 0
}

// request builds the pack request from the flags; a non-zero code when a
// flag's value does not hold (a tokenizer file, a budget without room, a
// file that cannot be read).
func (f *packFlags) request(ctx context.Context, fs *flag.FlagSet, paths []string, cfg config.Config, stdin io.Reader, stderr io.Writer) (pack.Request, int) {
	if *f.tokFile != "" {
		if *f.encoding != "" {
			fmt.Fprintln(stderr, "acode-lsp pack: give --encoding or --tokenizer-file, not both")
			return pack.Request{}, 2
		}
		if _, err := tokenizer.ForFile(*f.tokFile); err != nil {
			return pack.Request{}, flagError(stderr, "pack", "tokenizer-file", *f.tokFile, strings.TrimPrefix(err.Error(), "tokenizer: "))
		}
		*f.encoding = tokenizer.FilePrefix + *f.tokFile
	}
	req := pack.Request{Query: *f.query, Model: *f.model, Encoding: *f.encoding, Paths: absAll(paths), Format: *f.format,
		TextOnly: !*f.asJSON && !*f.showReport}
	bf := budgetFlags{budget: *f.total, window: *f.window, sysRes: *f.sysRes, respRes: *f.respRes,
		budgetSet: flagSet(fs, "budget"), windowSet: flagSet(fs, "window"), sysSet: flagSet(fs, "system-reserve"), respSet: flagSet(fs, "response-reserve")}
	req.Budget = bf.overrides()
	if msg := bf.check(cfg.Context.Budget); msg != "" {
		fmt.Fprintf(stderr, "acode-lsp pack: %s\n", msg)
		return pack.Request{}, 2
	}
	if *f.search != "" {
		req.Search = &pack.Search{Pattern: *f.search, Regex: *f.regex}
	}
	srcs, code := f.sources(ctx, stdin, stderr)
	if code != 0 {
		return pack.Request{}, code
	}
	req.Sources = srcs
	if *f.tmplPath != "" {
		text, err := readCounted(ctx, *f.tmplPath, stdin, defaultCountCap)
		if err != nil {
			return pack.Request{}, flagError(stderr, "pack", "template", *f.tmplPath, strings.TrimPrefix(err.Error(), *f.tmplPath+": "))
		}
		req.Template = text
	}
	return req, 0
}

// sources reads the --tool-result files and checks the --reference paths.
func (f *packFlags) sources(ctx context.Context, stdin io.Reader, stderr io.Writer) ([]pack.Source, int) {
	var out []pack.Source
	for _, tr := range f.toolResults {
		text, err := readCounted(ctx, tr, stdin, defaultCountCap)
		if err != nil {
			return nil, flagError(stderr, "pack", "tool-result", tr, strings.TrimPrefix(err.Error(), tr+": "))
		}
		label := tr
		if tr == "-" {
			label = "stdin"
		}
		out = append(out, pack.Source{Type: "tool_result", Label: label, Content: &text})
	}
	for _, r := range f.refs {
		path, s, e, err := collector.ParseReference(r)
		if err != nil {
			return nil, flagError(stderr, "pack", "reference", r, err.Error())
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, flagError(stderr, "pack", "reference", r, fmt.Sprintf("%s: %v", path, unwrapPathErr(err)))
		}
		if fi.IsDir() {
			return nil, flagError(stderr, "pack", "reference", r, path+" is a directory; name a file (PATH[:START-END])")
		}
		abs, _ := filepath.Abs(path)
		out = append(out, pack.Source{Type: "reference", Path: abs, StartLine: s, EndLine: e})
	}
	return out, 0
}

// print writes the packed context (or its JSON) on stdout, the report and
// notes on stderr, and returns the exit code: 1 when nothing fits.
func (f *packFlags) print(res *pack.Result, req pack.Request, wsRoot string, stdout, stderr io.Writer) int {
	if *f.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		_ = enc.Encode(res)
	} else {
		_, _ = io.WriteString(stdout, res.Content)
	}
	if *f.showReport {
		fmt.Fprint(stderr, pack.Report(res))
	}
	if req.Search != nil && !searchMatched(res) {
		fmt.Fprintf(stderr, "acode-lsp pack: --search %q: no match in %s\n", *f.search, wsRoot)
	}
	if len(res.Included) == 0 {
		fmt.Fprintf(stderr, "acode-lsp pack: %s\n", nothingFits(res))
		return 1
	}
	return 0
}

// packFlagFields name the flag of each request field a pack's error may
// blame (field, flag), so the message names what the user typed.
var packFlagFields = []string{"model", "--model", "encoding", "--encoding", "tokenizerFile", "--tokenizer-file",
	"format", "--format", "template", "--template", "search.pattern", "--search", "query", "--query",
	"budget.totalTokens", "--budget", "budget.systemReserve", "--system-reserve", "budget.responseReserve", "--response-reserve"}

// nothingFits says why a pack came out empty and what to change.
func nothingFits(res *pack.Result) string {
	b := res.Budget
	if b.SystemReserve == 0 && b.ResponseReserve == 0 {
		return fmt.Sprintf("no chunk fits the %s tokens available, so the context is empty: raise --budget (--report shows every chunk's size)", comma(int64(b.Available)))
	}
	return fmt.Sprintf("no chunk fits the %s tokens available (%s − reserves %s − %s), so the context is empty: raise --budget or --window, or lower --system-reserve/--response-reserve (--report shows every chunk's size)",
		comma(int64(b.Available)), comma(int64(b.Total)), comma(int64(b.SystemReserve)), comma(int64(b.ResponseReserve)))
}

// budgetFlags are the budget flags of `pack` as given (docs/design.md
// rule 2): --budget N is the room the context may take (reserves subtract
// only when given), --window N a model's window (the config's reserves
// subtract unless given); neither keeps the config's budget.
type budgetFlags struct {
	budget, window, sysRes, respRes       int
	budgetSet, windowSet, sysSet, respSet bool
}

// overrides returns the pack's budget overrides; nil when no flag is set.
func (f budgetFlags) overrides() *config.BudgetOverrides {
	if !f.budgetSet && !f.windowSet && !f.sysSet && !f.respSet {
		return nil
	}
	o := &config.BudgetOverrides{}
	switch {
	case f.budgetSet:
		o = session.ContextBudget(f.budget)
	case f.windowSet:
		o.TotalTokens = &f.window
	}
	if f.sysSet {
		o.SystemReserve = &f.sysRes
	}
	if f.respSet {
		o.ResponseReserve = &f.respRes
	}
	return o
}

// check returns, in the flags' own names, why the budget leaves no room
// for the context ("" when it leaves some).
func (f budgetFlags) check(cfg config.Budget) string {
	b := f.overrides().Apply(cfg)
	avail := b.TotalTokens - b.SystemPromptReserve - b.ResponseReserve
	if avail > 0 {
		return ""
	}
	var terms []string
	raise := "--window"
	switch {
	case f.budgetSet:
		terms, raise = append(terms, "--budget "+comma(int64(b.TotalTokens))), "--budget"
	case f.windowSet:
		terms = append(terms, "--window "+comma(int64(b.TotalTokens)))
	default:
		terms = append(terms, "the config's total_tokens "+comma(int64(b.TotalTokens)))
	}
	for _, r := range []struct {
		flag, key string
		v         int
		set       bool
	}{{"--system-reserve", "system_prompt_reserve", b.SystemPromptReserve, f.sysSet}, {"--response-reserve", "response_reserve", b.ResponseReserve, f.respSet}} {
		switch {
		case r.set:
			terms = append(terms, r.flag+" "+comma(int64(r.v)))
		case !f.budgetSet:
			terms = append(terms, "the config's "+r.key+" "+comma(int64(r.v)))
		}
	}
	fix := "raise " + raise + " or lower --system-reserve/--response-reserve"
	if !f.budgetSet {
		fix += ", or give --budget N: the room for the context alone"
	}
	return fmt.Sprintf("no room for the context: %s leaves %s tokens; %s", strings.Join(terms, " − "), comma(int64(avail)), fix)
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
func printPreview(ctx context.Context, sess *session.Session, req pack.Request, stdout, stderr io.Writer) int {
	pv, err := sess.Preview(ctx, req, nil)
	if err != nil {
		fmt.Fprintf(stderr, "acode-lsp pack: %v\n", flagErrOf(err, packFlagFields...))
		return exitCode(err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(pv)
	return 0
}

// packErrText words an error of the core for the command line: invalid
// params name the field, domain failures end with their code.
func packErrText(err error) string {
	switch c := errcode.Classify(err); c.Kind {
	case errcode.InvalidParams:
		return fmt.Sprintf("invalid %s: %s", c.Field, c.Message)
	case errcode.RequestFailed:
		return fmt.Sprintf("%s (%s)", c.Message, c.Code)
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
