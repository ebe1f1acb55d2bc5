// Command gensurface writes what editors and docs show of acode-lsp's client
// surface from its one definition in Go: the editor settings
// ([config.Settings]), the encodings ([tokenizer.Encodings]), the budget
// levels and their default thresholds (package budget) and the ACODE-*
// error codes (internal/errcode/errcode.go, read with go/parser so that
// their comments are their descriptions).
//
// It writes (see [outputs]):
//
//   - editors/vscode/package.json: contributes.configuration
//   - editors/vscode/src/surface.ts
//   - editors/neovim/lua/acode/surface.lua
//   - docs/configuration.md and docs/editors.md: the blocks between
//     <!-- gensurface:NAME --> and <!-- /gensurface:NAME -->
//
// Run it with `go generate ./config` (or `go run ./tools/gensurface -root .`);
// -check reports stale files and exits 1 instead of writing. The test of
// this package fails while a generated file is stale, as gopls's settings
// documentation test does.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	check := flag.Bool("check", false, "report stale files and exit 1 instead of writing")
	flag.Parse()
	out, err := outputs(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensurface:", err)
		os.Exit(1)
	}
	names := make([]string, 0, len(out))
	for name := range out {
		names = append(names, name)
	}
	sort.Strings(names)
	stale := 0
	for _, name := range names {
		path := filepath.Join(*root, filepath.FromSlash(name))
		old, _ := os.ReadFile(path)
		if bytes.Equal(old, out[name]) {
			continue
		}
		if *check {
			fmt.Fprintf(os.Stderr, "gensurface: %s is stale: run go generate ./config\n", name)
			stale++
			continue
		}
		if err := os.WriteFile(path, out[name], 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gensurface:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "gensurface: wrote", name)
	}
	if stale > 0 {
		os.Exit(1)
	}
}
