package main

import (
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector/internal/secreteval"
)

// TestLeaksNeverShowHeldOut holds that -leaks prints leaked development
// cases only: a held-out case that leaks is counted and never rendered
// (not its rule, its path, nor its text).
func TestLeaksNeverShowHeldOut(t *testing.T) {
	mk := func(rule, path, secret string, held bool) secreteval.GLCase {
		return secreteval.GLCase{
			Case: secreteval.Case{Family: rule, Form: "f", Path: path, Text: "x = " + secret + "\n", Secrets: []string{secret}},
			Rule: rule, Shape: "f", HeldOut: held, Flagged: true,
		}
	}
	cases := []secreteval.GLCase{
		mk("devrule", "dev.txt", "DEVSECRETdevsecret0123", false),
		mk("heldrule", "held.txt", "HELDSECRETheldsecret0123", true),
		mk("heldrule", "held2.txt", "HELDSECRETheldsecret4567", true),
	}
	identity := func(s string) string { return s } // everything leaks
	for _, show := range []bool{false, true} {
		r, leaks := glRun(cases, identity, show)
		if r.flagged[0] != (tally{1, 1}) || r.flagged[1] != (tally{2, 2}) {
			t.Errorf("show=%v: tallies %v, want dev 1/1 and held out 2/2", show, r.flagged)
		}
		out := strings.Join(leaks, "\n")
		for _, held := range []string{"heldrule", "held.txt", "held2.txt", "HELDSECRET"} {
			if strings.Contains(out, held) {
				t.Errorf("show=%v: printed a held-out case (%q):\n%s", show, held, out)
			}
		}
		if show != strings.Contains(out, "DEVSECRETdevsecret0123") {
			t.Errorf("show=%v: development leak printed=%v:\n%s", show, !show, out)
		}
	}
}
