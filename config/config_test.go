package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want func(*Config)
	}{
		{"empty file", "", func(*Config) {}},
		{"only comments", "# nothing\n", func(*Config) {}},
		{"seed scenario 2", `
context:
  budget:
    total_tokens: 10000
    system_prompt_reserve: 1000
    response_reserve: 2000
    categories:
      tool_results: 50
      open_files: 30
      search_results: 20
`, func(c *Config) {
			c.Context.Budget.TotalTokens = 10000
			c.Context.Budget.SystemPromptReserve = 1000
			c.Context.Budget.ResponseReserve = 2000
			c.Context.Budget.Categories = map[string]int{"tool_results": 50, "open_files": 30, "search_results": 20}
		}},
		{"encoding and exclude", `
context:
  tokenizer: {encoding: cl100k_base}
  exclude: ["vendor/**", "*.gen.go"]
  dedup: {overlap_threshold: 0.5}
`, func(c *Config) {
			c.Context.Tokenizer.Encoding = "cl100k_base"
			c.Context.Exclude = []string{"vendor/**", "*.gen.go"}
			c.Context.Dedup.OverlapThreshold = 0.5
		}},
		{"partial source priority keeps the others", `
context:
  source_priority: {references: 90}
`, func(c *Config) { c.Context.SourcePriority["references"] = 90 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.yaml), "test.yml")
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := Default()
			tt.want(&want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseInvalid(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		key      string
		line     int
		contains []string
	}{
		{"unknown key with line", "context:\n  budget:\n    total_tokens: 1000\n    totl: 5\n", "context.budget.totl", 4, []string{"unknown key", "total_tokens"}},
		{"unknown top-level key", "contex:\n  budget: {}\n", "contex", 1, []string{"did you mean \"context\""}},
		{"unknown category", "context:\n  budget:\n    categories: {tool_results: 100, docs: 0}\n", "context.budget.categories.docs", 3, []string{"unknown category"}},
		{"sum not 100 (seed scenario 10)", "context:\n  budget:\n    total_tokens: 100000\n    categories:\n      tool_results: 40\n      open_files: 30\n      search_results: 20\n", "context.budget.categories", 0, []string{"sum to 90%", "references", "10%"}},
		{"available <= 0", "context:\n  budget:\n    total_tokens: 5000\n    system_prompt_reserve: 2000\n    response_reserve: 3000\n", "context.budget.total_tokens", 0, []string{"leaves 0 tokens", "raise total_tokens above 5000"}},
		{"negative reserve", "context:\n  budget:\n    response_reserve: -1\n", "context.budget.response_reserve", 0, []string{"must not be negative"}},
		{"negative percentage", "context:\n  budget:\n    categories: {tool_results: 110, open_files: -10}\n", "context.budget.categories.open_files", 0, []string{"0 to 100"}},
		{"bad type names the key", "context:\n  budget:\n    total_tokens: lots\n", "context.budget.total_tokens", 3, []string{"lots", "whole number"}},
		{"bad yaml", "context:\n  budget: [\n", "(yaml)", 0, []string{"not valid YAML"}},
		{"weights over 1", "context:\n  ranking: {relevance_weight: 0.9, recency_weight: 0.3}\n", "context.ranking", 0, []string{"at most 1"}},
		{"min over max", "context:\n  chunking: {max_chunk_tokens: 100, min_chunk_tokens: 200}\n", "context.chunking.min_chunk_tokens", 0, []string{"larger than max_chunk_tokens"}},
		{"threshold", "context:\n  dedup: {overlap_threshold: 1.5}\n", "context.dedup.overlap_threshold", 0, []string{"at most 1"}},
		{"unknown encoding", "context:\n  tokenizer: {encoding: gpt2000}\n", "context.tokenizer.encoding", 0, []string{"o200k_base"}},
		{"misspelt category", "context:\n  budget:\n    categories: {tool_result: 100}\n", "context.budget.categories.tool_result", 3, []string{"did you mean \"tool_results\""}},
		{"exclude not a list", "context:\n  exclude: vendor/**\n", "context.exclude", 2, []string{"must be a list"}},
		{"exclude item not a string", "context:\n  exclude: [vendor, {a: b}]\n", "context.exclude", 2, []string{"must be a list of strings"}},
		{"section not a mapping", "context:\n  ranking: 0.5\n", "context.ranking", 2, []string{"must be a mapping of keys"}},
		{"weights not a mapping", "context:\n  source_priority: [1, 2]\n", "context.source_priority", 2, []string{"mapping of `name: number` lines"}},
		{"priority over 100", "context:\n  source_priority: {references: 101}\n", "context.source_priority.references", 2, []string{"from 0 to 100"}},
		{"negative weight", "context:\n  ranking: {relevance_weight: -0.1}\n", "context.ranking.relevance_weight", 0, []string{"from 0 to 1"}},
		{"no positive weight", "context:\n  ranking: {relevance_weight: 0, recency_weight: 0, source_weight: 0}\n", "context.ranking", 0, []string{"more than 0"}},
		{"max chunk zero", "context:\n  chunking: {max_chunk_tokens: 0}\n", "context.chunking.max_chunk_tokens", 0, []string{"must be positive"}},
		{"negative min chunk", "context:\n  chunking: {min_chunk_tokens: -1}\n", "context.chunking.min_chunk_tokens", 0, []string{"must not be negative"}},
		{"negative cache", "context:\n  tokenizer: {cache_size: -1}\n", "context.tokenizer.cache_size", 0, []string{"must not be negative"}},
		{"boolean not a boolean", "context:\n  ignore_defaults: maybe\n", "context.ignore_defaults", 2, []string{"maybe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.yaml), "test.yml")
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse error = %v, want *config.Error", err)
			}
			var found *Problem
			for i, p := range ce.Problems {
				if p.Key == tt.key {
					found = &ce.Problems[i]
				}
			}
			if found == nil {
				t.Fatalf("no problem for key %q in %v", tt.key, ce.Problems)
			}
			if tt.line != 0 && found.Line != tt.line {
				t.Errorf("line = %d, want %d", found.Line, tt.line)
			}
			if found.Fix == "" {
				t.Errorf("problem %v has no fix", found)
			}
			msg := ce.Error()
			for _, s := range tt.contains {
				if !strings.Contains(msg, s) {
					t.Errorf("message %q does not contain %q", msg, s)
				}
			}
		})
	}
}

