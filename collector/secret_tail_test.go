package collector

import (
	"math/rand"
	"path"
	"strings"
	"testing"
)

// isSecretPathWhole is IsSecretPath as it was before it lowered only the
// path's last two elements: the whole path lowered.
func isSecretPathWhole(rel string) (bool, string) {
	rel = strings.ReplaceAll(rel, `\`, "/")
	lower := strings.ToLower(rel)
	base := path.Base(lower)
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		if envTemplates[base] {
			return false, ""
		}
		return true, "environment file (.env*)"
	}
	for _, check := range wholeChecks {
		if why := check(base, lower); why != "" {
			return true, why
		}
	}
	return false, ""
}

// wholeChecks are secretPathChecks with the directory-and-name check as
// it was: the lookup for every name (no homeCredentialNames).
var wholeChecks = append(append(secretPathChecks[:3:3], func(base, lower string) string {
	return homeCredentials[path.Base(path.Dir(lower))+"/"+base]
}), secretPathChecks[4:]...)

// TestSecretPathTailIsWhole: IsSecretPath (lowering the tail) answers as
// the whole path lowered for paths made of every kind of element,
// including the ones path.Dir cleans away ("", ".", "..").
func TestSecretPathTailIsWhole(t *testing.T) {
	elems := []string{"", ".", "..", "a", "Src", ".AWS", ".aws", "credentials", "Credentials.JSON",
		".kube", "config", ".Docker", "config.json", ".env", ".ENV.local", ".env.example", "id_RSA.pub",
		"x.PEM", "state.tfstate.BACKUP", "secrets.yaml", "İ", "\xff", "K", "a\\.aws", "\\"}
	fixed := []string{"", "/", "//", ".aws/credentials", "x/.aws/credentials", "x/.aws/../credentials",
		".aws/./credentials", ".aws//credentials", ".aws/credentials/", "../.aws/credentials",
		`x\.aws\credentials`, "a/.AWS/Credentials", "/.kube/config", "./.kube/config"}
	if len(secretPathChecks) != 5 || len(wholeChecks) != 5 {
		t.Fatalf("%d checks: update wholeChecks", len(secretPathChecks))
	}
	rng := rand.New(rand.NewSource(24))
	for range 20000 {
		n := 1 + rng.Intn(5)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = elems[rng.Intn(len(elems))]
		}
		fixed = append(fixed, strings.Join(parts, "/"))
	}
	for _, p := range fixed {
		gotS, gotWhy := IsSecretPath(p)
		wantS, wantWhy := isSecretPathWhole(p)
		if gotS != wantS || gotWhy != wantWhy {
			t.Fatalf("IsSecretPath(%q) = %v %q, want %v %q", p, gotS, gotWhy, wantS, wantWhy)
		}
	}
}

// TestActiveRulesNone: no hit, no rule; hits give their rules in table
// order, once each.
func TestActiveRulesNone(t *testing.T) {
	if got := activeRules(nil); got != nil {
		t.Fatalf("activeRules(nil) = %v, want nil", got)
	}
	if len(rules) < 2 {
		t.Fatalf("%d rules, want at least 2", len(rules))
	}
	got := activeRules([]hit{{rule: 1}, {rule: 0}, {rule: 1}})
	if len(got) != 2 || got[0] != &rules[0] || got[1] != &rules[1] {
		t.Fatalf("activeRules = %v, want rules 0 and 1", got)
	}
}
