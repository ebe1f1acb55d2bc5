package main_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/invariant"
	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/google/go-cmp/cmp"
)

// packItem is an entry of included or excluded.
type packItem struct {
	Type      string  `json:"type"`
	Path      string  `json:"path"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Tokens    int     `json:"tokens"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason"`
}

// packResult is the result object of acode/packContext (and of pack --json).
type packResult struct {
	Content    string `json:"content"`
	TokenCount int    `json:"tokenCount"`
	Model      string `json:"model"`
	Encoding   string `json:"encoding"`
	Exact      bool   `json:"exact"`
	Budget     struct {
		Total           int `json:"total"`
		SystemReserve   int `json:"systemReserve"`
		ResponseReserve int `json:"responseReserve"`
		Available       int `json:"available"`
		Categories      map[string]struct {
			Allocated int `json:"allocated"`
			Used      int `json:"used"`
		} `json:"categories"`
	} `json:"budget"`
	Included []packItem `json:"included"`
	Excluded []packItem `json:"excluded"`
	Dedup    struct {
		ExactRemoved   int `json:"exactRemoved"`
		OverlapsMerged int `json:"overlapsMerged"`
		TokensSaved    int `json:"tokensSaved"`
	} `json:"dedup"`
	Warnings []string `json:"warnings"`
}

// find returns the items of the given type and path.
func find(items []packItem, typ, path string) []packItem {
	var out []packItem
	for _, it := range items {
		if it.Type == typ && it.Path == path {
			out = append(out, it)
		}
	}
	return out
}

// categories, source types and exclusion reasons of docs/design.md.
var (
	categoryNames = []string{"open_files", "references", "search_results", "tool_results"}
	sourceTypes   = map[string]bool{"tool_result": true, "open_file": true, "search_result": true, "reference": true}
	reasons       = map[string]bool{"over_budget": true, "duplicate": true, "merged": true, "binary": true, "secret": true,
		"ignored": true, "outside_workspace": true, "too_large": true, "unreadable": true, "invalid_utf8": true, "empty": true}
)

