package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/eval"
	"github.com/acode-lsp/acode-lsp/pack"
)

// misses packs every dev case at one budget and says, for each touched
// file with needed lines, where the pack left it: included, ranked below
// the cut (the rank of its best needed chunk and the tokens ranked ahead of
// it), chunked without a chunk holding needed lines, or never chunked (a
// tuning aid like explain: it refuses held-out cases).
func misses(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("misses", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	casesPath := fs.String("cases", "eval/cases/cases.jsonl", "cases file")
	cache := fs.String("cache", filepath.Join(os.TempDir(), "acode-eval"), "directory for the extracted trees")
	budget := fs.Int("budget", 8000, "total token budget")
	repo := fs.String("repo", "", "only this repository (owner/name)")
	ablate := fs.String("ablate", "", "comma-separated relevance features to switch off")
	jobs := fs.Int("j", 2, "cases run at once")
	_ = fs.Parse(args)
	all, err := eval.ReadCases(*casesPath)
	if err != nil {
		return err
	}
	var cs []eval.Case
	for _, c := range all {
		if !c.Heldout && (*repo == "" || c.Repo == *repo) {
			cs = append(cs, c)
		}
	}
	out := make([]string, len(cs))
	kinds := make([]map[string]int, len(cs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, *jobs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], kinds[i] = missCase(ctx, cs[i], *mirrors, *cache, *budget, *ablate)
			}
		}()
	}
	for i := range cs {
		next <- i
	}
	close(next)
	wg.Wait()
	total := map[string]int{}
	for i := range cs {
		fmt.Print(out[i])
		for k, n := range kinds[i] {
			total[k] += n
		}
	}
	var ks []string
	for k := range total {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	fmt.Println("\nneeded files by where the pack left them:")
	for _, k := range ks {
		fmt.Printf("  %-22s %d\n", k, total[k])
	}
	return nil
}

func missCase(ctx context.Context, c eval.Case, mirrors, cache string, budget int, ablate string) (string, map[string]int) {
	var b strings.Builder
	kinds := map[string]int{}
	r := &eval.Runner{Mirrors: mirrors, Cache: cache}
	dir, err := r.Tree(ctx, c.Repo, c.Parent)
	if err != nil {
		return fmt.Sprintf("%s: %v\n", c.Commit[:12], err), kinds
	}
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		return fmt.Sprintf("%s: %v\n", c.Commit[:12], err), kinds
	}
	eng := pack.NewEngine(config.Default(), ws)
	if ablate != "" {
		eng.Ablate = strings.Split(ablate, ",")
	}
	zero := 0
	res, err := eng.Pack(ctx, pack.Request{Query: c.Query, Encoding: eval.Encoding, Paths: []string{dir},
		Budget: &config.BudgetOverrides{TotalTokens: &budget, SystemReserve: &zero, ResponseReserve: &zero}}, nil, nil)
	if err != nil {
		return fmt.Sprintf("%s: %v\n", c.Commit[:12], err), kinds
	}
	items := append([]pack.Entry(nil), res.Included...)
	for _, x := range res.Excluded {
		if x.Reason == "over_budget" {
			items = append(items, x)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Score > items[j].Score })
	fmt.Fprintf(&b, "%s %s %q\n", c.Commit[:12], c.Repo, firstLine(c.Query))
	for _, f := range c.Needed {
		if len(f.Ranges) == 0 {
			continue
		}
		kind, where := whereLeft(f, items)
		lib := "lib "
		if eval.IsTest(f.Path) {
			lib = "test"
		}
		kinds[lib+" "+kind]++
		fmt.Fprintf(&b, "  %s %-20s %s %s\n", lib, kind, f.Path, where)
	}
	return b.String(), kinds
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// whereLeft says where a pack left a needed file, given the pack's items
// (included and over budget) in score order: "included" (a chunk with
// needed lines is in), "below cut" (with the rank of the best such chunk
// and the tokens ranked ahead of it), "chunked, none needed" or "not
// chunked"; where also gives the file's rank among the files by their
// best chunk.
func whereLeft(f eval.FileLines, items []pack.Entry) (kind, where string) {
	kind = "not chunked"
	seen, cum := false, 0
	files := map[string]bool{} // the files ranked ahead, by their best chunk
	for i, it := range items {
		cum += it.Tokens
		if it.Path != f.Path {
			files[it.Path] = true
			continue
		}
		if !seen {
			where = fmt.Sprintf("file rank %d", len(files)+1)
		}
		seen = true
		if neededIn(f, it) == 0 {
			continue
		}
		if it.Reason == "" {
			return "included", where
		}
		if kind != "below cut" {
			kind, where = "below cut", fmt.Sprintf("rank %d, %d tokens ahead, %s", i+1, cum-it.Tokens, where)
		}
	}
	if kind == "not chunked" && seen {
		kind = "chunked, none needed"
	}
	return kind, where
}

// neededIn is the number of f's needed lines inside it.
func neededIn(f eval.FileLines, it pack.Entry) int {
	n := 0
	for _, r := range f.Ranges {
		n += max(0, min(r[1], it.EndLine)-max(r[0], it.StartLine)+1)
	}
	return n
}
