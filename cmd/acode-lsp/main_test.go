package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/internal/invariant"
)

// runCLI runs a command line in-process and returns exit code, stdout, stderr.
func runCLI(t *testing.T, dir string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCountJSON(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "The quick brown fox jumps over the lazy dog.\n")
	write(t, filepath.Join(dir, "special.txt"), "<|endoftext|> is text here\n")
	code, out, errs := runCLI(t, dir, "héllo wörld", "count", "--json", "a.txt", "special.txt", "-")
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	var got countResult
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	tok, _ := tokenizer.ForEncoding("o200k_base")
	want := countResult{Encoding: "o200k_base", Exact: true, Files: []countFile{
		{"a.txt", tok.Count("The quick brown fox jumps over the lazy dog.\n")},
		{"special.txt", tok.Count("<|endoftext|> is text here\n")},
		{"-", tok.Count("héllo wörld")},
	}}
	for _, f := range want.Files {
		want.Total += int64(f.Tokens)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if want.Files[1].Tokens < 5 {
		t.Errorf("special-token text counted as %d tokens; it must count as ordinary text", want.Files[1].Tokens)
	}
}

func TestCountModels(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.txt"), "hello world, 1234567\n")
	tests := []struct {
		args     []string
		encoding string
		exact    bool
	}{
		{[]string{"--model", "gpt-4"}, "cl100k_base", true},
		{[]string{"--model", "gpt-4o-mini"}, "o200k_base", true},
		{[]string{"--encoding", "p50k_base"}, "p50k_base", true},
		{[]string{"--model", "my-local-llama"}, "estimate:my-local-llama×1.55", false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(t, dir, "", append(append([]string{"count", "--json"}, tt.args...), "a.txt")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var got countResult
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.Encoding != tt.encoding || got.Exact != tt.exact {
				t.Errorf("encoding %s exact %v, want %s %v", got.Encoding, got.Exact, tt.encoding, tt.exact)
			}
		})
	}
	code, out, _ := runCLI(t, dir, "", "count", "--model", "my-local-llama", "a.txt")
	if code != 0 || !strings.Contains(out, "≈") || !strings.Contains(out, "estimated") {
		t.Errorf("plain output for an unknown model must say it is an estimate:\n%s", out)
	}
}

func TestCountErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "ok.txt"), "fine\n")
	write(t, filepath.Join(dir, "big.txt"), strings.Repeat("x", 2000))
	write(t, filepath.Join(dir, "bad.txt"), "caf\xe9 \xff\xfe\n")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, dir, "", "count", "--max-size", "1000", "ok.txt", "sub", "missing.txt", "big.txt", "bad.txt")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"sub: is a directory", "missing.txt: no such file", "big.txt: 2.0 KB is over the 1000 bytes cap (raise it with --max-size)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	tok, _ := tokenizer.ForEncoding("o200k_base")
	for _, want := range []string{"ok.txt", "bad.txt"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %s: the other files must still be counted:\n%s", want, out)
		}
	}
	if n := tok.Count("caf\uFFFD \uFFFD\uFFFD\n"); !strings.Contains(out, strings.TrimSpace(strings.Fields(out)[0])) || n == 0 {
		t.Errorf("invalid UTF-8 count")
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		code     int
		contains []string
		lacks    []string
	}{
		{"seed scenario 2", "context:\n  budget:\n    total_tokens: 10000\n    system_prompt_reserve: 1000\n    response_reserve: 2000\n    categories:\n      tool_results: 50\n      open_files: 30\n      search_results: 20\n", 0,
			[]string{"✓ Budget configuration valid", "✓ Category percentages sum to 100%", "✓ Total budget (10,000) > reserves (3,000)", "Available for content: 7,000 tokens", "  - tool_results: 3,500 tokens (50%)", "  - open_files: 2,100 tokens (30%)", "  - search_results: 1,400 tokens (20%)", "  - references: 0 tokens (0%)"}, nil},
		{"seed scenario 10", "context:\n  budget:\n    total_tokens: 100000\n    categories:\n      tool_results: 40\n      open_files: 30\n      search_results: 20\n", 1,
			[]string{"✗ Error: context.budget.categories", "sum to 90% (expected 100%)", "  - tool_results: 40%", "Suggestion: add the missing category (references) with 10%"}, nil},
		{"unknown key", "context:\n  budget:\n    totl_tokens: 5\n", 1, []string{"✗ Error: context.budget.totl_tokens (line 3): unknown key", "did you mean \"total_tokens\""}, nil},
		{"reserves too big", "context:\n  budget:\n    total_tokens: 1000\n    response_reserve: 1000\n", 1, []string{"✗ Error: context.budget.total_tokens (line 3) = 1000: leaves -2000 tokens", "raise total_tokens above 3000"}, nil},
		// issue 9: after a key error the other checks still run on what the file says.
		{"typo does not hide the values", "context:\n  budget:\n    total_tokens: 8000\n    system_prompt_reserve: 4000\n    response_reserve: 5000\n    categories: {tool_results: 50, open_files: 30, search_results: 20, references: 10}\n  rankin: {}\n", 1,
			[]string{"✗ Error: context.rankin (line 7): unknown key", "percentages sum to 110%", "✗ Error: context.budget.total_tokens (line 3) = 8000: leaves -1000 tokens",
				"– Not checked: Ranking weights within [0,1], summing to at most 1, because context.rankin (line 7) looks like a misspelling of ranking"},
			[]string{"✓ Category percentages", "✓ Total budget", "✓ Ranking"}},
		{"negative total", "context:\n  budget:\n    total_tokens: -5\n", 1,
			[]string{"✗ Error: context.budget.total_tokens (line 3) = -5: must be a positive number of tokens", "– Not checked: Total budget > reserves, because the budget values above are invalid"},
			[]string{"✓ Total budget"}},
		{"zero total", "context:\n  budget:\n    total_tokens: 0\n", 1, []string{"context.budget.total_tokens (line 3) = 0: must be a positive"}, []string{"✓ Total budget"}},
		{"bad indent on line 4", "context:\n  budget:\n    total_tokens: 100\n   system_prompt_reserve: 5\n", 1,
			[]string{"✗ Error: line 4 is indented by 3 spaces", "– Not checked: the other rules, because the file is not valid YAML"},
			[]string{"line 1", "✓"}},
		{"type error names the key", "context:\n  budget:\n    total_tokens: lots\n", 1,
			[]string{"✗ Error: context.budget.total_tokens (line 3) = lots: must be a whole number", "write a whole number, e.g. `total_tokens: 100000`",
				"– Not checked: Budget configuration valid, because context.budget.total_tokens (line 3) could not be read", "✓ Category percentages sum to 100%"},
			[]string{"cannot unmarshal", "✓ Budget configuration", "✓ Total budget"}},
		{"unknown model warns that counts are estimated", "context:\n  tokenizer:\n    model: claude-3-opus\n", 0,
			[]string{"! Warning: context.tokenizer.model (line 3) = claude-3-opus: has no tokenizer acode-lsp counts exactly: every count will be an upper-bound estimate, the exact o200k_base count × 1.25"},
			[]string{"✓ Tokenizer known"}},
		{"seed sample tokenizer.type", "context:\n  tokenizer:\n    # Tokenizer type (currently only 'tiktoken' supported)\n    type: tiktoken\n    model: gpt-4\n", 1,
			[]string{"✗ Error: context.tokenizer.type (line 4) = tiktoken: is not a key", "Suggestion: delete line 4 (`type: tiktoken`); `model: gpt-4` on line 5 already chooses the tokenizer"}, nil},
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
	code, out, _ := runCLI(t, t.TempDir(), "", "config", "validate", "--config", "nope.yml")
	if code != 1 || !strings.Contains(out, "no such file") {
		t.Errorf("missing --config: exit %d\n%s", code, out)
	}
}

