package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/eval"
	"github.com/acode-lsp/acode-lsp/pack"
)

// mapQuality measures a pack without a query (docs/quality.md "A pack
// without a query"): for each repository, the tree of its newest dev
// case's parent is packed with no query at one budget, as a map and in
// path order (the ablation), and the table says how many of the library
// files the repository's dev cases touch (that exist in the tree) the
// pack shows — as an outline or as code. A map should show where the
// work happens; path order shows what sorts first.
func mapQuality(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("map", flag.ExitOnError)
	mirrors := fs.String("mirrors", defaultMirrors(), "directory of OWNER+NAME/repo bare git mirrors")
	casesPath := fs.String("cases", "eval/cases/cases.jsonl", "cases file")
	cache := fs.String("cache", filepath.Join(os.TempDir(), "acode-eval"), "directory for the extracted trees")
	budget := fs.Int("budget", 8000, "total token budget")
	heldout := fs.Bool("heldout", false, "use the held-out cases' touched files instead of the dev cases'")
	_ = fs.Parse(args)
	all, err := eval.ReadCases(*casesPath)
	if err != nil {
		return err
	}
	fmt.Printf("| repo | touched library files | map: shown | map: files in pack | path order: shown | path order: files |\n|---|---|---|---|---|---|\n")
	var sumMap, sumPath, sumN int
	for _, rp := range repos {
		var cs []eval.Case
		for _, c := range all {
			if c.Repo == rp.Name && c.Heldout == *heldout {
				cs = append(cs, c)
			}
		}
		if len(cs) == 0 {
			continue
		}
		r := &eval.Runner{Mirrors: *mirrors, Cache: *cache}
		dir, err := r.Tree(ctx, rp.Name, cs[0].Parent)
		if err != nil {
			return err
		}
		touched := map[string]bool{}
		for _, c := range cs {
			for _, f := range c.Needed {
				if eval.IsTest(f.Path) {
					continue
				}
				if _, err := os.Stat(filepath.Join(dir, f.Path)); err == nil {
					touched[f.Path] = true
				}
			}
		}
		m, mf, err := mapShown(ctx, dir, *budget, nil, touched)
		if err != nil {
			return err
		}
		pth, pf, err := mapShown(ctx, dir, *budget, []string{"map"}, touched)
		if err != nil {
			return err
		}
		sumMap, sumPath, sumN = sumMap+m, sumPath+pth, sumN+len(touched)
		fmt.Printf("| %s | %d | %d | %d | %d | %d |\n", rp.Name, len(touched), m, mf, pth, pf)
	}
	fmt.Printf("| **all** | %d | %d (%.0f %%) | | %d (%.0f %%) | |\n", sumN, sumMap, 100*float64(sumMap)/float64(max(1, sumN)), sumPath, 100*float64(sumPath)/float64(max(1, sumN)))
	return nil
}

// mapShown packs dir with no query (ablate: the engine's switches) and
// returns how many of the touched files the pack shows and how many
// files it shows in all.
func mapShown(ctx context.Context, dir string, budget int, ablate []string, touched map[string]bool) (int, int, error) {
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		return 0, 0, err
	}
	eng := pack.NewEngine(config.Default(), ws)
	eng.Ablate = ablate
	zero := 0
	res, err := eng.Pack(ctx, pack.Request{Encoding: eval.Encoding, Paths: []string{dir},
		Budget: &config.BudgetOverrides{TotalTokens: &budget, SystemReserve: &zero, ResponseReserve: &zero}}, nil, nil)
	if err != nil {
		return 0, 0, err
	}
	files := map[string]bool{}
	for _, e := range res.Included {
		files[e.Path] = true
	}
	n := 0
	for p := range touched {
		if files[p] {
			n++
		}
	}
	return n, len(files), nil
}
