package mcp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkWarmPack: one pack_context of a tree on a running server whose
// listing, index and caches are warm (docs/benchmarks.md, "Servers").
// ACODE_BENCH_TREE names the tree (default GOROOT's src/net/http).
//
//	go test ./mcp -run '^$' -bench WarmPack -benchtime 10x
func BenchmarkWarmPack(b *testing.B) {
	dir := os.Getenv("ACODE_BENCH_TREE")
	if dir == "" {
		dir = filepath.Join(runtime.GOROOT(), "src", "net", "http")
	}
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	for _, watch := range []bool{false, true} {
		b.Run(map[bool]string{false: "walked", true: "watched"}[watch], func(b *testing.B) {
			cs, srv := connect(&testing.T{}, Options{Root: dir, WorkspaceIndex: true, WatchFiles: watch}, nil)
			defer srv.closeWatcher()
			args := map[string]any{"query": "how does the server close idle connections after a request timeout", "budget": 16000}
			for i := 0; i < 3; i++ { // walk, watch, keep
				if r := callTool(&testing.T{}, cs, "pack_context", args); r.isError {
					b.Fatal(r.text)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				callTool(&testing.T{}, cs, "pack_context", args)
			}
		})
	}
}