// checkPackResult checks the shape of a packContext result object against
// docs/design.md and the rules every pack keeps (internal/invariant), and
// decodes it. files maps the workspace-relative paths of the packed files
// to their text (the editor's text for open documents), for the format
// check.
func checkPackResult(t *testing.T, raw json.RawMessage, files map[string]string) packResult {
	t.Helper()
	top := object(t, raw)
	for _, k := range []string{"content", "tokenCount", "model", "encoding", "exact", "budget", "included", "excluded", "dedup", "warnings"} {
		if _, ok := top[k]; !ok {
			t.Errorf("result has no %q", k)
		}
	}
	for _, k := range []string{"included", "excluded", "warnings"} {
		if !isList(top[k]) {
			t.Errorf("result.%s = %s, want a list", k, top[k])
		}
	}
	b := object(t, top["budget"])
	if diff := cmp.Diff([]string{"available", "categories", "responseReserve", "systemReserve", "total"}, keys(t, top["budget"])); diff != "" {
		t.Errorf("budget fields (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(categoryNames, keys(t, b["categories"])); diff != "" {
		t.Errorf("budget.categories (-want +got):\n%s", diff)
	}
	for name, c := range object(t, b["categories"]) {
		if diff := cmp.Diff([]string{"allocated", "used"}, keys(t, c)); diff != "" {
			t.Errorf("budget.categories.%s fields (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff([]string{"exactRemoved", "overlapsMerged", "tokensSaved"}, keys(t, top["dedup"])); diff != "" {
		t.Errorf("dedup fields (-want +got):\n%s", diff)
	}
	for _, list := range []string{"included", "excluded"} {
		var items []json.RawMessage
		_ = json.Unmarshal(top[list], &items)
		for i, it := range items {
			fields := object(t, it)
			// origin is ours (docs/design.md "Item types and origins"), beside the contract's fields.
			want := []string{"type", "origin", "path", "startLine", "endLine", "tokens", "score"}
			if list == "excluded" {
				want = append(want, "reason")
			}
			for _, k := range want {
				if _, ok := fields[k]; !ok {
					t.Errorf("%s[%d] has no %q: %s", list, i, k, it)
				}
			}
		}
	}

	var res packResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result: %v", err)
	}
	if got, want := res.Budget.Available, res.Budget.Total-res.Budget.SystemReserve-res.Budget.ResponseReserve; got != want {
		t.Errorf("budget.available = %d, want total − reserves = %d", got, want)
	}
	for i, it := range res.Included {
		if !sourceTypes[it.Type] {
			t.Errorf("included[%d].type = %q", i, it.Type)
		}
		if filepath.IsAbs(it.Path) {
			t.Errorf("included[%d].path = %q, want it relative to the workspace root", i, it.Path)
		}
	}
	for i, it := range res.Excluded {
		if !sourceTypes[it.Type] {
			t.Errorf("excluded[%d].type = %q", i, it.Type)
		}
		if !reasons[it.Reason] {
			t.Errorf("excluded[%d].reason = %q is not a docs/design.md reason", i, it.Reason)
		}
	}
	// Rules 3, 6 and 8 (internal/invariant), counted here independently:
	// budget/tokenizer cross-checked with tiktoken-go, or rule 1's estimate.
	countFn := heuristicCount
	if res.Exact {
		countFn = func(text string) int { return count(t, res.Encoding, text) }
	}
	invariant.CheckJSON(t, raw, invariant.Options{Count: countFn, Files: files})
	return res
}

// workspaceFiles returns the text of every regular file of root by
// relative path, with the editor's text for the open ones.
func workspaceFiles(t *testing.T, root string, open map[string]string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range open {
		files[k] = v
	}
	return files
}

// pack calls acode/packContext and checks its result.
func pack(e *lsptest.Editor, params any, files map[string]string) packResult {
	e.T().Helper()
	var raw json.RawMessage
	e.Result("acode/packContext", params, &raw)
	return checkPackResult(e.T().(*testing.T), raw, files)
}

// lspRange is an LSP range from line a to line b, at character 0.
func lspRange(a, b int) map[string]any {
	return map[string]any{"start": map[string]any{"line": a, "character": 0}, "end": map[string]any{"line": b, "character": 0}}
}

func TestE2EPackContextEveryParam(t *testing.T) {
	e, root := session(t, nil)
	checkout := filepath.Join(root, "web/src/checkout.ts")
	edited := readFile(t, checkout) + "\n// inMemoryMarker: only in the editor\n"
	e.Open(checkout, "typescript", edited)
	files := workspaceFiles(t, root, map[string]string{"web/src/checkout.ts": edited})

	tool := "--- FAIL: TestCheckoutEmptyCart (0.00s)\n    service_test.go:34: err = <nil>, want ErrEmptyCart\n"
	res := pack(e, map[string]any{
		"query": "why does checkout fail for empty carts",
		"model": "gpt-4",
		"budget": map[string]any{"totalTokens": 20000, "systemReserve": 1500, "responseReserve": 2500,
			"categories": map[string]any{"tool_results": 25, "open_files": 25, "search_results": 25, "references": 25}},
		"includeOpenFiles": true,
		"search":           map[string]any{"pattern": "ErrEmptyCart", "maxResults": 50},
		"sources": []any{
			map[string]any{"type": "tool_result", "label": "go test ./cart", "content": tool},
			map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, "cart/service.go")), "range": lspRange(9, 40),
				"relevance": 0.9, "timestamp": "2026-11-22T10:00:00Z"},
			map[string]any{"type": "reference", "uri": "file:///etc/hosts"},
			map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, ".env"))},
			map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "tools/report.py"))},
			map[string]any{"type": "search_result", "label": "grep", "content": "searchMarker appears here\n"},
		},
	}, files)

	if res.Model != "gpt-4" || res.Encoding != "cl100k_base" || !res.Exact {
		t.Errorf("model/encoding/exact = %s/%s/%v, want gpt-4/cl100k_base/true", res.Model, res.Encoding, res.Exact)
	}
	if b := res.Budget; b.Total != 20000 || b.SystemReserve != 1500 || b.ResponseReserve != 2500 || b.Available != 16000 {
		t.Errorf("budget = %+v, want the overrides 20000/1500/2500 → 16000", b)
	}
	for _, c := range categoryNames {
		if got := res.Budget.Categories[c].Allocated; got != 4000 {
			t.Errorf("budget.categories.%s.allocated = %d, want 25 %% of 16000", c, got)
		}
	}
	// The reference's LSP range 9:0–40:0 is lines 10–41 (docs/design.md's example).
	refs := append(find(res.Included, "reference", "cart/service.go"), find(res.Excluded, "reference", "cart/service.go")...)
	if len(refs) != 1 || refs[0].StartLine != 10 || refs[0].EndLine != 41 {
		t.Errorf("reference to cart/service.go = %+v, want one item with lines 10-41", refs)
	}
	wantExcluded := []struct{ path, reason string }{{"/etc/hosts", "outside_workspace"}, {".env", "secret"}}
	for _, w := range wantExcluded {
		found := false
		for _, it := range res.Excluded {
			found = found || (it.Type == "reference" && strings.HasSuffix(it.Path, strings.TrimPrefix(w.path, "/")) && it.Reason == w.reason)
		}
		if !found {
			t.Errorf("no excluded reference %s with reason %s in %+v", w.path, w.reason, res.Excluded)
		}
	}
	if len(find(res.Included, "open_file", "tools/report.py")) == 0 {
		t.Errorf("the open_file source by uri tools/report.py is not included: %+v", res.Included)
	}
	if len(find(res.Included, "open_file", "web/src/checkout.ts")) == 0 {
		t.Errorf("the open document web/src/checkout.ts is not included: %+v", res.Included)
	}
	searched := 0
	for _, it := range res.Included {
		if it.Type == "search_result" && it.Path != "" {
			searched++
		}
	}
	if searched == 0 {
		t.Errorf("the search for ErrEmptyCart included nothing: %+v", res.Included)
	}
	for _, want := range []string{"## Tool: go test ./cart", tool, "inMemoryMarker", "searchMarker appears here"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q", want)
		}
	}
	for _, s := range secrets {
		if strings.Contains(res.Content, s) {
			t.Errorf("content leaks the secret %q", s)
		}
	}
}

