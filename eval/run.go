package eval

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Encoding is the tokenizer of the evaluation (the CLI's default model,
// gpt-4o, counts with it).
const Encoding = "o200k_base"

// Runner evaluates cases against mirrors.
type Runner struct {
	// Mirrors holds owner+name/repo bare git mirrors.
	Mirrors string
	// Cache holds the extracted parent trees (one directory per commit).
	Cache string
	// Budgets are the total token budgets (reserves 0).
	Budgets []int
	// Config is the configuration of the pack (config.Default() when nil).
	Config *config.Config
	// Engine, when set, adjusts each engine before it packs (ablations).
	Engine func(*pack.Engine)
	// Tokenizers are the run's tokenizers, shared by its cases and
	// engines; nil means a new registry for each case.
	Tokenizers *tokenizer.Registry
	// Variants are further ablations (Engine.Ablate lists) packed for
	// each case at each budget beside the main pack, sharing its tree and
	// baselines (eval run -variants).
	Variants [][]string
}

// Variant is the outcome of one further ablation at one budget.
type Variant struct {
	Line, File, Lib, Test float64
}

// Result is the outcome of one case at one budget. BM25 is the honest
// baseline (identifier terms, charged its headers and fences), Plain the
// baseline before issue 23 (plain words, text only). Lib and Test are the
// line recalls over the needed lines of library files and of test files
// (HasLib, HasTest: the case has such lines).
type Result struct {
	Budget                 int
	AcodeLine, AcodeFile   float64
	BM25Line, BM25File     float64
	PlainLine, PlainFile   float64
	AcodeLib, BM25Lib      float64
	PlainLib               float64
	AcodeTest, BM25Test    float64
	HasLib, HasTest        bool
	Variants               []Variant
	AcodeChunks, BM25Wins  int
	AcodeTokens, BM25Token int
	// Included is what the pack included (path, lines, score, tokens).
	Included []pack.Entry `json:"-"`
}

// CaseResult is the outcome of one case.
type CaseResult struct {
	Case    Case
	Results []Result
	Err     string `json:",omitempty"`
}

// MirrorDir is the git directory of a repository's mirror.
func MirrorDir(mirrors, repo string) string {
	return filepath.Join(mirrors, strings.ReplaceAll(repo, "/", "+"), "repo")
}

// Tree extracts the tree of commit into the cache (once) and returns its
// directory.
func (r *Runner) Tree(ctx context.Context, repo, commit string) (string, error) {
	dir := filepath.Join(r.Cache, strings.ReplaceAll(repo, "/", "+"), commit)
	if _, err := os.Stat(dir); err == nil {
		return dir, r.gitDir(ctx, repo, commit, dir)
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("eval: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), commit+".tmp")
	if err != nil {
		return "", fmt.Errorf("eval: %w", err)
	}
	defer os.RemoveAll(tmp)
	archive := exec.CommandContext(ctx, "git", "--git-dir="+MirrorDir(r.Mirrors, repo), "archive", "--format=tar", commit)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", tmp)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", fmt.Errorf("eval: %w", err)
	}
	untar.Stdin = pipe
	var errb strings.Builder
	archive.Stderr, untar.Stderr = &errb, &errb
	if err := untar.Start(); err != nil {
		return "", fmt.Errorf("eval: tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return "", fmt.Errorf("eval: git archive %s %s: %v: %s", repo, commit, err, errb.String())
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("eval: tar %s %s: %v: %s", repo, commit, err, errb.String())
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", fmt.Errorf("eval: %w", err)
	}
	return dir, r.gitDir(ctx, repo, commit, dir)
}

// gitDir makes a tree a git repository whose HEAD is commit, borrowing the
// mirror's objects (objects/info/alternates; nothing is copied and the
// mirror is not written), so that the pack sees the history a clone at
// the parent would have — and nothing after it.
func (r *Runner) gitDir(ctx context.Context, repo, commit, dir string) error {
	gd := filepath.Join(dir, ".git")
	if _, err := os.Stat(filepath.Join(gd, "HEAD")); err == nil {
		return nil
	}
	objs, err := filepath.Abs(filepath.Join(MirrorDir(r.Mirrors, repo), "objects"))
	if err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if out, err := exec.CommandContext(ctx, "git", "init", "-q", dir).CombinedOutput(); err != nil {
		return fmt.Errorf("eval: git init %s: %v: %s", dir, err, out)
	}
	if err := os.WriteFile(filepath.Join(gd, "objects", "info", "alternates"), []byte(objs+"\n"), 0o644); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	if err := os.WriteFile(filepath.Join(gd, "HEAD"), []byte(commit+"\n"), 0o644); err != nil {
		return fmt.Errorf("eval: %w", err)
	}
	return nil
}

// Run evaluates one case at every budget.
func (r *Runner) Run(ctx context.Context, c Case) CaseResult {
	out := CaseResult{Case: c}
	res, err := r.run(ctx, c)
	if err != nil {
		out.Err = err.Error()
	}
	out.Results = res
	return out
}

func (r *Runner) run(ctx context.Context, c Case) ([]Result, error) {
	dir, err := r.Tree(ctx, c.Repo, c.Parent)
	if err != nil {
		return nil, err
	}
	cfg := config.Default()
	if r.Config != nil {
		cfg = *r.Config
	}
	ws, err := collector.New(collector.Options{Roots: []string{dir}, Exclude: cfg.Context.Exclude, MaxFileSize: collector.DefaultMaxFileSize, NoIgnoreDefaults: !cfg.Context.IgnoreDefaults})
	if err != nil {
		return nil, err
	}
	reg := r.Tokenizers
	if reg == nil {
		reg = tokenizer.NewRegistry()
	}
	tok, err := reg.Get("", Encoding, 0)
	if err != nil {
		return nil, err
	}
	docs, err := r.windows(ctx, ws, dir, tok)
	if err != nil {
		return nil, err
	}
	order, _ := Honest.Rank(c.Query, docs)
	plain, _ := Plain.Rank(c.Query, docs)
	newEngine := func() *pack.Engine {
		eng := pack.NewEngine(cfg, ws)
		eng.Tokenizers = reg
		if r.Engine != nil {
			r.Engine(eng)
		}
		return eng
	}
	var out []Result
	for _, b := range r.Budgets {
		res, err := r.packRecall(ctx, c, dir, b, newEngine)
		if err != nil {
			return out, err
		}
		baselineRecall(&res, c, docs, order, plain, b)
		out = append(out, res)
	}
	return out, nil
}

// isLib reports whether p is library code (not a test).
func isLib(p string) bool { return !IsTest(p) }

// packRecall packs case c's tree dir (its query, budget b) with an engine
// from newEngine, and then once more for each of r.Variants with its
// features turned off, and returns their recalls.
func (r *Runner) packRecall(ctx context.Context, c Case, dir string, b int, newEngine func() *pack.Engine) (Result, error) {
	zero := 0
	total := b
	req := pack.Request{Query: c.Query, Encoding: Encoding, Paths: []string{dir},
		Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	pr, err := newEngine().Pack(ctx, req, nil, nil)
	if err != nil {
		return Result{}, fmt.Errorf("eval: pack %s %s: %w", c.Repo, c.Parent, err)
	}
	spans := packSpans(pr)
	res := Result{Budget: b, AcodeChunks: len(pr.Included), AcodeTokens: pr.TokenCount, Included: pr.Included}
	res.AcodeLine, res.AcodeFile = Recall(c.Needed, spans)
	res.AcodeLib, res.HasLib = RecallOf(c.Needed, spans, isLib)
	res.AcodeTest, res.HasTest = RecallOf(c.Needed, spans, IsTest)
	for _, off := range r.Variants {
		eng := newEngine()
		eng.Ablate = append(append([]string(nil), eng.Ablate...), off...)
		vr, err := eng.Pack(ctx, req, nil, nil)
		if err != nil {
			return Result{}, fmt.Errorf("eval: pack %s %s: %w", c.Repo, c.Parent, err)
		}
		vs := packSpans(vr)
		var v Variant
		v.Line, v.File = Recall(c.Needed, vs)
		v.Lib, _ = RecallOf(c.Needed, vs, isLib)
		v.Test, _ = RecallOf(c.Needed, vs, IsTest)
		res.Variants = append(res.Variants, v)
	}
	return res, nil
}

// baselineRecall fills in res the recalls of the BM25 baselines at budget
// b: the windows docs taken greedily in the order of the honest ranking
// (charged as packed) and of the plain one (text only).
func baselineRecall(res *Result, c Case, docs []Doc, order, plain []int, b int) {
	var spans []Span
	chosen := Greedy(order, docs, b, Charged)
	for _, i := range chosen {
		spans = append(spans, Span{Path: docs[i].Path, Start: docs[i].Start, End: docs[i].End})
		res.BM25Token += docs[i].Tokens
	}
	res.BM25Wins = len(chosen)
	res.BM25Line, res.BM25File = Recall(c.Needed, spans)
	res.BM25Lib, _ = RecallOf(c.Needed, spans, isLib)
	res.BM25Test, _ = RecallOf(c.Needed, spans, IsTest)
	spans = spans[:0]
	for _, i := range Greedy(plain, docs, b, TextOnly) {
		spans = append(spans, Span{Path: docs[i].Path, Start: docs[i].Start, End: docs[i].End})
	}
	res.PlainLine, res.PlainFile = Recall(c.Needed, spans)
	res.PlainLib, _ = RecallOf(c.Needed, spans, isLib)
}

// windows cuts the files the pack would see (the same walk, the same
// exclusions) into 40-line windows with their exact token counts: of the
// text alone and of the window framed as a pack shows it.
//
// The counts are kept beside the tree (DIR.counts, one "text framed" pair
// a line, in window order) so that a second run of the same tree does not
// count again; the file is checked against the windows and ignored when
// it does not match.
func (r *Runner) windows(ctx context.Context, ws *collector.Workspace, dir string, tok tokenizer.Tokenizer) ([]Doc, error) {
	srcs, _, err := ws.Walk(ctx, collector.OpenFile, dir)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, s := range srcs {
		docs = append(docs, Windows(filepath.ToSlash(s.Path), s.Content, WindowLines)...)
	}
	cache := dir + ".counts"
	if data, err := os.ReadFile(cache); err == nil {
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) == len(docs)+1 && lines[0] == countsHeader {
			ok := true
			for i, l := range lines[1:] {
				if _, err := fmt.Sscan(l, &docs[i].TextTokens, &docs[i].Tokens); err != nil {
					ok = false
					break
				}
			}
			if ok {
				return docs, nil
			}
		}
	}
	var b strings.Builder
	b.WriteString(countsHeader + "\n")
	for i := range docs {
		docs[i].TextTokens = tok.Count(docs[i].Text)
		docs[i].Tokens = tok.Count(Framed(docs[i]))
		fmt.Fprintf(&b, "%d %d\n", docs[i].TextTokens, docs[i].Tokens)
	}
	tmp := cache + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err == nil {
		_ = os.Rename(tmp, cache)
	}
	return docs, nil
}

// countsHeader heads a tree's cached window counts (encoding, window
// height, framing version).
const countsHeader = "o200k_base 40 framed-v1"

// packSpans are the line ranges a pack included (outlines hold only some
// lines of their range and do not count).
func packSpans(pr *pack.Result) []Span {
	var spans []Span
	for _, it := range pr.Included {
		if it.Path == "" || it.Detail == "outline" {
			continue
		}
		spans = append(spans, Span{Path: it.Path, Start: it.StartLine, End: it.EndLine})
	}
	return spans
}
