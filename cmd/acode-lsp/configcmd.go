package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/config"
)

// runConfig implements `acode-lsp config validate [--config FILE]`: one
// ✓/✗ line per check, the allocation per category, exit 1 when invalid.
func runConfig(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "validate" {
		fmt.Fprintln(stderr, "usage: acode-lsp config validate [--config FILE]")
		return 2
	}
	fs := flag.NewFlagSet("config validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default: .agent/config.yml found from the current directory up)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	path := *cfgPath
	if path == "" {
		path = findConfig("")
	}
	if path == "" {
		fmt.Fprintf(stdout, "No %s found from %s up; checking the defaults.\n\n", config.FileName, cwd())
		return report(stdout, config.Default(), nil)
	}
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(stdout, "✗ %s: %v\n  Fix: give an existing file with --config, or create %s\n", path, unwrapPathErr(err), config.FileName)
		return 1
	}
	fmt.Fprintf(stdout, "Checking %s\n\n", path)
	cfg, err := config.Load(path)
	return report(stdout, cfg, err)
}

// check is one line of the validation report: it passes when no problem's
// key starts with one of its prefixes.
type check struct {
	ok       string
	prefixes []string
}

func report(w io.Writer, cfg config.Config, err error) int {
	var ce *config.Error
	if err != nil && !errors.As(err, &ce) {
		fmt.Fprintf(w, "✗ %v\n", err)
		return 1
	}
	var probs []config.Problem
	if ce != nil {
		probs = ce.Problems
		if ce.Decoded != nil {
			cfg = *ce.Decoded
		}
	}
	b := cfg.Context.Budget
	checks := []check{
		{"YAML syntax and keys valid", []string{"(yaml)", "(value)", "(file)"}},
		{"Budget configuration valid", []string{"context.budget.total_tokens", "context.budget.system_prompt_reserve", "context.budget.response_reserve"}},
		{"Category percentages sum to 100%", []string{"context.budget.categories"}},
		{fmt.Sprintf("Total budget (%s) > reserves (%s)", comma(int64(b.TotalTokens)), comma(int64(b.SystemPromptReserve+b.ResponseReserve))), []string{"context.budget.total_tokens"}},
		{"Source priorities within 0..100", []string{"context.source_priority"}},
		{"Ranking weights within [0,1], summing to at most 1", []string{"context.ranking"}},
		{"Chunk sizes valid", []string{"context.chunking"}},
		{"Dedup overlap threshold within (0,1]", []string{"context.dedup"}},
		{"Tokenizer known", []string{"context.tokenizer"}},
	}
	owner := make([]int, len(probs))
	for i, p := range probs {
		owner[i] = -1
		switch {
		case strings.HasPrefix(p.Key, "(") || p.Rule == "unknown key" || p.Rule == "unknown category":
			owner[i] = 0
		case p.Key == "context.budget.total_tokens" && strings.HasPrefix(p.Rule, "leaves"):
			owner[i] = 3
		default:
			for ci, c := range checks[1:] {
				for _, pre := range c.prefixes {
					if owner[i] < 0 && (p.Key == pre || strings.HasPrefix(p.Key, pre+".")) {
						owner[i] = ci + 1
					}
				}
			}
		}
	}
	shown := map[int]bool{}
	for ci, c := range checks {
		failed := false
		for i, p := range probs {
			if owner[i] != ci {
				continue
			}
			failed = true
			shown[i] = true
			fmt.Fprintf(w, "✗ Error: %s\n", p.Key+lineSuffix(p.Line)+valueSuffix(p.Value)+": "+p.Rule)
			if p.Key == "context.budget.categories" {
				for _, c := range budget.Categories {
					if v, ok := cfg.Context.Budget.Categories[c]; ok {
						fmt.Fprintf(w, "  - %s: %d%%\n", c, v)
					}
				}
			}
			fmt.Fprintf(w, "  Suggestion: %s\n", p.Fix)
		}
		if !failed && (ci != 0 || len(probs) == 0 || owner0(owner)) {
			fmt.Fprintf(w, "✓ %s\n", c.ok)
		}
	}
	for i, p := range probs {
		if !shown[i] {
			fmt.Fprintf(w, "✗ Error: %s: %s\n  Suggestion: %s\n", p.Key+lineSuffix(p.Line), p.Rule, p.Fix)
		}
	}
	if len(probs) > 0 {
		fmt.Fprintf(w, "\nConfiguration invalid: %d problem(s). Nothing was changed.\n", len(probs))
		return 1
	}
	tok, terr := tokenizer.Resolve(cfg.Context.Tokenizer.Model, cfg.Context.Tokenizer.Encoding)
	if terr == nil {
		exact := "exact"
		if !tok.Exact() {
			exact = "estimated: unknown model, ceil(chars/3.5)"
		}
		name := cfg.Context.Tokenizer.Model
		if cfg.Context.Tokenizer.Encoding != "" {
			name = "encoding"
		}
		fmt.Fprintf(w, "✓ Tokenizer: %s → %s (%s)\n", name, tok.Encoding(), exact)
	}
	alloc, _ := cfg.Allocation()
	fmt.Fprintf(w, "\nAvailable for content: %s tokens\n", comma(alloc.Available))
	fmt.Fprintln(w, "Category allocations:")
	for _, c := range budget.Categories {
		fmt.Fprintf(w, "  - %s: %s tokens (%d%%)\n", c, comma(alloc.Tokens[c]), alloc.Percent[c])
	}
	return 0
}

// owner0 reports whether no problem belongs to the YAML/keys check.
func owner0(owner []int) bool {
	for _, o := range owner {
		if o == 0 {
			return false
		}
	}
	return true
}

func lineSuffix(line int) string {
	if line > 0 {
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}

func valueSuffix(v string) string {
	if v != "" {
		return " = " + v
	}
	return ""
}

// findConfig looks for .agent/config.yml from start (default: the current
// directory) up to the file system root.
func findConfig(start string) string {
	dir := start
	if dir == "" {
		dir = cwd()
	}
	dir, _ = filepath.Abs(dir)
	for {
		p := config.FilePath(dir)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return "."
	}
	return d
}

// comma formats 12345 as "12,345".
func comma(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