func TestE2EPackContextSources(t *testing.T) {
	e, root := session(t, nil)
	svc := filepath.Join(root, "cart/service.go")
	edited := strings.Replace(readFile(t, svc), "// Inventory reserves stock for an order.", "// Inventory reserves stock for an order (editedMarker).", 1)
	e.Open(svc, "go", edited)
	files := workspaceFiles(t, root, map[string]string{"cart/service.go": edited})

	t.Run("includeOpenFiles", func(t *testing.T) {
		e := e.In(t)
		tool := map[string]any{"type": "tool_result", "label": "t", "content": "toolMarker\n"}
		with := pack(e, map[string]any{"includeOpenFiles": true, "sources": []any{tool}}, files)
		if !strings.Contains(with.Content, "editedMarker") || len(find(with.Included, "open_file", "cart/service.go")) == 0 {
			t.Errorf("includeOpenFiles true: the open document is not packed: %+v", with.Included)
		}
		without := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{tool}}, files)
		if strings.Contains(without.Content, "editedMarker") || len(find(without.Included, "open_file", "cart/service.go")) != 0 {
			t.Errorf("includeOpenFiles false: the open document is packed: %+v", without.Included)
		}
	})
	t.Run("a uri source reads the open document", func(t *testing.T) {
		e := e.In(t)
		res := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{
			map[string]any{"type": "reference", "uri": fileURI(svc), "range": lspRange(14, 19)},
		}}, files)
		if !strings.Contains(res.Content, "editedMarker") {
			t.Errorf("the reference was not read from the editor's text:\n%s", res.Content)
		}
		if refs := find(res.Included, "reference", "cart/service.go"); len(refs) != 1 || refs[0].StartLine != 15 || refs[0].EndLine != 20 {
			t.Errorf("reference range 14:0–19:0 included as %+v, want lines 15-20", refs)
		}
	})
	t.Run("every source type by content", func(t *testing.T) {
		e := e.In(t)
		var srcs []any
		for typ := range sourceTypes {
			srcs = append(srcs, map[string]any{"type": typ, "label": typ + "-label", "content": typ + "Marker body\n"})
		}
		res := pack(e, map[string]any{"includeOpenFiles": false, "sources": srcs}, files)
		for typ := range sourceTypes {
			if !strings.Contains(res.Content, typ+"Marker body") {
				t.Errorf("content lacks the %s source", typ)
			}
			n := 0
			for _, it := range res.Included {
				if it.Type == typ {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d included items of type %s, want 1: %+v", n, typ, res.Included)
			}
		}
		if !strings.Contains(res.Content, "## Tool: tool_result-label\n") {
			t.Errorf("the tool result has no \"## Tool: <label>\" header:\n%s", res.Content)
		}
	})
	t.Run("filters of docs/design.md#rule-9", func(t *testing.T) {
		e := e.In(t)
		writeFile(t, filepath.Join(root, "keys/server.pem"), "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n")
		writeFile(t, filepath.Join(root, "bad.txt"), "ok\xff\xfe\n")
		writeFile(t, filepath.Join(root, "big.txt"), strings.Repeat("a line of a large file\n", 60000))
		outside := filepath.Join(t.TempDir(), "outside.go")
		writeFile(t, outside, "package outside\n")
		if err := os.Symlink(outside, filepath.Join(root, "link.go")); err != nil {
			t.Fatal(err)
		}
		tests := []struct{ rel, path, reason string }{
			{".env", ".env", "secret"},
			{"keys/server.pem", "keys/server.pem", "secret"},
			{"assets/logo.png", "assets/logo.png", "binary"},
			{"debug.log", "debug.log", "ignored"},
			{"cart/mocks.generated.go", "cart/mocks.generated.go", "ignored"},
			{"bad.txt", "bad.txt", "invalid_utf8"},
			{"link.go", "link.go", "outside_workspace"},
			{"missing.go", "missing.go", "unreadable"},
			{"big.txt", "big.txt", "too_large"},
		}
		for _, tt := range tests {
			t.Run(tt.rel, func(t *testing.T) {
				e := e.In(t)
				res := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{
					map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"},
					map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, tt.rel))},
				}}, files)
				got := find(res.Excluded, "reference", tt.path)
				if tt.reason == "outside_workspace" {
					// A path outside the roots may be reported absolute.
					got = append(got, find(res.Excluded, "reference", filepath.Join(root, tt.rel))...)
				}
				if len(got) != 1 || got[0].Reason != tt.reason {
					t.Errorf("excluded %s = %+v, want one with reason %s (all: %+v)", tt.rel, got, tt.reason, res.Excluded)
				}
			})
		}
	})
	t.Run("search maxResults", func(t *testing.T) {
		e := e.In(t)
		pathsOf := func(max int) map[string]bool {
			res := pack(e, map[string]any{"includeOpenFiles": false, "search": map[string]any{"pattern": "CheckoutService", "maxResults": max}}, files)
			paths := map[string]bool{}
			for _, list := range [][]packItem{res.Included, res.Excluded} {
				for _, it := range list {
					if it.Type == "search_result" && it.StartLine > 0 {
						paths[it.Path] = true
					}
				}
			}
			return paths
		}
		if got := pathsOf(50); len(got) < 3 {
			t.Errorf("a search for CheckoutService found matches in %v, want cart/service.go, cart/service_test.go and docs/README.md", got)
		}
		if got := pathsOf(1); len(got) != 1 {
			t.Errorf("maxResults 1 gave matches in %d files (%v), want 1", len(got), got)
		}
	})
}

