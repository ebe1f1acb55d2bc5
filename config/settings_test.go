package config

import (
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSettingsMatchOverrides: the settings the server reads are exactly the
// JSON names of Overrides (and of BudgetOverrides under "budget."), and each
// names a config file key that exists — so Settings cannot list a setting
// the server ignores, nor miss one it reads.
func TestSettingsMatchOverrides(t *testing.T) {
	var fromSettings []string
	for _, s := range Settings() {
		if !s.Server() {
			continue
		}
		fromSettings = append(fromSettings, s.Key)
		if s.File == "" || FileDefault(s.File) == nil {
			t.Errorf("%s: file key %q has no default", s.Key, s.File)
		}
	}
	var fromOverrides []string
	for _, k := range SettingKeys() {
		if k == "budget" {
			for _, b := range jsonNames(BudgetOverrides{}) {
				fromOverrides = append(fromOverrides, "budget."+b)
			}
			continue
		}
		fromOverrides = append(fromOverrides, k)
	}
	sort.Strings(fromSettings)
	sort.Strings(fromOverrides)
	if diff := cmp.Diff(fromOverrides, fromSettings); diff != "" {
		t.Errorf("server settings differ from Overrides (-Overrides +Settings):\n%s", diff)
	}
}

func TestSettingsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Settings() {
		if seen[s.Key] {
			t.Errorf("%s listed twice", s.Key)
		}
		seen[s.Key] = true
		if !slices.Contains([]string{"string", "integer", "boolean", "object", "array"}, s.Type) {
			t.Errorf("%s: type %q", s.Key, s.Type)
		}
		if s.Doc == "" {
			t.Errorf("%s: no doc", s.Key)
		}
		if s.Server() && s.Default != nil {
			t.Errorf("%s: a server setting has no default of its own (the file decides)", s.Key)
		}
		if !s.Server() && s.Default == nil {
			t.Errorf("%s: an editor's own setting needs a default", s.Key)
		}
	}
	enc := Settings()[2]
	if enc.Key != "encoding" || len(enc.Enum) != 8 {
		t.Errorf("acode.encoding offers %v, want the 8 encodings", enc.Enum)
	}
}

func TestFileDefault(t *testing.T) {
	for key, want := range map[string]any{
		"context.budget.total_tokens":   100000,
		"context.tokenizer.model":       "gpt-4o",
		"context.budget.redistribute":   true,
		"context.nope":                  nil,
		"context.budget.total_tokens.x": nil,
	} {
		if got := FileDefault(key); got != want {
			t.Errorf("FileDefault(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestSettingNameAndOwnSettings(t *testing.T) {
	for key, want := range map[string]string{
		"context.budget.total_tokens":          "acode.budget.totalTokens",
		"context.budget.categories.open_files": "acode.budget.categories.open_files",
		"context.tokenizer.encoding":           "acode.encoding",
		"context.ranking.recency_weight":       "context.ranking.recency_weight",
	} {
		if got := SettingName(key); got != want {
			t.Errorf("SettingName(%q) = %q, want %q", key, got, want)
		}
	}
	got := UnknownSettings([]byte(`{"serverPath":"x","trace":{"server":"off"},"pack":{"askForBudget":true},"modle":"x"}`))
	if diff := cmp.Diff([]string{"acode.modle"}, got); diff != "" {
		t.Errorf("UnknownSettings (-want +got):\n%s", diff)
	}
}
