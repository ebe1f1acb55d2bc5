package config

import (
	"strings"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	for x, want := range map[float64]string{0.6 + 0.6 + 0.4: "1.6", 0.1 + 0.2: "0.3", 1: "1", 0.8: "0.8", 1.25: "1.25", -0.5: "-0.5"} {
		if got := FormatNumber(x); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestTopLevelContextKey: a context key written at the top level says to
// move it under context: and leaves its checks unrun.
func TestTopLevelContextKey(t *testing.T) {
	v := Inspect([]byte("budget:\n  total_tokens: -5\nfoo: 1\n"))
	var budgetP, fooP *Problem
	for i, p := range v.Problems {
		switch p.Key {
		case "budget":
			budgetP = &v.Problems[i]
		case "foo":
			fooP = &v.Problems[i]
		}
	}
	if budgetP == nil || !strings.Contains(budgetP.Fix, "move it under `context:`") || budgetP.Line != 1 {
		t.Errorf("budget: %+v", budgetP)
	}
	if fooP == nil || !strings.HasPrefix(fooP.Fix, "remove it") {
		t.Errorf("foo: %+v", fooP)
	}
	for _, g := range []string{"budget", "categories"} {
		if !strings.Contains(v.NotChecked[g], "budget (line 1) is not under context:") {
			t.Errorf("group %s: not checked %q", g, v.NotChecked[g])
		}
	}
	if _, ok := v.NotChecked["ranking"]; ok {
		t.Error("ranking is not blocked by a top-level budget")
	}
	// The server's error says the same.
	_, err := Parse([]byte("budget:\n  total_tokens: 5000\n"), "c.yml")
	if err == nil || !strings.Contains(err.Error(), "move it under `context:`") {
		t.Errorf("Parse: %v", err)
	}
}