func TestE2EPackContextBudget(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	var srcs []any
	for _, rel := range []string{"cart/service.go", "cart/model.go", "web/src/checkout.ts", "tools/report.py", "docs/README.md"} {
		srcs = append(srcs, map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, rel))})
	}
	srcs = append(srcs, map[string]any{"type": "tool_result", "label": "log", "content": strings.Repeat("checkout failed: empty cart\n", 40)})

	t.Run("never exceeded", func(t *testing.T) {
		e := e.In(t)
		for _, total := range []int{120, 300, 700, 1500, 4000} {
			res := pack(e, map[string]any{"includeOpenFiles": false, "sources": srcs,
				"budget": map[string]any{"totalTokens": total, "systemReserve": 10, "responseReserve": 10}}, files)
			if res.Budget.Available != total-20 {
				t.Errorf("total %d: available %d, want %d", total, res.Budget.Available, total-20)
			}
			if len(res.Included) == 0 {
				t.Errorf("total %d: nothing included though small chunks fit", total)
			}
			for _, it := range append(res.Included, res.Excluded...) {
				if it.Tokens > 600 {
					t.Errorf("total %d: chunk %+v is over the sample's max_chunk_tokens 600 (rule 4)", total, it)
				}
			}
			over := 0
			for _, it := range res.Excluded {
				if it.Reason == "over_budget" {
					over++
				}
			}
			if total < 1500 && over == 0 {
				t.Errorf("total %d: nothing excluded as over_budget", total)
			}
		}
	})
	t.Run("categories override", func(t *testing.T) {
		e := e.In(t)
		res := pack(e, map[string]any{"includeOpenFiles": false, "sources": srcs,
			"budget": map[string]any{"totalTokens": 1100, "systemReserve": 50, "responseReserve": 50,
				"categories": map[string]any{"tool_results": 70, "open_files": 30}}}, files)
		want := map[string]int{"tool_results": 700, "open_files": 300, "search_results": 0, "references": 0}
		for c, n := range want {
			if got := res.Budget.Categories[c].Allocated; got != n {
				t.Errorf("budget.categories.%s.allocated = %d, want %d", c, got, n)
			}
		}
	})
	t.Run("unknown model", func(t *testing.T) {
		e := e.In(t)
		res := pack(e, map[string]any{"includeOpenFiles": false, "sources": srcs, "model": "my-local-llama"}, files)
		if res.Exact || res.Encoding != estimateEncoding || res.Model != "my-local-llama" {
			t.Errorf("exact/encoding/model = %v/%s/%s, want false/%s/my-local-llama", res.Exact, res.Encoding, res.Model, estimateEncoding)
		}
	})
	t.Run("encoding", func(t *testing.T) {
		e := e.In(t)
		res := pack(e, map[string]any{"includeOpenFiles": false, "sources": srcs, "encoding": "p50k_base"}, files)
		if !res.Exact || res.Encoding != "p50k_base" {
			t.Errorf("exact/encoding = %v/%s, want true/p50k_base", res.Exact, res.Encoding)
		}
	})
}

