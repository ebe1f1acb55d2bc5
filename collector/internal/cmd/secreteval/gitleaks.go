package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// tally counts planted and leaked cases.
type tally struct{ cases, leaked int }

func (t *tally) add(leaked bool) {
	t.cases++
	if leaked {
		t.leaked++
	}
}

func (t tally) String() string {
	if t.cases == 0 {
		return "      —      "
	}
	return fmt.Sprintf("%4d/%-5d %5.1f%%", t.leaked, t.cases, 100*float64(t.leaked)/float64(t.cases))
}

// split is a tally for the development and the held-out rules.
type split [2]tally

func (s *split) add(held, leaked bool) {
	i := 0
	if held {
		i = 1
	}
	s[i].add(leaked)
}

// gitleaksCorpus runs the corpus built from gitleaks' rules and reports
// leak rates by measure, family and shape, development and held-out rules
// apart (split: secreteval.SplitV1 or SplitV2); show prints the leaked
// development cases (never the held-out ones). It returns false when a
// target is missed on the held-out rules.
func gitleaksCorpus(seed uint64, split int, show bool) bool {
	src, err := secreteval.FindGitleaks()
	if err != nil {
		fmt.Fprintln(os.Stderr, "secreteval:", err)
		return false
	}
	rules, err := src.Rules()
	if err != nil {
		fmt.Fprintln(os.Stderr, "secreteval:", err)
		return false
	}
	cases, skipped := secreteval.GLCorpus(rules, seed, split)
	r, leaks := glRun(cases, func(s string) string { out, _ := collector.Redact(s); return out }, show)
	fmt.Printf("\ngitleaks corpus (%s; seed %d; split v%d): %d rules (%d development, %d held out), %d files; %d rules left out\n",
		src.Dir(), seed, split, len(r.devRules)+len(r.heldRules), len(r.devRules), len(r.heldRules), len(cases), len(skipped))
	r.print()
	if len(skipped) > 0 {
		fmt.Printf("  left out: %s\n", strings.Join(skipped, "; "))
	}
	if show {
		fmt.Println(strings.Join(leaks, "\n"))
	}
	return r.met()
}

// glRun redacts and tallies every case. With show it also returns the
// leaked cases to print — development cases only: a held-out case is
// counted and never rendered, so no output of this command shows one.
func glRun(cases []secreteval.GLCase, redact func(string) string, show bool) (*glReport, []string) {
	r := &glReport{byFamily: map[string]*split{}, byShape: map[string]*split{}, heldRules: map[string]bool{}, devRules: map[string]bool{}}
	var leaks []string
	for _, c := range cases {
		out := redact(c.Text)
		l := len(secreteval.Leaked(c.Case, out)) > 0
		r.add(c, l)
		if l && show && !c.HeldOut {
			leaks = append(leaks, fmt.Sprintf("--- %s / %s (%s)%s\n%s", c.Rule, c.Shape, c.Path, flags(c), out))
		}
	}
	return r, leaks
}

// glReport tallies the gitleaks corpus by measure, family and shape.
type glReport struct {
	all, flagged, documented, hostile, samples split
	byFamily, byShape                          map[string]*split
	heldRules, devRules                        map[string]bool
}

// add counts one case.
func (r *glReport) add(c secreteval.GLCase, leaked bool) {
	if c.HeldOut {
		r.heldRules[c.Rule] = true
	} else {
		r.devRules[c.Rule] = true
	}
	for _, m := range []struct {
		s  *split
		in bool
	}{{&r.all, true}, {&r.flagged, c.Flagged}, {&r.documented, c.Documented}, {&r.hostile, c.Hostile}, {&r.samples, c.Shape == "gitleaks-sample"}} {
		if m.in {
			m.s.add(c.HeldOut, leaked)
		}
	}
	for _, m := range []struct {
		by  map[string]*split
		key string
	}{{r.byFamily, c.Family}, {r.byShape, c.Shape}} {
		if m.by[m.key] == nil {
			m.by[m.key] = &split{}
		}
		m.by[m.key].add(c.HeldOut, leaked)
	}
}

// print writes the table of measures, shapes and families with leaks.
func (r *glReport) print() {
	fmt.Printf("  %-40s %-18s %-18s %s\n", "measure", "development", "held out", "target (held out)")
	row := func(name string, s split, target string) {
		fmt.Printf("  %-40s %-18s %-18s %s\n", name, s[0], s[1], target)
	}
	row("all placements", r.all, "")
	row("values gitleaks flags in place", r.flagged, "≤ 1 %")
	row("formats docs/security.md names", r.documented, "0")
	row("hostile shapes (issue 22)", r.hostile, "≤ 5 %")
	row("gitleaks' own true-positive samples", r.samples, "")
	fmt.Println("  by shape:")
	for _, k := range sortedKeys(r.byShape) {
		row("  "+k, *r.byShape[k], "")
	}
	fmt.Println("  families with leaks:")
	for _, k := range sortedKeys(r.byFamily) {
		if s := r.byFamily[k]; s[0].leaked+s[1].leaked > 0 {
			row("  "+k, *s, "")
		}
	}
}

// met reports whether the held-out rules meet the targets.
func (r *glReport) met() bool {
	h := func(t tally) float64 { return float64(t.leaked) / float64(max(t.cases, 1)) }
	return h(r.flagged[1]) <= 0.01 && r.documented[1].leaked == 0 && h(r.hostile[1]) <= 0.05
}

func flags(c secreteval.GLCase) string {
	var f []string
	if c.Flagged {
		f = append(f, "flagged")
	}
	if c.Documented {
		f = append(f, "documented")
	}
	if c.Hostile {
		f = append(f, "hostile")
	}
	if len(f) == 0 {
		return ""
	}
	return " [" + strings.Join(f, " ") + "]"
}

func sortedKeys(m map[string]*split) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
