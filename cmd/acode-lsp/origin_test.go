package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// originItem is an included or excluded item with where its text came from.
type originItem struct {
	Type   string `json:"type"`
	Origin string `json:"origin"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// TestItemOrigins (docs/design.md "Item types and origins"): an item's type
// stays one of the contract's four source types, and its origin says
// where the file came from — walked by the command line (workspace),
// open in the editor (editor), a search match (search) or named in the
// request (request). The budget report calls a walked file "file", never
// "open file".
func TestItemOrigins(t *testing.T) {
	dir := seedWorkspace(t, "")
	write(t, filepath.Join(dir, "copy", "checkout.go"), "package shop\n\n// Checkout charges the cart.\nfunc Checkout(cartID string) error {\n\treturn chargeCart(cartID)\n}\n")

	t.Run("command line", func(t *testing.T) {
		code, out, errs := runCLI(t, dir, "", "pack", ".", "--json", "--no-index", "--query", "checkout", "--search", "Ship")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var res struct{ Included, Excluded []originItem }
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want := map[string]string{"open_file": "workspace", "search_result": "search"}
		seen := map[string]bool{}
		for _, it := range append(res.Included, res.Excluded...) {
			if it.Origin != want[it.Type] {
				t.Errorf("%s %s (%s): origin %q, want %q", it.Type, it.Path, it.Reason, it.Origin, want[it.Type])
			}
			seen[it.Type] = true
		}
		if !seen["open_file"] || !seen["search_result"] {
			t.Errorf("want walked files and search matches, got %+v", res)
		}

		code, _, report := runCLI(t, dir, "", "pack", ".", "--report", "--no-index", "--query", "checkout")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, report)
		}
		if !strings.Contains(report, "duplicate: ") || !strings.Contains(report, "    file ") {
			t.Errorf("the report does not name the walked duplicate a file:\n%s", report)
		}
		if strings.Contains(report, "open file") {
			t.Errorf("the report calls a walked file open:\n%s", report)
		}
	})

	t.Run("language server", func(t *testing.T) {
		a := openDoors(t, dir)
		a.ed.In(t).Open(filepath.Join(dir, "checkout.go"), "go", "package shop\n\n// Checkout charges the cart, unsaved edit.\nfunc Checkout(cartID string) error {\n\treturn chargeCart(cartID)\n}\n")
		params := map[string]any{"query": "checkout", "includeOpenFiles": true,
			"search":  map[string]any{"pattern": "Ship"},
			"sources": []any{map[string]any{"type": "tool_result", "label": "build", "content": "compiling checkout\n"}}}
		var res struct{ Included []originItem }
		if err := json.Unmarshal(a.lsp(t, "acode/packContext", params), &res); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, it := range res.Included {
			got[it.Type+" "+it.Path] = it.Origin
		}
		want := map[string]string{"open_file checkout.go": "editor", "search_result shipping.go": "search", "tool_result ": "request"}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: origin %q, want %q (all: %v)", k, got[k], w, got)
			}
		}
	})
}
