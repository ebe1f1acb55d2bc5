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
}

// Result is the outcome of one case at one budget.
type Result struct {
	Budget                 int
	AcodeLine, AcodeFile   float64
	BM25Line, BM25File     float64
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
		return dir, nil
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
	return dir, nil
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
	order, _ := BM25Rank(c.Query, docs)
	var out []Result
	for _, b := range r.Budgets {
		eng := pack.NewEngine(cfg, ws)
		eng.Tokenizers = reg
		if r.Engine != nil {
			r.Engine(eng)
		}
		zero := 0
		total := b
		req := pack.Request{Query: c.Query, Encoding: Encoding, Paths: []string{dir},
			Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
		pr, err := eng.Pack(ctx, req, nil, nil)
		if err != nil {
			return out, fmt.Errorf("eval: pack %s %s: %w", c.Repo, c.Parent, err)
		}
		var spans []Span
		for _, it := range pr.Included {
			if it.Path == "" || it.Detail == "outline" {
				continue // outlines hold only some lines of their range: not counted
			}
			spans = append(spans, Span{Path: it.Path, Start: it.StartLine, End: it.EndLine})
		}
		res := Result{Budget: b, AcodeChunks: len(pr.Included), AcodeTokens: pr.TokenCount, Included: pr.Included}
		res.AcodeLine, res.AcodeFile = Recall(c.Needed, spans)
		chosen := Greedy(order, docs, b)
		spans = spans[:0]
		for _, i := range chosen {
			spans = append(spans, Span{Path: docs[i].Path, Start: docs[i].Start, End: docs[i].End})
			res.BM25Token += docs[i].Tokens
		}
		res.BM25Wins = len(chosen)
		res.BM25Line, res.BM25File = Recall(c.Needed, spans)
		out = append(out, res)
	}
	return out, nil
}

// windows cuts the files the pack would see (the same walk, the same
// exclusions) into 40-line windows with their exact token counts.
func (r *Runner) windows(ctx context.Context, ws *collector.Workspace, dir string, tok tokenizer.Tokenizer) ([]Doc, error) {
	srcs, _, err := ws.Walk(ctx, collector.OpenFile, dir)
	if err != nil {
		return nil, err
	}
	var docs []Doc
	for _, s := range srcs {
		for _, d := range Windows(filepath.ToSlash(s.Path), s.Content, WindowLines) {
			d.Tokens = tok.Count(d.Text)
			docs = append(docs, d)
		}
	}
	return docs, nil
}
