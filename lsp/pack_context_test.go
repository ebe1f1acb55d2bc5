package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
	"github.com/acode-lsp/acode-lsp/internal/invariant"
	"github.com/acode-lsp/acode-lsp/pack"
)

// packWorkspace is a small workspace for packContext tests.
func packWorkspace(t *testing.T) (root, outside string) {
	t.Helper()
	root, outside = tempRoot(t), tempRoot(t)
	writeFiles(t, root, map[string]string{
		"cart/service.go": "package cart\n\n// CheckoutService checks carts out.\ntype CheckoutService struct{}\n\n// Checkout fails for empty carts.\nfunc (s *CheckoutService) Checkout(items []string) error {\n\tif len(items) == 0 {\n\t\treturn errEmpty\n\t}\n\treturn nil\n}\n",
		"cart/old.go":     "package cart\n\n// OldCheckoutService is the previous CheckoutService.\ntype OldCheckoutService struct{}\n",
		"cart/open.go":    "package cart\n\n// DiskVersion is what the file says on disk.\nvar DiskVersion = 1\n",
		".env":            "SECRET_TOKEN=abcdef0123456789\n",
	})
	writeFiles(t, outside, map[string]string{"elsewhere.go": "package elsewhere\n\nvar Outside = true\n"})
	return root, outside
}

func TestPackContext(t *testing.T) {
	root, outside := packWorkspace(t)
	c := startServer(t, Options{}, nil)
	c.initialize(map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil, root)
	editorText := "package cart\n\n// EditorVersion is unsaved text in the editor.\nvar EditorVersion = 2\n"
	c.open(filepath.Join(root, "cart/open.go"), "go", editorText)

	params := map[string]any{
		"query":            "why does checkout fail for empty carts",
		"model":            "gpt-4o",
		"budget":           map[string]any{"totalTokens": 16000, "systemReserve": 1000, "responseReserve": 3000, "categories": map[string]int{"tool_results": 40, "open_files": 30, "search_results": 20, "references": 10}},
		"includeOpenFiles": true,
		"search":           map[string]any{"pattern": "CheckoutService", "maxResults": 50},
		"workDoneToken":    "pack-1",
		"sources": []map[string]any{
			{"type": "tool_result", "label": "go test ./cart", "content": "--- FAIL: TestCheckout (0.00s)\n    service_test.go:12: empty cart\n"},
			{"type": "reference", "uri": string(pathToURI(filepath.Join(root, "cart/service.go"))),
				"range":     map[string]any{"start": map[string]any{"line": 5, "character": 0}, "end": map[string]any{"line": 11, "character": 0}},
				"relevance": 0.9, "timestamp": "2026-11-22T10:00:00Z"},
			{"type": "reference", "uri": string(pathToURI(filepath.Join(outside, "elsewhere.go")))},
			{"type": "reference", "uri": string(pathToURI(filepath.Join(root, ".env")))},
		},
	}
	next := c.noteCount()
	var raw json.RawMessage
	c.result(methodPackContext, params, &raw)
	var res pack.Result
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	files, err := invariant.ReadFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	files["cart/open.go"] = editorText
	invariant.CheckJSON(t, raw, invariant.Options{Files: files}) // rules 3, 6, 8

	tok, _ := tokenizer.ForModel("gpt-4o")
	if res.TokenCount != tok.Count(res.Content) {
		t.Errorf("tokenCount %d is not the count of content (%d)", res.TokenCount, tok.Count(res.Content))
	}
	if res.Budget.Available != 12000 || res.TokenCount > 12000 || res.Model != "gpt-4o" || res.Encoding != "o200k_base" || !res.Exact {
		t.Errorf("budget/model fields: %+v tokenCount %d", res.Budget, res.TokenCount)
	}
	for _, want := range []string{"EditorVersion", "Checkout fails for empty carts", "go test ./cart"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q", want)
		}
	}
	for _, unwanted := range []string{"DiskVersion", "Outside = true", "abcdef0123456789"} {
		if strings.Contains(res.Content, unwanted) {
			t.Errorf("content holds %q", unwanted)
		}
	}
	reasons := map[string]string{}
	for _, x := range res.Excluded {
		reasons[filepath.Base(x.Path)] = x.Reason
	}
	if reasons["elsewhere.go"] != "outside_workspace" || reasons[".env"] != "secret" {
		t.Errorf("exclusions: %+v", res.Excluded)
	}
	var searched bool
	for _, it := range res.Included {
		searched = searched || it.Type == "search_result"
	}
	if !searched {
		t.Errorf("no search_result included: %+v", res.Included)
	}
	// The search reported progress on the client's token.
	events := progressEvents(t, c, next)
	if string(events[0].Token) != `"pack-1"` || events[0].Kind != "begin" || events[len(events)-1].Kind != "end" {
		t.Errorf("progress: %+v", events)
	}
}

func TestPackContextJSONShape(t *testing.T) {
	root, _ := packWorkspace(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	m := c.call(methodPackContext, map[string]any{"sources": []map[string]any{{"type": "tool_result", "label": "echo", "content": "hello\n"}}})
	if m.Error != nil {
		t.Fatalf("%+v", m.Error)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(m.Result, &res); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"content", "tokenCount", "model", "encoding", "exact", "budget", "included", "excluded", "dedup", "warnings"} {
		if _, ok := res[key]; !ok {
			t.Errorf("result lacks %q: %s", key, m.Result)
		}
	}
	for _, key := range []string{"included", "excluded", "warnings"} {
		if string(res[key]) == "null" {
			t.Errorf("%s is null, want a list", key)
		}
	}
}

func TestPackContextErrors(t *testing.T) {
	root, _ := packWorkspace(t)
	c := startServer(t, Options{}, nil)
	c.initialize(nil, nil, root)
	tests := []struct {
		name   string
		params map[string]any
		code   int
		field  string // for -32602
		data   string // data.code for -32803
	}{
		{"bad source type", map[string]any{"sources": []map[string]any{{"type": "gossip", "content": "x"}}}, -32602, "sources[0].type", ""},
		{"source without content or uri", map[string]any{"sources": []map[string]any{{"type": "reference"}}}, -32602, "sources[0].uri", ""},
		{"relevance out of range", map[string]any{"sources": []map[string]any{{"type": "reference", "content": "x", "relevance": 3}}}, -32602, "sources[0].relevance", ""},
		{"no budget left", map[string]any{"budget": map[string]any{"totalTokens": 100, "systemReserve": 50, "responseReserve": 50}, "sources": []map[string]any{{"type": "tool_result", "content": "x"}}}, -32803, "", string(errcode.Budget)},
		{"nothing to pack", map[string]any{"includeOpenFiles": false}, -32803, "", string(errcode.NoContent)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := c.call(methodPackContext, tt.params)
			if errCode(m) != tt.code {
				t.Fatalf("got %+v, want %d", m, tt.code)
			}
			if tt.field != "" && !strings.HasPrefix(m.Error.Message, "invalid params: "+tt.field+":") {
				t.Errorf("message %q does not name %s", m.Error.Message, tt.field)
			}
			if tt.data != "" {
				if got := errData(t, m.Error)["code"]; got != tt.data {
					t.Errorf("data.code = %v, want %s", got, tt.data)
				}
			}
		})
	}
}