func TestE2EDeterministic(t *testing.T) {
	root := sample(t)
	args := []string{"pack", "--json", "--query", "empty cart checkout", "--search", "Cart", "--budget", "3000", "--system-reserve", "0", "--response-reserve", "0"}
	first := runBinary(t, root, "", args...)
	for i := 0; i < 2; i++ {
		again := runBinary(t, root, "", args...)
		if diff := cmp.Diff(first.stdout, again.stdout); diff != "" {
			t.Fatalf("pack is not byte-identical on the same input (-first +again):\n%s", diff)
		}
	}
	e, root2 := session(t, nil)
	params := map[string]any{"query": "empty cart checkout", "search": map[string]any{"pattern": "Cart"},
		"budget":  map[string]any{"totalTokens": 3000, "systemReserve": 0, "responseReserve": 0},
		"sources": []any{map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root2, "cart/model.go"))}}}
	var a, b json.RawMessage
	e.Result("acode/packContext", params, &a)
	e.Result("acode/packContext", params, &b)
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("acode/packContext is not identical on the same input (-first +second):\n%s", diff)
	}
}

func TestE2EFencesCannotBeClosedByContent(t *testing.T) {
	e, root := session(t, nil)
	doc := "# Fences\n\nA block:\n\n````go\n```\nnot the end\n```\n````\n\nAnd ``````six`````` ticks.\n"
	writeFile(t, filepath.Join(root, "docs/fences.md"), doc)
	tool := "output with a fence:\n`````\nstill output\n"
	files := workspaceFiles(t, root, nil)
	res := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, "docs/fences.md"))},
		map[string]any{"type": "tool_result", "label": "fenced", "content": tool},
	}}, files) // internal/invariant re-reads the file section up to its closing fence
	if n := strings.Count("\n"+res.Content, "\n## File: "); n != 1 {
		t.Errorf("want one file section:\n%s", res.Content)
	}
	head, body, ok := strings.Cut(res.Content, "## Tool: fenced\n")
	_ = head
	if !ok {
		t.Fatalf("no tool section:\n%s", res.Content)
	}
	fence, rest, _ := strings.Cut(body, "\n")
	fence = strings.TrimRight(fence, "abcdefghijklmnopqrstuvwxyz")
	if len(fence) <= 5 || strings.Trim(fence, "`") != "" {
		t.Errorf("tool fence %q, want more than 5 backticks (the content has a run of 5)", fence)
	}
	if !strings.HasPrefix(rest, tool) || !strings.HasPrefix(rest[len(tool):], fence+"\n") {
		t.Errorf("tool section is not the content closed by its fence:\n%s", body)
	}
}

