package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigValidateReport: the report of `config validate` never shows a
// ✓ that the file did not earn, names what is missing, and prints numbers
// as they were written (issue 25).
func TestConfigValidateReport(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		code     int
		contains []string
		lacks    []string
	}{
		{"top-level budget is moved, not removed, and its checks are not run on the defaults",
			"budget:\n  total_tokens: 5000\n  categories: {open_files: 100}\n", 1,
			[]string{"✗ Error: budget (line 1): is not under `context:`", "Suggestion: move it under `context:`",
				"– Not checked: Budget configuration valid, because budget (line 1) is not under context:",
				"– Not checked: Category percentages sum to 100%, because budget (line 1)",
				"– Not checked: Total budget > reserves, because budget (line 1)", "✓ Ranking weights"},
			[]string{"remove it", "✓ Budget", "✓ Category", "✓ Total budget", "100,000"}},
		{"top-level tokenizer", "tokenizer:\n  model: gpt-4\n", 1,
			[]string{"✗ Error: tokenizer (line 1): is not under `context:`", "– Not checked: Tokenizer known, because tokenizer (line 1)"},
			[]string{"✓ Tokenizer"}},
		{"no ✓ budget next to a ✗ budget", "context:\n  budget:\n    total_tokens: 5000\n    system_prompt_reserve: 3000\n    response_reserve: 3000\n", 1,
			[]string{"✗ Error: context.budget.total_tokens (line 3) = 5000: leaves -1000 tokens", "✓ Category percentages sum to 100%"},
			[]string{"✓ Budget configuration valid", "✓ Total budget"}},
		{"weights without float noise", "context:\n  ranking: {relevance_weight: 0.6, recency_weight: 0.6, source_weight: 0.4}\n", 1,
			[]string{"✗ Error: context.ranking (line 2) = 1.6: the weights must add up"},
			[]string{"1.5999", "1.6000"}},
		{"the category-sum error names the missing categories", "context:\n  budget:\n    categories: {tool_results: 50, open_files: 30}\n", 1,
			[]string{"percentages sum to 80% (expected 100%); search_results and references are missing (a category left out gets 0%)",
				"  - search_results: missing (0%)", "  - references: missing (0%)", "  - tool_results: 50%"}, nil},
		{"one missing category", "context:\n  budget:\n    categories: {tool_results: 40, open_files: 30, search_results: 20}\n", 1,
			[]string{"; references is missing (a category left out gets 0%)"}, nil},
		{"an unknown model is an upper bound over o200k_base, never chars/3.5", "context:\n  tokenizer:\n    model: mystery-model\n", 0,
			[]string{"every count will be an upper-bound estimate, the exact o200k_base count × 1.55", "`acode-lsp calibrate`",
				"llama3", "gemma3", "! Tokenizer: mystery-model → upper-bound estimate: o200k_base × 1.55 (not exact)"},
			[]string{"3.5", "no exact tokenizer", "Llama, …"}},
		{"a known open-weights model is exact", "context:\n  tokenizer:\n    model: llama-3.1-8b\n", 0,
			[]string{"✓ Tokenizer: llama-3.1-8b → llama3 (exact)"}, []string{"Warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, ".agent", "config.yml"), tt.yaml)
			code, out, errs := runCLI(t, dir, "", "config", "validate")
			if code != tt.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.code, out, errs)
			}
			for _, s := range tt.contains {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.lacks {
				if strings.Contains(out, s) {
					t.Errorf("output has %q:\n%s", s, out)
				}
			}
		})
	}
}
