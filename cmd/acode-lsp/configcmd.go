package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/config"
)

// runConfig implements `acode-lsp config validate [--config FILE]`: one
// ✓/✗ line per check, the allocation per category, exit 1 when invalid.
func runConfig(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const usage = "usage: acode-lsp config validate [--config FILE]\n\nChecks a configuration file: one ✓/✗ line per rule, what to change, exit 1 if invalid.\n"
	if code, ok := configSubcommand(args, usage, stdout, stderr); !ok {
		return code
	}
	fs := flag.NewFlagSet("config validate", flag.ContinueOnError)
	cfgPath := fs.String("config", "", "config `FILE` (default: .agent/config.yml found from the current directory up)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage+"\n")
		printFlags(fs)
	}
	if code, ok := parseFlags(fs, args[1:], stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "acode-lsp config validate: unexpected argument %q (give the file with --config)\n", fs.Arg(0))
		return 2
	}
	path := *cfgPath
	if path == "" {
		path = findConfig("")
	}
	if path == "" {
		fmt.Fprintf(stdout, "No %s found from %s up; checking the defaults.\n\n", config.FileName, cwd())
		return report(stdout, config.Inspect(nil))
	}
	data, err := config.ReadFile(path)
	var ce *config.Error
	switch {
	case errors.As(err, &ce):
		for _, p := range ce.Problems {
			fmt.Fprintf(stdout, "✗ %s %s\n  Fix: %s\n", path, p.Rule, p.Fix)
		}
		return 1
	case err != nil:
		fmt.Fprintf(stdout, "✗ %s: %v\n  Fix: give an existing, readable file with --config, or create %s\n", path, unwrapPathErr(err), config.FileName)
		return 1
	}
	fmt.Fprintf(stdout, "Checking %s\n\n", path)
	return report(stdout, config.Inspect(data))
}

// configSubcommand handles `config -h` and a missing or unknown
// subcommand; ok is true for validate.
func configSubcommand(args []string, usage string, stdout, stderr io.Writer) (code int, ok bool) {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help") {
		fmt.Fprint(stdout, usage)
		return 0, false
	}
	if len(args) == 0 || args[0] != "validate" {
		what := "no subcommand"
		if len(args) > 0 {
			what = fmt.Sprintf("unknown subcommand %q", args[0])
		}
		fmt.Fprintf(stderr, "acode-lsp config: %s; the only one is validate: acode-lsp config validate [--config FILE]\n", what)
		return 2, false
	}
	return 0, true
}

// check is one line of the validation report: the problems of its group
// (or of its kinds, for the first) make it fail.
type check struct {
	name  string
	group string
	kinds []string                  // for the syntax/keys/types line
	match func(config.Problem) bool // narrows the group, when set
}

// report prints one line per check — ✓, ✗ with the problems, "not checked"
// with the reason when its values could not be read — then the allocation
// when the file is valid. Exit 1 when invalid.
func report(w io.Writer, v config.Validation) int {
	leaves := func(p config.Problem) bool { return strings.HasPrefix(p.Rule, "leaves") }
	r := &reporter{w: w, v: v, checks: reportChecks(v.Config.Context.Budget, leaves), shown: make([]bool, len(v.Problems))}
	r.failed = make([]bool, len(r.checks))
	// A budget whose total does not cover its reserves is not a valid budget
	// configuration: its check then shows no ✓ (the ✗ follows it).
	if _, skip := v.NotChecked["budget"]; !skip {
		r.leavesFailed = slices.ContainsFunc(v.Problems, func(p config.Problem) bool {
			return p.Kind == config.KindValue && config.Group(p.Key) == "budget" && leaves(p)
		})
	}
	for ci := range r.checks {
		if ci > 0 && !v.Read {
			fmt.Fprintln(w, "– Not checked: the other rules, because the file is not valid YAML, so nothing in it was read")
			break
		}
		r.line(ci)
	}
	for i, p := range v.Problems {
		if !r.shown[i] {
			printProblem(w, "✗ Error", p)
		}
	}
	if len(v.Problems) > 0 {
		fmt.Fprintf(w, "\nConfiguration invalid: %d problem(s). Nothing was changed.\n", len(v.Problems))
		return 1
	}
	printSummary(w, v.Config)
	return 0
}

// reporter is the state of one report: which problems were shown and which
// checks failed.
type reporter struct {
	w            io.Writer
	v            config.Validation
	checks       []check
	shown        []bool // per problem
	failed       []bool // per check
	leavesFailed bool   // the total does not cover the reserves
}