func TestE2ERankingAndSelection(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	t.Run("score formula", func(t *testing.T) {
		e := e.In(t)
		// Same timestamp, so recency is equal: scores differ by
		// 0.5·Δrelevance and 0.2·Δpriority/100 (docs/design.md#rule-5).
		ts := "2026-11-22T10:00:00Z"
		var raw json.RawMessage
		e.Result("acode/packContext", map[string]any{"includeOpenFiles": false, "sources": []any{
			map[string]any{"type": "tool_result", "label": "a", "content": "alpha output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "tool_result", "label": "b", "content": "beta output\n", "relevance": 0.1, "timestamp": ts},
			map[string]any{"type": "open_file", "label": "c", "content": "gamma output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "search_result", "label": "d", "content": "delta output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "reference", "label": "e", "content": "epsilon output\n", "relevance": 0.9, "timestamp": ts},
		}}, &raw)
		res := checkPackResult(t, raw, files)
		var labelled struct {
			Included []struct {
				Label string  `json:"label"`
				Score float64 `json:"score"`
			} `json:"included"`
		}
		_ = json.Unmarshal(raw, &labelled)
		byLabel := map[string]float64{}
		for _, it := range labelled.Included {
			byLabel[it.Label] = it.Score
		}
		diffs := map[string]float64{
			"relevance 0.9 vs 0.1":     byLabel["a"] - byLabel["b"],
			"tool_result vs open_file": byLabel["a"] - byLabel["c"],
			"tool_result vs search":    byLabel["a"] - byLabel["d"],
			"tool_result vs reference": byLabel["a"] - byLabel["e"],
		}
		want := map[string]float64{
			"relevance 0.9 vs 0.1":     0.5 * 0.8,
			"tool_result vs open_file": 0.2 * 0.2,
			"tool_result vs search":    0.2 * 0.4,
			"tool_result vs reference": 0.2 * 0.6,
		}
		if diff := cmp.Diff(want, diffs, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 0.0002 })); diff != "" {
			t.Errorf("score differences (-want +got):\n%s\nscores %v", diff, byLabel)
		}
		if len(res.Included) != 5 {
			t.Errorf("%d included, want 5", len(res.Included))
		}
	})
	var big strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&big, "tool output line %d that is long enough to matter\n", i)
	}
	selection := func(t *testing.T, redistribute bool) packResult {
		return pack(e.In(t), map[string]any{"includeOpenFiles": false,
			"budget": map[string]any{"totalTokens": 2000, "systemReserve": 0, "responseReserve": 0, "redistribute": redistribute,
				"categories": map[string]any{"tool_results": 50, "references": 50}},
			"sources": []any{
				map[string]any{"type": "tool_result", "label": "big", "content": big.String(), "relevance": 1},
				map[string]any{"type": "reference", "label": "small", "content": strings.Repeat("reference line\n", 60), "relevance": 0},
			}}, files)
	}
	t.Run("a category is never starved", func(t *testing.T) {
		for _, redistribute := range []bool{true, false} {
			res := selection(t, redistribute)
			refs := 0
			for _, it := range res.Included {
				if it.Type == "reference" {
					refs++
				}
			}
			if refs == 0 {
				t.Errorf("redistribute %v: the low-ranked reference lost its allocation to the tool result: %+v", redistribute, res.Included)
			}
		}
	})
	t.Run("redistribute", func(t *testing.T) {
		on, off := selection(t, true), selection(t, false)
		if got := off.Budget.Categories["tool_results"]; got.Used > got.Allocated {
			t.Errorf("redistribute false: tool_results used %d of %d", got.Used, got.Allocated)
		}
		if on.Budget.Categories["tool_results"].Used <= off.Budget.Categories["tool_results"].Used {
			t.Errorf("redistribute true: tool_results used %d, no more than without (%d): the references' leftover was not shared",
				on.Budget.Categories["tool_results"].Used, off.Budget.Categories["tool_results"].Used)
		}
	})
}