func TestPackSample(t *testing.T) {
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "", "pack", sample, "--query", "why does checkout fail for empty carts", "--budget", "2000", "--json", "--report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Content    string `json:"content"`
		TokenCount int    `json:"tokenCount"`
		Budget     struct {
			Available int `json:"available"`
		} `json:"budget"`
		Excluded []struct{ Path, Reason string } `json:"excluded"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	files, err := invariant.ReadFiles(sample)
	if err != nil {
		t.Fatal(err)
	}
	invariant.CheckJSON(t, []byte(out), invariant.Options{Files: files}) // rules 3, 6, 8
	tok, _ := tokenizer.ForEncoding("o200k_base")
	if n := tok.Count(res.Content); n != res.TokenCount || n > res.Budget.Available || n < res.Budget.Available*9/10 {
		t.Errorf("tokenCount %d, recount %d, available %d", res.TokenCount, n, res.Budget.Available)
	}
	reasons := map[string]string{}
	for _, x := range res.Excluded {
		if _, ok := reasons[x.Path]; !ok {
			reasons[x.Path] = x.Reason
		}
	}
	for path, want := range map[string]string{".env": "secret", "debug.log": "ignored", "assets/logo.png": "binary", "web/dist": "ignored", "cart/mocks.generated.go": "ignored"} {
		if reasons[path] != want {
			t.Errorf("%s excluded as %q, want %q", path, reasons[path], want)
		}
	}
	if strings.Contains(res.Content, "sk_live_") || strings.Contains(res.Content, "sk-proj-") || strings.Contains(res.Content, "hunter2") {
		t.Error("a secret reached the context")
	}
	for _, want := range []string{"Token Budget Report", "Deduplication Savings", "Performance:"} {
		if !strings.Contains(errs, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Reserves over the budget: a usage error naming the flags typed (rule 2).
	code, _, errs = runCLI(t, "", "", "pack", sample, "--budget", "100", "--system-reserve", "60", "--response-reserve", "50")
	if code != 2 || !strings.Contains(errs, "--budget 100 − --system-reserve 60 − --response-reserve 50") {
		t.Errorf("no budget: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "", "", "pack", sample, "--encoding", "gpt9")
	if code != 2 || !strings.Contains(errs, "--encoding gpt9") {
		t.Errorf("bad encoding: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "", "", "pack", sample, "--format", "yaml")
	if code != 2 || !strings.Contains(errs, "--format") {
		t.Errorf("bad format: exit %d, %s", code, errs)
	}
	code, out, errs = runCLI(t, "", "", "pack", sample, "--format", "xml", "--budget", "8000")
	if code != 0 || !strings.HasPrefix(out, "<context>\n<file path=") || !strings.HasSuffix(out, "</context>\n") {
		t.Errorf("--format xml: exit %d, %s\n%.300s", code, errs, out)
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, errs := runCLI(t, "", "", "frobnicate")
	if code != 2 || !strings.Contains(errs, "unknown command") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, out, _ := runCLI(t, "", "", "version")
	if code != 0 || !strings.HasPrefix(out, "acode-lsp ") {
		t.Errorf("version: %d %q", code, out)
	}
}

// TestPackBudgetMeaning: --budget N is the room the context may take
// (available = N, no hidden reserves), 8k reads as 8000 and gives the same
// bytes; --window N is a model window from which the config's reserves
// subtract (docs/design.md rule 2).
func TestPackBudgetMeaning(t *testing.T) {
	sample, err := filepath.Abs("../../testdata/sample")
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := tokenizer.ForEncoding("o200k_base")
	q := "why does checkout fail for empty carts"
	packJSON := func(args ...string) (avail, total, tokens int) {
		t.Helper()
		code, out, errs := runCLI(t, "", "", append([]string{"pack", sample, "--query", q, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var res struct {
			Content    string
			TokenCount int
			Budget     struct{ Total, Available int }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if n := tok.Count(res.Content); n != res.TokenCount {
			t.Errorf("%v: tokenCount %d, recount %d", args, res.TokenCount, n)
		}
		return res.Budget.Available, res.Budget.Total, res.TokenCount
	}
	for _, tc := range []struct {
		args         []string
		avail, total int
	}{
		{[]string{"--budget", "1500"}, 1500, 1500},
		{[]string{"--budget", "1.5k"}, 1500, 1500},
		{[]string{"--budget", "1500", "--response-reserve", "500"}, 1000, 1500},
		{[]string{"--window", "6K"}, 2000, 6000}, // the sample's reserves: 1,000 + 3,000
		{nil, 12000, 16000},                      // the sample's config
	} {
		avail, total, tokens := packJSON(tc.args...)
		if avail != tc.avail || total != tc.total || tokens > avail {
			t.Errorf("%v: available %d of %d, packed %d; want available %d of %d", tc.args, avail, total, tokens, tc.avail, tc.total)
		}
	}
	_, a, _ := runCLI(t, "", "", "pack", sample, "--query", q, "--budget", "1500")
	_, b, _ := runCLI(t, "", "", "pack", sample, "--query", q, "--budget", "1.5k")
	if a == "" || a != b {
		t.Errorf("--budget 1500 and --budget 1.5k differ (%d and %d bytes)", len(a), len(b))
	}
	if n := tok.Count(a); n > 1500 {
		t.Errorf("--budget 1500 printed %d tokens", n)
	}
}
