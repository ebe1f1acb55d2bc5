package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// seedWorkspace is a small workspace: a file about checkout, one about
// shipping, and a tool output that mentions neither.
func seedWorkspace(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(dir, "checkout.go"), "package shop\n\n// Checkout charges the cart.\nfunc Checkout(cartID string) error {\n\treturn chargeCart(cartID)\n}\n")
	write(t, filepath.Join(dir, "shipping.go"), "package shop\n\n// Ship sends the parcel.\nfunc Ship(parcel string) error {\n\treturn send(parcel)\n}\n")
	write(t, filepath.Join(dir, "build.log"), "compiling 12 packages\nall done in 3.2s\n")
	if config != "" {
		write(t, filepath.Join(dir, ".agent", "config.yml"), config)
	}
	return dir
}

type seedItem struct {
	Type  string  `json:"type"`
	Path  string  `json:"path"`
	Label string  `json:"label"`
	Score float64 `json:"score"`
}

func packItems(t *testing.T, dir string, args ...string) (content string, items []seedItem) {
	t.Helper()
	code, out, errs := runCLI(t, dir, "", append([]string{"pack", "checkout.go", "shipping.go", "--json", "--no-index"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Content    string     `json:"content"`
		TokenCount int        `json:"tokenCount"`
		Included   []seedItem `json:"included"`
		Budget     struct {
			Available int `json:"available"`
		} `json:"budget"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.TokenCount > res.Budget.Available {
		t.Fatalf("%d tokens over %d available", res.TokenCount, res.Budget.Available)
	}
	return res.Content, res.Included
}

// TestPackCustomRankingWeights (seed FR-016-58): context.ranking's weights
// decide the scores. With only the source weight every item scores its
// category's priority/100 and the tool output (priority 100) leads; with
// only the relevance weight the file the query is about leads and the tool
// output, which shares no term with it, scores 0.
func TestPackCustomRankingWeights(t *testing.T) {
	bySource := seedWorkspace(t, "context:\n  ranking: {relevance_weight: 0, recency_weight: 0, source_weight: 1}\n")
	_, items := packItems(t, bySource, "--query", "checkout cart", "--tool-result", "build.log")
	if len(items) < 3 || items[0].Type != "tool_result" {
		t.Fatalf("source weight only: the tool output (priority 100) must lead: %+v", items)
	}
	for _, it := range items {
		want := map[string]float64{"tool_result": 1, "open_file": 0.8}[it.Type]
		if math.Abs(it.Score-want) > 1e-9 {
			t.Errorf("source weight only: %s %s%s scores %v, want priority/100 = %v", it.Type, it.Path, it.Label, it.Score, want)
		}
	}

	byRelevance := seedWorkspace(t, "context:\n  ranking: {relevance_weight: 1, recency_weight: 0, source_weight: 0}\n")
	content, items := packItems(t, byRelevance, "--query", "checkout cart", "--tool-result", "build.log")
	if len(items) < 3 || items[0].Path != "checkout.go" {
		t.Fatalf("relevance weight only: checkout.go must lead: %+v", items)
	}
	for _, it := range items {
		if it.Type == "tool_result" && it.Score != 0 {
			t.Errorf("relevance weight only: the unrelated tool output scores %v, want 0", it.Score)
		}
	}
	if strings.Index(content, "checkout.go") > strings.Index(content, "## Tool:") {
		t.Errorf("relevance weight only: sections not in score order:\n%s", content)
	}
}

// TestPackCustomTemplate (seed FR-016-139): --template renders the same
// selection with the user's text/template, and the count of the rendered
// text is what is verified against the budget.
func TestPackCustomTemplate(t *testing.T) {
	dir := seedWorkspace(t, "")
	write(t, filepath.Join(dir, "ctx.tmpl"), "{{range .Files}}<<{{if .Path}}{{.Path}}{{else}}tool {{.Tool}}{{end}} {{.Ranges}}>>\n{{.Body}}{{end}}")
	content, items := packItems(t, dir, "--query", "checkout", "--template", "ctx.tmpl", "--budget", "20000")
	if len(items) == 0 {
		t.Fatal("nothing packed")
	}
	if strings.Contains(content, "## File:") || !strings.Contains(content, "<<checkout.go 1-6>>\npackage shop\n") {
		t.Errorf("the template was not used:\n%s", content)
	}
	code, _, errs := runCLI(t, dir, "", "pack", "checkout.go", "--template", "missing.tmpl")
	if code != 2 || !strings.Contains(errs, "--template") {
		t.Errorf("a missing template: exit %d, %s", code, errs)
	}
}

// TestPackLineChunking (seed 001 FR-016-42, FR-016-50; the line-count mode
// decided against in docs/design.md): with context.chunking.prefer_structural
// false every file is cut into line windows grouped up to max_chunk_tokens,
// as a file without a grammar always is, instead of at its declarations.
func TestPackLineChunking(t *testing.T) {
	var src strings.Builder
	src.WriteString("package shop\n\n")
	for _, name := range []string{"Checkout", "Refund", "Ship", "Cancel"} {
		fmt.Fprintf(&src, "// %s handles one step of an order.\nfunc %s(id string) error {\n\tif id == \"\" {\n\t\treturn errEmpty\n\t}\n\treturn nil\n}\n\n", name, name)
	}
	ranges := func(cfg string) []string {
		dir := seedWorkspace(t, "context:\n  chunking: {max_chunk_tokens: 60, min_chunk_tokens: 0, "+cfg+"}\n")
		write(t, filepath.Join(dir, "checkout.go"), src.String())
		_, items := packItemsRanges(t, dir, "--budget", "20000")
		return items
	}
	structural, lines := ranges("prefer_structural: true"), ranges("prefer_structural: false")
	t.Logf("structural %v, lines %v", structural, lines)
	// Structural cuts start at a declaration's doc comment (lines 3, 11, …);
	// line windows cut wherever 60 tokens are reached.
	if !slices.Contains(structural, "11-18") {
		t.Errorf("structural chunks do not follow the functions: %v", structural)
	}
	if slices.Equal(structural, lines) {
		t.Errorf("prefer_structural: false cut like the structural chunker: %v", lines)
	}
	next := 1
	for _, r := range lines {
		var a, b int
		fmt.Sscanf(r, "%d-%d", &a, &b)
		if a != next || b < a {
			t.Fatalf("line windows do not tile the file in order: %v", lines)
		}
		next = b + 1
	}
}

// packItemsRanges packs checkout.go alone and returns its chunks' line
// ranges ("3-10") in line order.
func packItemsRanges(t *testing.T, dir string, args ...string) (string, []string) {
	t.Helper()
	code, out, errs := runCLI(t, dir, "", append([]string{"pack", "checkout.go", "--json", "--no-index"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Content  string `json:"content"`
		Included []struct {
			StartLine int `json:"startLine"`
			EndLine   int `json:"endLine"`
		} `json:"included"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(res.Included, func(a, b struct {
		StartLine int `json:"startLine"`
		EndLine   int `json:"endLine"`
	}) int {
		return a.StartLine - b.StartLine
	})
	var rs []string
	for _, it := range res.Included {
		rs = append(rs, fmt.Sprintf("%d-%d", it.StartLine, it.EndLine))
	}
	return res.Content, rs
}

// TestTokenizerFileFailsLoudly (seed 000 FR-016c-44, decided against in
// docs/design.md): a tokenizer.json that does not load is an error naming
// the flag (exit 2), never a count silently estimated instead.
func TestTokenizerFileFailsLoudly(t *testing.T) {
	dir := seedWorkspace(t, "")
	write(t, filepath.Join(dir, "bad.json"), `{"model": {"type": "WordPiece", "vocab": {"a": 0}}}`)
	for _, args := range [][]string{
		{"count", "--tokenizer-file", "bad.json", "checkout.go"},
		{"count", "--json", "--tokenizer-file", "bad.json", "checkout.go"},
		{"pack", "checkout.go", "--tokenizer-file", "bad.json"},
	} {
		code, out, errs := runCLI(t, dir, "", args...)
		if code != 2 || !strings.Contains(errs, "--tokenizer-file bad.json") || strings.TrimSpace(out) != "" {
			t.Errorf("acode-lsp %s: exit %d, stdout %q, stderr %q; want exit 2 naming the flag and no count", strings.Join(args, " "), code, out, errs)
		}
	}
}