// line prints check ci: not checked (with why), its problems, its
// warnings, or ✓.
func (r *reporter) line(ci int) {
	c := r.checks[ci]
	if ci == 3 {
		// The numbers it would show are not the file's, or not valid.
		if _, skip := r.v.NotChecked[c.group]; skip || r.failed[1] {
			c.name = "Total budget > reserves"
		}
	}
	if why, skip := r.v.NotChecked[c.group]; skip && c.group != "" {
		fmt.Fprintf(r.w, "– Not checked: %s, because %s\n", c.name, why)
		return
	}
	if ci == 3 && r.failed[1] {
		fmt.Fprintf(r.w, "– Not checked: %s, because the budget values above are invalid\n", c.name)
		return
	}
	r.problems(ci, c)
	switch {
	case r.failed[ci] || ci == 1 && r.leavesFailed:
	case c.group == "tokenizer" && len(r.v.Warnings) > 0:
		for _, p := range r.v.Warnings {
			printProblem(r.w, "! Warning", p)
		}
	default:
		fmt.Fprintf(r.w, "✓ %s\n", c.name)
	}
}

// problems prints the problems of check c not shown yet, and marks it
// failed when there is one.
func (r *reporter) problems(ci int, c check) {
	for i, p := range r.v.Problems {
		mine := (c.kinds != nil && slices.Contains(c.kinds, p.Kind)) ||
			(c.kinds == nil && p.Kind == config.KindValue && config.Group(p.Key) == c.group && (c.match == nil || c.match(p)))
		if !mine || r.shown[i] {
			continue
		}
		r.failed[ci], r.shown[i] = true, true
		printProblem(r.w, "✗ Error", p)
		if p.Key == "context.budget.categories" {
			for _, cat := range budget.Categories {
				if pct, ok := r.v.Config.Context.Budget.Categories[cat]; ok {
					fmt.Fprintf(r.w, "  - %s: %d%%\n", cat, pct)
				} else {
					fmt.Fprintf(r.w, "  - %s: missing (0%%)\n", cat)
				}
			}
		}
	}
}

// printSummary prints, for a valid configuration, the tokenizer it counts
// with (exact, or the upper-bound estimate) and the allocation per category.
func printSummary(w io.Writer, cfg config.Config) {
	tok, terr := tokenizer.Resolve(cfg.Context.Tokenizer.Model, cfg.Context.Tokenizer.Encoding)
	if terr == nil {
		name := cfg.Context.Tokenizer.Model
		if cfg.Context.Tokenizer.Encoding != "" {
			name = "encoding"
		}
		if e := tokenizer.EstimateOf(tok); !tok.Exact() && e != nil {
			fmt.Fprintf(w, "! Tokenizer: %s → upper-bound estimate: %s × %s (not exact)\n", name, e.Basis, config.FormatNumber(e.Factor))
		} else {
			fmt.Fprintf(w, "✓ Tokenizer: %s → %s (exact)\n", name, tok.Encoding())
		}
	}
	alloc, _ := cfg.Allocation()
	fmt.Fprintf(w, "\nAvailable for content: %s tokens\n", comma(alloc.Available))
	fmt.Fprintln(w, "Category allocations:")
	for _, c := range budget.Categories {
		fmt.Fprintf(w, "  - %s: %s tokens (%d%%)\n", c, comma(alloc.Tokens[c]), alloc.Percent[c])
	}
}

// reportChecks lists the lines of the report, in order; leaves tells the
// total-versus-reserves problem from the other budget problems.
func reportChecks(b config.Budget, leaves func(config.Problem) bool) []check {
	return []check{
		{name: "YAML syntax, keys and value types valid", kinds: []string{config.KindSyntax, config.KindKey, config.KindType}},
		{name: "Budget configuration valid", group: "budget", match: func(p config.Problem) bool { return !leaves(p) }},
		{name: "Category percentages sum to 100%", group: "categories"},
		{name: fmt.Sprintf("Total budget (%s) > reserves (%s)", comma(int64(b.TotalTokens)), comma(int64(b.SystemPromptReserve)+int64(b.ResponseReserve))), group: "budget", match: leaves},
		{name: "Source priorities within 0..100", group: "source_priority"},
		{name: "Ranking weights within [0,1], summing to at most 1", group: "ranking"},
		{name: "Chunk sizes valid", group: "chunking"},
		{name: "Dedup overlap threshold within (0,1]", group: "dedup"},
		{name: "Tokenizer known", group: "tokenizer"},
	}
}

func printProblem(w io.Writer, label string, p config.Problem) {
	if p.Kind == config.KindSyntax {
		at := "the file"
		if p.Line > 0 {
			at = fmt.Sprintf("line %d", p.Line)
		}
		fmt.Fprintf(w, "%s: %s %s\n  Suggestion: %s\n", label, at, p.Rule, p.Fix)
		return
	}
	fmt.Fprintf(w, "%s: %s%s%s: %s\n  Suggestion: %s\n", label, p.Key, lineSuffix(p.Line), valueSuffix(p.Value), p.Rule, p.Fix)
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
	if p, ok := config.Discover(dir, true); ok {
		return p
	}
	return ""
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
