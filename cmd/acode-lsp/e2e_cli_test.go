package main_test

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestE2ECLIVersion(t *testing.T) {
	r := runBinary(t, t.TempDir(), "", "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "acode-lsp ") || len(strings.TrimSpace(r.stdout)) <= len("acode-lsp ") {
		t.Errorf("version: exit %d, stdout %q, want 0 and \"acode-lsp <version>\"", r.code, r.stdout)
	}
}

func TestE2ECLICount(t *testing.T) {
	root := sample(t)
	model := readFile(t, filepath.Join(root, "cart/model.go"))
	checkout := readFile(t, filepath.Join(root, "web/src/checkout.ts"))
	stdin := "piped text, <|endoftext|> included\n"
	type file struct {
		Path   string `json:"path"`
		Tokens int    `json:"tokens"`
	}
	type result struct {
		Encoding string `json:"encoding"`
		Exact    bool   `json:"exact"`
		Files    []file `json:"files"`
		Total    int    `json:"total"`
	}
	want := func(enc string, exact bool, counter func(string) int) result {
		r := result{Encoding: enc, Exact: exact, Files: []file{
			{"cart/model.go", counter(model)}, {"-", counter(stdin)}, {"web/src/checkout.ts", counter(checkout)},
		}}
		for _, f := range r.Files {
			r.Total += f.Tokens
		}
		return r
	}
	exact := func(enc string) func(string) int { return func(s string) int { return count(t, enc, s) } }
	tests := []struct {
		name string
		args []string
		want result
	}{
		{"configured model", nil, want("o200k_base", true, exact("o200k_base"))},
		{"model", []string{"--model", "gpt-4"}, want("cl100k_base", true, exact("cl100k_base"))},
		{"encoding", []string{"--encoding", "r50k_base"}, want("r50k_base", true, exact("r50k_base"))},
		{"unknown model", []string{"--model", "my-local-llama"}, want(estimateEncoding, false, heuristicCount)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"count", "--json"}, tt.args...)
			args = append(args, "cart/model.go", "-", "web/src/checkout.ts")
			r := runBinary(t, root, stdin, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			raw := json.RawMessage(r.stdout)
			fields := []string{"encoding", "exact", "files", "total"}
			if strings.HasPrefix(tt.name, "unknown") {
				fields = []string{"encoding", "estimate", "exact", "files", "total"} // rule 1's estimate object
			}
			if diff := cmp.Diff(fields, keys(t, raw)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			var files []json.RawMessage
			_ = json.Unmarshal(object(t, raw)["files"], &files)
			for i, f := range files {
				if diff := cmp.Diff([]string{"path", "tokens"}, keys(t, f)); diff != "" {
					t.Errorf("files[%d] fields (-want +got):\n%s", i, diff)
				}
			}
			var got result
			_ = json.Unmarshal(raw, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("text output", func(t *testing.T) {
		r := runBinary(t, root, "", "count", "cart/model.go")
		if r.code != 0 || !strings.Contains(r.stdout, strconv.Itoa(count(t, "o200k_base", model))) {
			t.Errorf("exit %d, stdout %q: want the count of cart/model.go", r.code, r.stdout)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		r := runBinary(t, root, "", "count", "--json", "no/such.go")
		if r.code == 0 || r.stderr == "" {
			t.Errorf("exit %d, stderr %q: want a failure that says why", r.code, r.stderr)
		}
	})
}

func TestE2ECLIConfigValidate(t *testing.T) {
	root := sample(t)
	tests := []struct {
		name    string
		config  string // "" runs on the sample's own config
		code    int
		mention []string
	}{
		{"the sample", "", 0, nil},
		{"categories do not sum to 100", "context:\n  budget:\n    categories: {tool_results: 50, open_files: 30, search_results: 10}\n", 1, []string{"categories", "100"}},
		{"no budget left", "context:\n  budget:\n    total_tokens: 5000\n    system_prompt_reserve: 3000\n    response_reserve: 2000\n", 1, []string{"total_tokens"}},
		{"negative reserve", "context:\n  budget:\n    response_reserve: -1\n", 1, []string{"response_reserve"}},
		{"unknown key", "context:\n  budget:\n    total_tokns: 5000\n", 1, []string{"total_tokns", "line 3"}},
		{"not YAML", "context: [\n", 1, nil},
		{"valid", "context:\n  budget: {total_tokens: 128000}\n  tokenizer: {encoding: cl100k_base}\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"config", "validate"}
			if tt.config != "" {
				path := filepath.Join(t.TempDir(), "config.yml")
				writeFile(t, path, tt.config)
				args = append(args, "--config", path)
			}
			r := runBinary(t, root, "", args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, m := range tt.mention {
				if !strings.Contains(r.stdout+r.stderr, m) {
					t.Errorf("output does not mention %q:\n%s%s", m, r.stdout, r.stderr)
				}
			}
		})
	}
}

// packJSON runs pack --json with args in dir and checks the result.
func packJSON(t *testing.T, dir, stdin string, files map[string]string, args ...string) packResult {
	t.Helper()
	r := runBinary(t, dir, stdin, append([]string{"pack", "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("pack --json %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return checkPackResult(t, json.RawMessage(r.stdout), files)
}

func TestE2ECLIPack(t *testing.T) {
	root := sample(t)
	files := workspaceFiles(t, root, nil)
	toolFile := filepath.Join(t.TempDir(), "test-output.txt")
	writeFile(t, toolFile, "--- FAIL: TestCheckoutEmptyCart (0.00s)\ntoolFileMarker\n")

	t.Run("json is the packContext result", func(t *testing.T) {
		res := packJSON(t, root, "", files)
		if b := res.Budget; b.Total != 16000 || b.SystemReserve != 1000 || b.ResponseReserve != 3000 || b.Available != 12000 {
			t.Errorf("budget %+v, want the sample config's 16000/1000/3000", b)
		}
		if res.Model != "gpt-4o" || res.Encoding != "o200k_base" || !res.Exact {
			t.Errorf("model/encoding/exact = %s/%s/%v", res.Model, res.Encoding, res.Exact)
		}
		for _, s := range secrets {
			if strings.Contains(res.Content, s) {
				t.Errorf("content leaks %q", s)
			}
		}
		if got := find(res.Excluded, "open_file", ".env"); len(got) != 1 || got[0].Reason != "secret" {
			t.Errorf(".env excluded as %+v, want secret", got)
		}
		text := runBinary(t, root, "", "pack")
		if text.code != 0 {
			t.Fatalf("pack: exit %d: %s", text.code, text.stderr)
		}
		if diff := cmp.Diff(res.Content, text.stdout); diff != "" {
			t.Errorf("pack prints something else than the content of pack --json (-json +text):\n%s", diff)
		}
	})
	tests := []struct {
		name  string
		stdin string
		args  []string
		check func(t *testing.T, res packResult)
	}{
		{"budget and reserves", "", []string{"--budget", "2000", "--system-reserve", "100", "--response-reserve", "200"}, func(t *testing.T, res packResult) {
			if b := res.Budget; b.Total != 2000 || b.SystemReserve != 100 || b.ResponseReserve != 200 || b.Available != 1700 {
				t.Errorf("budget %+v, want 2000/100/200 → 1700", b)
			}
		}},
		{"model", "", []string{"--model", "gpt-4"}, func(t *testing.T, res packResult) {
			if res.Model != "gpt-4" || res.Encoding != "cl100k_base" || !res.Exact {
				t.Errorf("model/encoding/exact = %s/%s/%v, want gpt-4/cl100k_base/true", res.Model, res.Encoding, res.Exact)
			}
		}},
		{"encoding", "", []string{"--encoding", "p50k_base"}, func(t *testing.T, res packResult) {
			if res.Encoding != "p50k_base" || !res.Exact {
				t.Errorf("encoding/exact = %s/%v, want p50k_base/true", res.Encoding, res.Exact)
			}
		}},
		{"unknown model", "", []string{"--model", "my-local-llama"}, func(t *testing.T, res packResult) {
			if res.Encoding != estimateEncoding || res.Exact {
				t.Errorf("encoding/exact = %s/%v, want %s/false", res.Encoding, res.Exact, estimateEncoding)
			}
		}},
		{"query ranks a small budget", "", []string{"--query", "EmptyCartError", "--budget", "300", "--system-reserve", "0", "--response-reserve", "0"}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "EmptyCartError") {
				t.Errorf("the 300 tokens packed for the query do not mention EmptyCartError:\n%s", res.Content)
			}
		}},
		{"search", "", []string{"docs", "--search", "ErrEmptyCart"}, func(t *testing.T, res packResult) {
			n := 0
			for _, it := range res.Included {
				if it.Type == "search_result" && it.Path != "" {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no search_result included: %+v", res.Included)
			}
		}},
		{"tool result file", "", []string{"docs", "--tool-result", toolFile}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "toolFileMarker") || !strings.Contains(res.Content, "## Tool: ") {
				t.Errorf("the tool result is not packed under \"## Tool:\":\n%s", res.Content)
			}
		}},
		{"tool result on stdin", "stdinToolMarker: FAIL\n", []string{"docs", "--tool-result", "-"}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "stdinToolMarker: FAIL") {
				t.Errorf("the tool result from stdin is not packed:\n%s", res.Content)
			}
		}},
		{"reference with lines", "", []string{"docs", "--reference", "cart/service.go:10-41"}, func(t *testing.T, res packResult) {
			if refs := find(res.Included, "reference", "cart/service.go"); len(refs) != 1 || refs[0].StartLine != 10 || refs[0].EndLine != 41 {
				t.Errorf("reference included as %+v, want cart/service.go lines 10-41", refs)
			}
		}},
		{"reference without lines", "", []string{"docs", "--reference", "tools/report.py"}, func(t *testing.T, res packResult) {
			if len(find(res.Included, "reference", "tools/report.py")) == 0 {
				t.Errorf("reference not included: %+v", res.Included)
			}
		}},
		{"every flag", "stdin tool output\n", []string{"cart", "--query", "empty cart", "--search", "ErrEmptyCart", "--tool-result", toolFile,
			"--tool-result", "-", "--reference", "web/src/checkout.ts:1-10", "--budget", "6000", "--system-reserve", "500",
			"--response-reserve", "500", "--model", "gpt-4o-mini"}, func(t *testing.T, res packResult) {
			if res.Budget.Available != 5000 || res.Encoding != "o200k_base" {
				t.Errorf("available %d encoding %s, want 5000 o200k_base", res.Budget.Available, res.Encoding)
			}
			types := map[string]bool{}
			for _, it := range res.Included {
				types[it.Type] = true
			}
			if diff := cmp.Diff(sourceTypes, types); diff != "" {
				t.Errorf("included source types (-want +got):\n%s", diff)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, packJSON(t, root, tt.stdin, files, tt.args...))
		})
	}
	t.Run("config", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "other.yml")
		writeFile(t, cfg, "context:\n  budget: {total_tokens: 5000, system_prompt_reserve: 100, response_reserve: 400}\n  tokenizer: {model: gpt-4}\n")
		res := packJSON(t, root, "", files, "--config", cfg)
		if b := res.Budget; b.Total != 5000 || b.Available != 4500 || res.Encoding != "cl100k_base" {
			t.Errorf("budget %+v, encoding %s: want the --config file's 5000/100/400 and cl100k_base", b, res.Encoding)
		}
	})
	t.Run("report on stderr", func(t *testing.T) {
		plain := runBinary(t, root, "", "pack")
		r := runBinary(t, root, "", "pack", "--report")
		if r.code != 0 || r.stdout != plain.stdout {
			t.Errorf("pack --report: exit %d, stdout differs from pack's: %v", r.code, r.stdout != plain.stdout)
		}
		report := strings.ToLower(r.stderr)
		for _, want := range []string{"tool results", "open files", "search results", "references", "dedup", "excluded", "ms"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report on stderr does not mention %q:\n%s", want, r.stderr)
			}
		}
	})
	t.Run("nothing to pack", func(t *testing.T) {
		empty := t.TempDir()
		r := runBinary(t, empty, "", "pack")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "ACODE-CTX-004") {
			t.Errorf("exit %d, stdout %q, stderr %q: want 1 with ACODE-CTX-004", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("no budget left", func(t *testing.T) {
		// Rule 2: a usage error naming the flags typed, before any work.
		r := runBinary(t, root, "", "pack", "--budget", "1000", "--system-reserve", "500", "--response-reserve", "500")
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "--budget 1,000 − --system-reserve 500 − --response-reserve 500 leaves 0 tokens") {
			t.Errorf("exit %d, stdout %q, stderr %q: want exit 2 naming --budget and the reserves", r.code, r.stdout, r.stderr)
		}
	})
}

func TestE2ECLIPackPaths(t *testing.T) {
	root := sample(t)
	files := workspaceFiles(t, root, nil)
	paths := func(res packResult) []string {
		set := map[string]bool{}
		for _, it := range res.Included {
			set[it.Path] = true
		}
		var out []string
		for p := range set {
			out = append(out, p)
		}
		sort.Strings(out)
		return out
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"cart/model.go"}, []string{"cart/model.go"}},
		{[]string{"cart/model.go", "tools"}, []string{"cart/model.go", "tools/report.py"}},
		{[]string{"web"}, []string{"web/.gitignore", "web/src/api.ts", "web/src/checkout.ts"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, paths(packJSON(t, root, "", files, tt.args...))); diff != "" {
				t.Errorf("packed files (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("quiet stderr", func(t *testing.T) {
		// Progress goes to stderr only when it is a terminal.
		r := runBinary(t, root, "", "pack", "--search", "Cart")
		if r.code != 0 || r.stderr != "" {
			t.Errorf("exit %d, stderr %q: want 0 and nothing on a stderr that is not a terminal", r.code, r.stderr)
		}
	})
}