func TestE2EDedup(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	svc := fileURI(filepath.Join(root, "cart/service.go"))
	res := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "cart/model.go"))},
		map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "legacy/model_copy.go"))},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(9, 40), "relevance": 0.9},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(12, 39), "relevance": 0.5},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(35, 60), "relevance": 0.4},
	}}, files) // internal/invariant: no line twice, one header per file
	reasons := map[string]int{}
	for _, it := range res.Excluded {
		reasons[it.Path+" "+it.Reason]++
	}
	if reasons["legacy/model_copy.go duplicate"] == 0 || res.Dedup.ExactRemoved == 0 {
		t.Errorf("the copy of cart/model.go is not removed as a duplicate: %v, dedup %+v", reasons, res.Dedup)
	}
	if reasons["cart/service.go merged"] == 0 || res.Dedup.OverlapsMerged == 0 {
		t.Errorf("lines 13-40 inside 10-41 are not merged: %v, dedup %+v", reasons, res.Dedup)
	}
	if res.Dedup.TokensSaved <= 0 {
		t.Errorf("dedup.tokensSaved = %d, want the saving", res.Dedup.TokensSaved)
	}
	if strings.Contains(res.Content, "legacy/model_copy.go") {
		t.Errorf("the duplicate is in the content")
	}
}

func TestE2ERedaction(t *testing.T) {
	e, root := session(t, nil)
	keys := []string{
		"sk-proj-Zt8Qm2Lx9Vb4Nc7Rw1Ks5Hd3Jf6Gp0Ye",
		"sk_live_51Mz9QxLk2WeRtYuIoPaSdFgHjKl",
		"AKIAZ7Q3M4N5P6R7S8T9",
		"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
		"Xq7!mK2#pL9@vR4$wN8^tB",
	}
	src := "package billing\n\n" +
		"// Client talks to the payment provider.\n" +
		"type Client struct{ key string }\n\n" +
		"const openAIKey = \"" + keys[0] + "\"\n" +
		"const stripeKey = \"" + keys[1] + "\"\n" +
		"var awsAccessKeyID = \"" + keys[2] + "\"\n" +
		"var githubToken = \"" + keys[3] + "\"\n" +
		"const DB_PASSWORD = \"" + keys[4] + "\"\n\n" +
		"// Charge charges a customer.\n" +
		"func (c *Client) Charge(cents int64) error { return nil }\n"
	path := filepath.Join(root, "billing/client.go")
	writeFile(t, path, src)
	files := workspaceFiles(t, root, nil)
	res := pack(e, map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "reference", "uri": fileURI(path)}}}, files) // internal/invariant: only redacted lines differ
	for _, k := range keys {
		if strings.Contains(res.Content, k) {
			t.Errorf("the key %q is in the context", k)
		}
	}
	if n := strings.Count(res.Content, "[REDACTED]"); n != len(keys) {
		t.Errorf("%d values redacted, want %d:\n%s", n, len(keys), res.Content)
	}
	for _, want := range []string{"func (c *Client) Charge(cents int64) error { return nil }", "const stripeKey = "} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("the rest of the file is not usable: %q missing", want)
		}
	}
}

func TestE2EOpenDocumentsAreFiltered(t *testing.T) {
	e, root := session(t, nil)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := "OPEN_SECRET_KEY=sk_live_51OpenInEditorQwErTyUiOpAsDfGh\n"
	e.Open(filepath.Join(root, ".env"), "dotenv", secret)
	e.Open(filepath.Join(outside, "notes.go"), "go", "package notes // outsideMarker\n")
	e.Open(filepath.Join(root, "debug.log"), "log", "ignoredMarker\n")
	var raw json.RawMessage
	e.Result("acode/packContext", map[string]any{"includeOpenFiles": true, "sources": []any{
		map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"},
		map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, ".env"))},
	}}, &raw)
	res := checkPackResult(t, raw, nil)
	for _, leak := range []string{"sk_live_51OpenInEditor", "outsideMarker", "ignoredMarker"} {
		if strings.Contains(res.Content, leak) {
			t.Errorf("an open document that rule 9 keeps out is packed: %q", leak)
		}
	}
	got := map[string]string{}
	for _, it := range res.Excluded {
		got[it.Type+" "+filepath.Base(it.Path)] = it.Reason
	}
	want := map[string]string{"open_file .env": "secret", "reference .env": "secret", "open_file notes.go": "outside_workspace", "open_file debug.log": "ignored"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exclusions (-want +got):\n%s", diff)
	}
}
