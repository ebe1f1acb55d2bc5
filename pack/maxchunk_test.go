package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestNoChunkExceedsMax is rule 4 through the whole engine
// (docs/design.md#rule-4): with small max_chunk_tokens, real files of
// several languages sent as whole open files and as overlapping reference
// ranges (so that dedup merges overlapping chunks of one file), no
// included chunk holds more than max_chunk_tokens tokens unless it is a
// single line (chunks never end mid-line).
func TestNoChunkExceedsMax(t *testing.T) {
	files := []string{"cart/service.go", "cart/model.go", "web/src/api.ts", "web/src/checkout.ts", "tools/report.py", "docs/README.md"}
	root := t.TempDir()
	lines := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "sample", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, filepath.FromSlash(f)), data)
		lines[f] = strings.Count(string(data), "\n")
	}
	for _, max := range []int{40, 60, 100} {
		for _, lo := range []int{0, max / 2, max} {
			t.Run(fmt.Sprintf("max%d/min%d", max, lo), func(t *testing.T) {
				cfg := config.Default()
				cfg.Context.Chunking.MaxChunkTokens = max
				cfg.Context.Chunking.MinChunkTokens = lo
				var req Request
				for _, f := range files {
					abs := filepath.Join(root, filepath.FromSlash(f))
					n := lines[f]
					req.Sources = append(req.Sources, Source{Type: "open_file", Path: abs})
					// Ranges that overlap the file's chunks by most of
					// their lines, shifted by a few lines each.
					for s := 1; s <= n; s += 7 {
						req.Sources = append(req.Sources, Source{Type: "reference", Path: abs, StartLine: s, EndLine: min(n, s+9)})
					}
				}
				ws, err := collector.New(collector.Options{Roots: []string{root}})
				if err != nil {
					t.Fatal(err)
				}
				res, err := NewEngine(cfg, ws).Pack(context.Background(), req, nil, nil)
				if err != nil {
					t.Fatalf("Pack: %v", err)
				}
				if res.Dedup.OverlapsMerged == 0 {
					t.Fatalf("no overlapping chunks were merged: the test does not reach the merge")
				}
				for _, e := range res.Included {
					if e.Detail != "full" || e.StartLine == e.EndLine {
						continue
					}
					if e.Tokens > max {
						t.Errorf("%s lines %d-%d (%s): %d tokens > max_chunk_tokens %d", filepath.Base(e.Path), e.StartLine, e.EndLine, e.Type, e.Tokens, max)
					}
				}
			})
		}
	}
}
