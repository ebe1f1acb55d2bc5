package pack

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// BenchmarkMapGraph is a warm map's graph over the Go files of Go's
// src/net (facts decoded and trimmed as from the index): "compact" is
// mapGraph, "maps" the graph of a map of weights per file and string
// identifiers it replaced (refMapArcs, the tests' reference).
func BenchmarkMapGraph(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src", "net")
	tok, _ := tokenizer.ForEncoding("o200k_base")
	var files []mapFile
	var names [][]string
	var raws []string
	var sizes []int64
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		chunks, err := chunker.Split(b.Context(), path, data, tok.Count, chunker.Options{MaxTokens: 400, PreferStructural: true})
		if err != nil || len(chunks) == 0 {
			return nil
		}
		var ns []string
		for _, c := range chunks {
			if c.Name != "" {
				ns = append(ns, c.Name)
			}
		}
		files = append(files, mapFile{path: path, names: ns})
		names = append(names, ns)
		raws = append(raws, encodeFacts(factsOf(chunks)))
		sizes = append(sizes, int64(len(data)))
		return nil
	})
	limit := mapScanLimit(len(files))
	decode := func(tab *wordTab) {
		for i := range files {
			var ff fileFacts
			if !decodeFacts(raws[i], &ff, sizes[i]) {
				b.Fatal("facts refused")
			}
			if tab != nil {
				trimIdents(&ff, limit, tab)
			} else {
				ff.ids = nil
				walkIdents(raws[i], ff.idsAt, func(id mapIdent, _, _ int) bool {
					if id.at >= limit {
						return false
					}
					ff.ids = append(ff.ids, mapIdent{w: strings.Clone(id.w), at: id.at})
					return true
				}, sizes[i])
			}
			files[i].facts = &ff
		}
	}
	b.Run("compact", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			tab := newWordTab()
			decode(tab)
			if mapGraph(files, tab) == nil {
				b.Fatal("no graph")
			}
		}
		b.ReportMetric(float64(len(files)), "files")
	})
	b.Run("maps", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			decode(nil)
			uses := make([][]mapIdent, len(files))
			for i := range files {
				uses[i] = files[i].facts.ids
			}
			g := &refGraph{}
			g.setRows(refMapArcs(names, uses, limit))
		}
	})
}
