// Command eval selects the context-quality cases and runs the evaluation
// (see docs/quality.md).
//
//	go run ./eval/cmd/eval cases [-mirrors DIR] [-seed N] [-per-repo N] [-out FILE]
//	go run ./eval/cmd/eval run   [-mirrors DIR] [-cases FILE] [-cache DIR] [-split dev|heldout|all] [-j N]
//	                             [-budgets 8000,32000] [-ablate F,…] [-variants 'F,…;F,…']
//	go run ./eval/cmd/eval check [-mirrors DIR]
//	go run ./eval/cmd/eval explain [-budget N] COMMIT     (a dev case's ranked chunks)
//	go run ./eval/cmd/eval misses  [-budget N] [-repo R]  (where each dev case's needed files were left)
//	go run ./eval/cmd/eval map     [-budget N]            (what a pack without a query shows)
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/eval"
	"github.com/acode-lsp/acode-lsp/pack"
)

// repos are the evaluation's repositories with the commit each draw walks
// back from (pinned, so the selection is reproducible).
var repos = []struct{ Name, Head string }{
	{"gin-gonic/gin", "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9"},
	{"encode/httpx", "ae1b9f66238f75ced3ced5e4485408435de10768"},
	{"pallets/flask", "2ac89889f4cc330eabd50f295dcef02828522c69"},
	{"axios/axios", "23a25af0688d1db2c396deb09229d2271cc24f6c"},
	{"sindresorhus/ky", "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f"},
	{"google/gson", "9835b6f90192f79cdf5300c528fc6212455fb6c1"},
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	switch os.Args[1] {
	case "cases":
		err = cases(ctx, os.Args[2:])
	case "run":
		err = run(ctx, os.Args[2:])
	case "check":
		err = check(os.Args[2:])
	case "explain":
		err = explain(ctx, os.Args[2:])
	case "misses":
		err = misses(ctx, os.Args[2:])
	case "map":
		err = mapQuality(ctx, os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: eval cases|run|check|explain|misses|map [flags] (see docs/quality.md)")
	os.Exit(2)
}

func defaultMirrors() string {
	if m := os.Getenv("EVAL_MIRRORS"); m != "" {
		return m
	}
	return "/work/.mirror"
}

// check reports the missing mirrors and how to get them.
func check(args []string) error {
	fs := flag.NewFlagSet("check", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	_ = fs.Parse(args)
	return missing(*mirrors)
}

func missing(mirrors string) error {
	var miss []string
	for _, r := range repos {
		dir := eval.MirrorDir(mirrors, r.Name)
		if _, err := (eval.Git{Dir: dir}).Run(context.Background(), "cat-file", "-e", r.Head+"^{commit}"); err != nil {
			miss = append(miss, fmt.Sprintf("  git clone --mirror https://github.com/%s %s", r.Name, dir))
		}
	}
	if len(miss) > 0 {
		return fmt.Errorf("%d of %d mirrors are missing (or lack the pinned commit) under %s; get them with:\n%s\n(or set EVAL_MIRRORS to a directory that has them)",
			len(miss), len(repos), mirrors, strings.Join(miss, "\n"))
	}
	return nil
}

func cases(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("cases", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	seed := fs.Uint64("seed", 20261123, "seed of the draw")
	per := fs.Int("per-repo", 26, "cases per repository")
	out := fs.String("out", "eval/cases/cases.jsonl", "file to write")
	_ = fs.Parse(args)
	if err := missing(*mirrors); err != nil {
		return err
	}
	var all []eval.Case
	for _, r := range repos {
		cs, err := eval.Select(ctx, eval.Git{Dir: eval.MirrorDir(*mirrors, r.Name)}, eval.SelectOptions{Repo: r.Name, Head: r.Head, Seed: *seed, N: *per})
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %d cases\n", r.Name, len(cs))
		all = append(all, cs...)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := eval.WriteCases(f, all); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	casesPath := fs.String("cases", "eval/cases/cases.jsonl", "cases file")
	cache := fs.String("cache", filepath.Join(os.TempDir(), "acode-eval"), "directory for the extracted trees")
	split := fs.String("split", "all", "cases to run: dev, heldout or all")
	repo := fs.String("repo", "", "run only this repository (owner/name)")
	budgets := fs.String("budgets", "8000,32000", "total token budgets, comma-separated")
	jobs := fs.Int("j", 2, "cases run at once (GOMAXPROCS is capped at 2)")
	jsonOut := fs.String("json", "", "write each case's result as JSON lines to this file")
	maxChunk := fs.Int("max-chunk-tokens", 0, "override context.chunking.max_chunk_tokens")
	minChunk := fs.Int("min-chunk-tokens", -1, "override context.chunking.min_chunk_tokens")
	ablate := fs.String("ablate", "", "comma-separated relevance features to switch off (see docs/quality.md)")
	variants := fs.String("variants", "", "further ablations packed beside the main pack, ';'-separated (each a comma-separated list)")
	_ = fs.Parse(args)
	if runtime.GOMAXPROCS(0) > 2 {
		runtime.GOMAXPROCS(2)
	}
	if err := missing(*mirrors); err != nil {
		return err
	}
	bs, err := parseBudgets(*budgets)
	if err != nil {
		return err
	}
	all, err := eval.ReadCases(*casesPath)
	if err != nil {
		return err
	}
	cs := selectCases(all, *split, *repo)
	cfg := chunkConfig(*maxChunk, *minChunk)
	r := &eval.Runner{Mirrors: *mirrors, Cache: *cache, Budgets: bs, Config: &cfg, Tokenizers: tokenizer.NewRegistry()}
	if *ablate != "" {
		off := strings.Split(*ablate, ",")
		r.Engine = func(e *pack.Engine) { e.Ablate = off }
	}
	vnames, vlists := parseVariants(*variants)
	r.Variants = vlists
	start := time.Now()
	results := runCases(ctx, r, cs, *jobs, start)
	if err := ctx.Err(); err != nil {
		return err
	}
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, results); err != nil {
			return err
		}
	}
	if f := eval.Failures(results); f != "" {
		fmt.Fprint(os.Stderr, "failed cases:\n"+f)
	}
	fmt.Printf("acode-lsp context quality: %d cases (%s), budgets %s, %s\n", len(cs), *split, *budgets, *casesPath)
	eval.PrintReport(os.Stdout, eval.Summarize(results, bs))
	eval.PrintVariants(os.Stdout, results, bs, vnames)
	fmt.Printf("\n(%s)\n", time.Since(start).Round(time.Second))
	return nil
}

// selectCases returns the cases of all in split (dev, heldout or all) and
// of repo ("" for every repository).
func selectCases(all []eval.Case, split, repo string) []eval.Case {
	var cs []eval.Case
	for _, c := range all {
		if (split == "dev" && c.Heldout) || (split == "heldout" && !c.Heldout) || (repo != "" && c.Repo != repo) {
			continue
		}
		cs = append(cs, c)
	}
	return cs
}

// chunkConfig returns the default configuration with the chunk sizes of
// -max-chunk-tokens (when above 0) and -min-chunk-tokens (when not
// negative).
func chunkConfig(maxChunk, minChunk int) config.Config {
	cfg := config.Default()
	if maxChunk > 0 {
		cfg.Context.Chunking.MaxChunkTokens = maxChunk
	}
	if minChunk >= 0 {
		cfg.Context.Chunking.MinChunkTokens = minChunk
	}
	return cfg
}

// parseVariants splits -variants into its ablations: each one's name (its
// comma-separated list as given) and its list of features.
func parseVariants(s string) (names []string, lists [][]string) {
	for _, v := range strings.Split(s, ";") {
		if v = strings.TrimSpace(v); v != "" {
			names = append(names, v)
			lists = append(lists, strings.Split(v, ","))
		}
	}
	return names, lists
}

// parseBudgets reads -budgets: positive numbers, comma-separated.
func parseBudgets(list string) ([]int, error) {
	var bs []int
	for _, s := range strings.Split(list, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || b <= 0 {
			return nil, fmt.Errorf("-budgets: %q is not a positive number", s)
		}
		bs = append(bs, b)
	}
	return bs, nil
}

// runCases runs the cases on jobs workers, reporting progress on stderr
// every 10 cases; it stops handing out cases when ctx is done.
func runCases(ctx context.Context, r *eval.Runner, cs []eval.Case, jobs int, start time.Time) []eval.CaseResult {
	results := make([]eval.CaseResult, len(cs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	for w := 0; w < max(1, jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = r.Run(ctx, cs[i])
				mu.Lock()
				done++
				if done%10 == 0 || done == len(cs) {
					fmt.Fprintf(os.Stderr, "\r%d/%d cases (%s)", done, len(cs), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	fmt.Fprintln(os.Stderr)
	return results
}

// explain prints the ranked chunks of one dev case's pack (a tuning aid:
// it refuses held-out cases).
func explain(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("explain", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	casesPath := fs.String("cases", "eval/cases/cases.jsonl", "cases file")
	cache := fs.String("cache", filepath.Join(os.TempDir(), "acode-eval"), "directory for the extracted trees")
	budget := fs.Int("budget", 8000, "total token budget")
	top := fs.Int("top", 25, "chunks to show")
	ablate := fs.String("ablate", "", "comma-separated relevance features to switch off")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		return fmt.Errorf("explain: give one commit (prefix)")
	}
	all, err := eval.ReadCases(*casesPath)
	if err != nil {
		return err
	}
	for _, c := range all {
		if !strings.HasPrefix(c.Commit, fs.Arg(0)) {
			continue
		}
		if c.Heldout {
			return fmt.Errorf("explain: %s is a held-out case", c.Commit[:12])
		}
		r := &eval.Runner{Mirrors: *mirrors, Cache: *cache}
		items, err := rankedPack(ctx, r, c, *budget, *ablate)
		if err != nil {
			return err
		}
		printRanked(c, items, *top)
		return nil
	}
	return fmt.Errorf("explain: no case %s", fs.Arg(0))
}

// rankedPack packs case c's parent tree at budget (features in the
// comma-separated ablate switched off) and returns what it included and
// what did not fit, by score.
func rankedPack(ctx context.Context, r *eval.Runner, c eval.Case, budget int, ablate string) ([]pack.Entry, error) {
	dir, err := r.Tree(ctx, c.Repo, c.Parent)
	if err != nil {
		return nil, err
	}
	cfg := config.Default()
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		return nil, err
	}
	eng := pack.NewEngine(cfg, ws)
	if ablate != "" {
		eng.Ablate = strings.Split(ablate, ",")
	}
	zero := 0
	res, err := eng.Pack(ctx, pack.Request{Query: c.Query, Encoding: eval.Encoding, Paths: []string{dir},
		Budget: &config.BudgetOverrides{TotalTokens: &budget, SystemReserve: &zero, ResponseReserve: &zero}}, nil, nil)
	if err != nil {
		return nil, err
	}
	items := append([]pack.Entry(nil), res.Included...)
	for _, x := range res.Excluded {
		if x.Reason == "over_budget" {
			items = append(items, x)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	return items, nil
}

// printRanked prints case c's needed lines, its query and the first top
// of the ranked items (and any other holding needed lines), each with its
// rank, score, tokens, cumulated tokens and place; "+" marks the included.
func printRanked(c eval.Case, items []pack.Entry, top int) {
	need := map[string]eval.FileLines{}
	for _, f := range c.Needed {
		need[f.Path] = f
		fmt.Printf("needed %s %v\n", f.Path, f.Ranges)
	}
	fmt.Printf("query: %q\n", c.Query)
	cum := 0
	for i, it := range items {
		n := neededIn(need[it.Path], it)
		cum += it.Tokens
		mark := ""
		if n > 0 {
			mark = fmt.Sprintf("  <== %d needed", n)
		}
		if i < top || n > 0 {
			in := " "
			if it.Reason == "" {
				in = "+"
			}
			fmt.Printf("%s%3d %.4f %5d %6d %s:%d-%d%s\n", in, i+1, it.Score, it.Tokens, cum, it.Path, it.StartLine, it.EndLine, mark)
		}
	}
}

func writeJSON(path string, results []eval.CaseResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	type res struct {
		eval.Result
		Included []pack.Entry
	}
	for _, r := range results {
		rs := make([]res, len(r.Results))
		for i, x := range r.Results {
			rs[i] = res{x, x.Included}
		}
		if err := enc.Encode(struct {
			Repo, Commit, Query, Err string
			Heldout                  bool
			Needed                   []eval.FileLines
			Results                  []res
		}{r.Case.Repo, r.Case.Commit, r.Case.Query, r.Err, r.Case.Heldout, r.Case.Needed, rs}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
