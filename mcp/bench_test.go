//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWarmPack: one pack_context of a tree on a running server whose
// listing, index and caches are warm (docs/benchmarks.md, "Servers").
// ACODE_BENCH_TREE names the tree (default GOROOT's src/net/http);
// ACODE_BENCH_PROFILE=FILE writes the warm packs' CPU profile,
// ACODE_BENCH_HEAP=FILE the heap held after them.
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
			if out := os.Getenv("ACODE_BENCH_PROFILE"); out != "" { // the warm packs only
				f, err := os.Create(out)
				if err != nil {
					b.Fatal(err)
				}
				pprof.StartCPUProfile(f)
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				callTool(&testing.T{}, cs, "pack_context", args)
			}
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			if out := os.Getenv("ACODE_BENCH_HEAP"); out != "" { // what the warm server holds
				runtime.GC()
				f, err := os.Create(out)
				if err != nil {
					b.Fatal(err)
				}
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