func TestLoadMissingFileIsDefault(t *testing.T) {
	got, err := Load(filepath.Join(t.TempDir(), "nope.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Default(), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := FilePath(dir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("context:\n  tokenizer: {model: gpt-4}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if got.Context.Tokenizer.Model != "gpt-4" {
		t.Errorf("model = %q", got.Context.Tokenizer.Model)
	}
}

func TestWithOverrides(t *testing.T) {
	base := Default()
	got, err := base.WithOverrides([]byte(`{"model":"gpt-4","budget":{"totalTokens":16000,"systemReserve":1000,"responseReserve":3000,"categories":{"open_files":100}},"serverPath":"/x","trace":{"server":"off"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Context.Tokenizer.Model = "gpt-4"
	want.Context.Budget.TotalTokens = 16000
	want.Context.Budget.SystemPromptReserve = 1000
	want.Context.Budget.ResponseReserve = 3000
	want.Context.Budget.Categories = map[string]int{"open_files": 100}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Default(), base); diff != "" {
		t.Errorf("base was modified (-want +got):\n%s", diff)
	}
	if _, err := base.WithOverrides([]byte(`{"budget":{"totalTokens":100}}`)); err == nil || !strings.Contains(err.Error(), "acode.budget.totalTokens (editor setting)") {
		t.Errorf("invalid override error = %v", err)
	}
	for _, raw := range []string{"", "null", "{}"} {
		got, err := base.WithOverrides([]byte(raw))
		if err != nil || !cmp.Equal(base, got) {
			t.Errorf("WithOverrides(%q) = %v, %v; want unchanged", raw, got, err)
		}
	}
}

func TestAllocationSumsToAvailable(t *testing.T) {
	cfg := Default()
	cfg.Context.Budget.TotalTokens = 10007
	a, err := cfg.Allocation()
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, v := range a.Tokens {
		sum += v
	}
	if sum != a.Available || a.Available != 7 {
		t.Errorf("sum = %d, available = %d", sum, a.Available)
	}
}

// TestInspect: every value that parsed is checked, whatever else is wrong;
// a check whose value could not be read is reported as not checked rather
// than run on the default.
func TestInspect(t *testing.T) {
	type prob struct {
		Kind, Key string
		Line      int
	}
	tests := []struct {
		name       string
		yaml       string
		problems   []prob
		notChecked []string // groups
		warnings   []string // keys
	}{
		{"typo elsewhere does not hide value errors",
			"context:\n  budget:\n    total_tokens: 8000\n    system_prompt_reserve: 4000\n    response_reserve: 5000\n    categories: {tool_results: 50, open_files: 30, search_results: 20, references: 10}\n  rankin: {}\n",
			[]prob{{KindKey, "context.rankin", 7}, {KindValue, "context.budget.total_tokens", 3}, {KindValue, "context.budget.categories", 6}},
			[]string{"ranking"}, nil},
		{"negative total", "context:\n  budget:\n    total_tokens: -5\n",
			[]prob{{KindValue, "context.budget.total_tokens", 3}}, nil, nil},
		{"zero total", "context:\n  budget:\n    total_tokens: 0\n",
			[]prob{{KindValue, "context.budget.total_tokens", 3}}, nil, nil},
		{"bad indent is reported on its own line", "context:\n  budget:\n    total_tokens: 100\n   system_prompt_reserve: 5\n",
			[]prob{{KindSyntax, "(yaml)", 4}}, []string{"budget", "categories", "source_priority", "ranking", "chunking", "dedup", "tokenizer"}, nil},
		{"tab indent", "context:\n  budget:\n\ttotal_tokens: 100\n",
			[]prob{{KindSyntax, "(yaml)", 3}}, []string{"budget", "categories", "source_priority", "ranking", "chunking", "dedup", "tokenizer"}, nil},
		{"type error names the key and skips its group only", "context:\n  budget:\n    total_tokens: lots\n    response_reserve: 200000\n  dedup: {overlap_threshold: 2}\n",
			[]prob{{KindType, "context.budget.total_tokens", 3}, {KindValue, "context.dedup.overlap_threshold", 0}}, []string{"budget"}, nil},
		{"type error in a category", "context:\n  budget:\n    categories: {tool_results: 40, open_files: thirty, search_results: 20, references: 10}\n",
			[]prob{{KindType, "context.budget.categories.open_files", 3}}, []string{"categories"}, nil},
		{"misspelt key skips the check it would feed", "context:\n  budget:\n    totl_tokens: 8000\n    response_reserve: 9000\n",
			[]prob{{KindKey, "context.budget.totl_tokens", 3}}, []string{"budget"}, nil},
		{"unknown model warns", "context:\n  tokenizer:\n    model: claude-3-opus\n", nil, nil, []string{"context.tokenizer.model"}},
		{"known model", "context:\n  tokenizer: {model: gpt-4}\n", nil, nil, nil},
		{"seed sample tokenizer.type", "context:\n  tokenizer:\n    type: tiktoken\n    model: gpt-4\n",
			[]prob{{KindKey, "context.tokenizer.type", 3}}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Inspect([]byte(tt.yaml))
			got := []prob{}
			for _, p := range v.Problems {
				if p.Fix == "" {
					t.Errorf("problem %v has no fix", p)
				}
				got = append(got, prob{p.Kind, p.Key, p.Line})
			}
			want := append([]prob{}, tt.problems...)
			for i := range want {
				if want[i].Line == 0 && i < len(got) {
					want[i].Line = got[i].Line // line not asserted
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			gotSkip := []string{}
			for _, g := range Groups {
				if _, ok := v.NotChecked[g.Name]; ok {
					gotSkip = append(gotSkip, g.Name)
				}
			}
			if diff := cmp.Diff(append([]string{}, tt.notChecked...), gotSkip); diff != "" {
				t.Errorf("not checked (-want +got):\n%s", diff)
			}
			gotWarn := []string{}
			for _, w := range v.Warnings {
				gotWarn = append(gotWarn, w.Key)
			}
			if diff := cmp.Diff(append([]string{}, tt.warnings...), gotWarn); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSeedTokenizerTypeFix(t *testing.T) {
	for _, tt := range []struct{ yaml, fix string }{
		{"context:\n  tokenizer:\n    # Tokenizer type\n    type: tiktoken\n    model: gpt-4\n", "delete line 4 (`type: tiktoken`); `model: gpt-4` on line 5 already chooses the tokenizer"},
		{"context:\n  tokenizer:\n    type: tiktoken\n", "replace line 3 (`type: tiktoken`) with `model: gpt-4o` (your model's name), or `encoding: o200k_base`"},
	} {
		v := Inspect([]byte(tt.yaml))
		if len(v.Problems) != 1 || v.Problems[0].Fix != tt.fix {
			t.Errorf("problems %+v, want one with fix %q", v.Problems, tt.fix)
		}
	}
}

func TestUnknownSettings(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"all known", `{"model": "gpt-4o", "encoding": "", "budget": {"totalTokens": 1, "categories": {}}, "exclude": []}`, nil},
		{"the extension's own", `{"serverPath": "x", "trace": {"server": "off"}, "pack": {"askForBudget": true}}`, nil},
		{"misspelt", `{"modle": "gpt-4o", "budget": {"total": 5, "redistribute": true}}`, []string{"acode.budget.total", "acode.modle"}},
		{"not an object", `[1]`, nil},
		{"empty", ``, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, UnknownSettings(json.RawMessage(tt.raw))); diff != "" {
				t.Errorf("UnknownSettings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSettingKeys(t *testing.T) {
	want := []string{"model", "encoding", "budget", "exclude"}
	if diff := cmp.Diff(want, SettingKeys()); diff != "" {
		t.Errorf("SettingKeys (-want +got):\n%s", diff)
	}
}

// TestIgnoreDefaults checks context.ignore_defaults (docs/design.md#rule-9):
// on by default, off with false, and a value that is not a boolean is an
// error naming the key.
func TestIgnoreDefaults(t *testing.T) {
	if !Default().Context.IgnoreDefaults {
		t.Error("ignore_defaults is off by default")
	}
	cfg, err := Parse([]byte("context:\n  ignore_defaults: false\n"), "config.yml")
	if err != nil || cfg.Context.IgnoreDefaults {
		t.Errorf("ignore_defaults: false → %v, %v", cfg.Context.IgnoreDefaults, err)
	}
	cfg, err = Parse([]byte("context:\n  exclude: [\"*.log\"]\n"), "config.yml")
	if err != nil || !cfg.Context.IgnoreDefaults {
		t.Errorf("ignore_defaults unset → %v, %v", cfg.Context.IgnoreDefaults, err)
	}
	if _, err := Parse([]byte("context:\n  ignore_defaults: sometimes\n"), "config.yml"); err == nil || !strings.Contains(err.Error(), "ignore_defaults") {
		t.Errorf("ignore_defaults: sometimes → %v, want an error naming the key", err)
	}
}
