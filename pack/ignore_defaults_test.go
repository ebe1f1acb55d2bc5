package pack

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestPackLeavesOutDependencyTrees is issue 20's case through the engine:
// a folder without a .gitignore whose node_modules and dist hold many
// files packs only the project's own code; node_modules and dist are
// excluded once each as ignored (the walk does not enter them). With
// context.ignore_defaults: false they are packed.
func TestPackLeavesOutDependencyTrees(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "src", "cart.js"), []byte("export function checkout(cart) { return cart.items.length > 0 }\n"))
	for i := 0; i < 500; i++ {
		writeFile(t, filepath.Join(root, "node_modules", fmt.Sprintf("dep%d", i), "index.js"), []byte(fmt.Sprintf("module.exports = function checkout%d(cart) { return cart }\n", i)))
	}
	writeFile(t, filepath.Join(root, "dist", "bundle.js"), []byte("function checkout(cart){return cart}\n"))
	for _, defaults := range []bool{true, false} {
		t.Run(fmt.Sprint("ignore_defaults=", defaults), func(t *testing.T) {
			cfg := config.Default()
			cfg.Context.IgnoreDefaults = defaults
			ws, err := collector.New(collector.Options{Roots: []string{root}, NoIgnoreDefaults: !cfg.Context.IgnoreDefaults})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			total := 100000
			res, err := NewEngine(cfg, ws).Pack(ctx, Request{Query: "checkout cart", Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total}}, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			deps := 0
			for _, it := range res.Included {
				if strings.HasPrefix(it.Path, "node_modules/") || strings.HasPrefix(it.Path, "dist/") {
					deps++
				}
			}
			ignored := map[string]bool{}
			for _, x := range res.Excluded {
				if x.Reason == "ignored" {
					ignored[x.Path] = true
				}
			}
			if defaults && (deps != 0 || !ignored["node_modules"] || !ignored["dist"] || len(res.Excluded) != 2) {
				t.Errorf("defaults on: %d dependency chunks included, excluded %+v", deps, res.Excluded)
			}
			if !defaults && (deps == 0 || len(ignored) != 0) {
				t.Errorf("defaults off: %d dependency chunks included, ignored %v", deps, ignored)
			}
		})
	}
}
