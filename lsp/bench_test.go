package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// benchClient starts a server for a benchmark, with logging off.
func benchClient(b *testing.B, root string) *fakeClient {
	b.Helper()
	c := startServer(b, Options{Logger: zap.NewNop(), BudgetDebounce: 50 * time.Millisecond}, nil)
	c.initialize(nil, nil, root)
	return c
}

// goFile returns a Go source of n lines: functions of ten lines each.
func goFile(n int) string {
	var sb strings.Builder
	sb.WriteString("package big\n\n")
	for i, lines := 0, 2; lines < n-10; i, lines = i+1, lines+9 {
		fmt.Fprintf(&sb, "// F%d adds numbers.\nfunc F%d(a, b int) int {\n\tc := a + b\n\tif c > %d {\n\t\treturn c - %d\n\t}\n\treturn c * 2\n}\n\n", i, i, i, i)
	}
	return sb.String()
}

// BenchmarkLensRefresh measures one keystroke in a 5,000-line Go file: the
// didChange of one character, then the code lenses of the new version
// (parse, chunk, count), over the protocol. "typo" types a digit at the
// start of a statement (every version has a syntax error there), "word"
// types a letter in a function's name (every version parses cleanly).
func BenchmarkLensRefresh(b *testing.B) {
	text := goFile(5000)
	for _, edit := range lensEdits {
		b.Run(edit, func(b *testing.B) { benchLensRefresh(b, text, edit) })
	}
}

// BenchmarkLensRefresh1MB is BenchmarkLensRefresh in Go files of 1 MB:
// "synthetic", small functions (goFile) up to 1 MB, 83,000 lines, and
// "real", the non-test Go files of GOROOT/src/net/http and then
// GOROOT/src/net concatenated up to 1 MB.
func BenchmarkLensRefresh1MB(b *testing.B) {
	n := 41000
	synthetic := goFile(n)
	for len(synthetic) < 1<<20 {
		n += 1000
		synthetic = goFile(n)
	}
	for _, f := range []struct{ name, text string }{{"synthetic", synthetic}, {"real", realGo(b, 1<<20)}} {
		for _, edit := range lensEdits {
			b.Run(f.name+"/"+edit, func(b *testing.B) { benchLensRefresh(b, f.text, edit) })
		}
	}
}

// lensEdits are the keystrokes of benchLensRefresh.
var lensEdits = []string{"typo", "word"}

// realGo concatenates the non-test Go files of GOROOT/src/net/http and
// GOROOT/src/net, whole, up to n bytes.
func realGo(b *testing.B, n int) string {
	b.Helper()
	var sb strings.Builder
	for _, dir := range []string{"net/http", "net"} {
		files, err := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", dir, "*.go"))
		if err != nil || len(files) == 0 {
			b.Fatalf("no Go files under GOROOT/src/%s: %v", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			if sb.Len()+len(data) <= n {
				sb.Write(data)
			}
		}
	}
	return sb.String()
}

// benchLensRefresh types one character per iteration in the middle of text
// and asks for the lenses of the new version: for "typo" a digit at the
// start of the middle line, for "word" a letter in the name of the first
// function declared from the middle line on.
func benchLensRefresh(b *testing.B, text, edit string) {
	root := b.TempDir()
	path := filepath.Join(root, "big.go")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	// The server's own time in textDocument/codeLens (decoding the
	// params, the lenses, no encoding or transport): lens-ms/op.
	var inLens time.Duration
	c := startServer(b, Options{Logger: zap.NewNop(), BudgetDebounce: 50 * time.Millisecond}, func(s *Server) {
		h := s.requests[protocol.MethodTextDocumentCodeLens]
		s.requests[protocol.MethodTextDocumentCodeLens] = func(ctx context.Context, raw json.RawMessage) (any, error) {
			start := time.Now()
			defer func() { inLens += time.Since(start) }()
			return h(ctx, raw)
		}
	})
	c.initialize(nil, nil, root)
	u := c.open(path, "go", text)
	params := map[string]any{"textDocument": map[string]any{"uri": u}}
	c.call("textDocument/codeLens", params) // the first, full parse and count
	inLens = 0
	lines := strings.Split(text, "\n")
	line, col := len(lines)/2, 1
	if edit == "word" {
		line, col = wordAt(lines, line)
	}
	if out := os.Getenv("ACODE_BENCH_PROFILE"); out != "" { // the keystrokes only
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err == nil {
			defer func() { pprof.StopCPUProfile(); f.Close() }()
		}
	}
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		typed := strconv.Itoa(i % 10)
		if edit == "word" {
			typed = string(rune('a' + i%26))
		}
		change(c, u, i+2, map[string]any{"range": rng(line, col, line, col), "text": typed})
		if m := c.call("textDocument/codeLens", params); m.Error != nil {
			b.Fatal(m.Error.Message)
		}
	}
	b.StopTimer()
	if cpu1, ok := processCPU(); ok && cpuOK {
		// CPU time of the whole process (server, test client, background
		// what-if and budget work) per keystroke: less sensitive than the
		// wall time to other processes on a loaded machine.
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
	b.ReportMetric(float64(inLens)/float64(time.Millisecond)/float64(b.N), "lens-ms/op")
}

// wordAt returns the first line from `from` on that declares a function
// ("func Name(" or "func (r T) Name("), and the column just after the
// first letter of its name: a letter typed there renames the function,
// and the file still parses.
func wordAt(lines []string, from int) (int, int) {
	for i := from; i < len(lines); i++ {
		l, ok := strings.CutPrefix(lines[i], "func ")
		if !ok {
			continue
		}
		col := 5
		if strings.HasPrefix(l, "(") {
			end := strings.Index(l, ") ")
			if end < 0 {
				continue
			}
			col += end + 2
		}
		return i, col + 1
	}
	return from, 1
}

// BenchmarkPackWarm measures acode/packContext with 20 open files, after a
// first pack has warmed the caches.
func BenchmarkPackWarm(b *testing.B) {
	root := b.TempDir()
	c := benchClient(b, root)
	for i := range 20 {
		text := goFile(300)
		path := filepath.Join(root, fmt.Sprintf("f%02d.go", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		c.open(path, "go", text)
	}
	params := map[string]any{"query": "adds numbers F12", "includeOpenFiles": true}
	if m := c.call(methodPackContext, params); m.Error != nil {
		b.Fatal(m.Error.Message)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m := c.call(methodPackContext, params); m.Error != nil {
			b.Fatal(m.Error.Message)
		}
	}
}

// BenchmarkOpen200Files opens 200 Go files made of the standard library's
// net/http tree (its 112 files, then copies of them under another
// directory), asks for their lenses and the budget, and reports the memory
// then in use: MB-heap (live heap after a GC) and MB-rss (resident set of
// the process, Linux only).
func BenchmarkOpen200Files(b *testing.B) {
	root := b.TempDir()
	files := netHTTPFiles(b, root, 200)
	for i := 0; i < b.N; i++ {
		var srv *Server
		c := startServer(b, Options{Logger: zap.NewNop(), BudgetDebounce: 50 * time.Millisecond}, func(s *Server) { srv = s })
		c.initialize(nil, nil, root)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			u := c.open(f, "go", string(data))
			if m := c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}); m.Error != nil {
				b.Fatal(m.Error.Message)
			}
		}
		var st budgetStatusResult
		c.result(methodBudgetStatus, nil, &st)
		if st.OpenFiles != len(files) {
			b.Fatalf("openFiles = %d, want %d", st.OpenFiles, len(files))
		}
		// Measured at rest: after the what-if computation of the 200
		// files (its packs' garbage is not what the open files hold).
		for deadline := time.Now().Add(5 * time.Minute); !srv.whatif.settled() && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(2 * trimDelay) // the server trims the C heap after freeing trees
		runtime.GC()
		debug.FreeOSMemory()                                 // RSS then counts memory in use, not memory the runtime kept
		if out := os.Getenv("ACODE_BENCH_HEAP"); out != "" { // what the open files hold
			if f, err := os.Create(out); err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "MB-heap")
		if rss, ok := residentMB(); ok {
			b.ReportMetric(rss, "MB-rss")
		}
		if anon, ok := anonMB(); ok {
			b.ReportMetric(anon, "MB-anon")
		}
		if held, inUse, ok := chunker.CHeap(); ok {
			b.ReportMetric(float64(held)/(1<<20), "MB-cheld")
			b.ReportMetric(float64(inUse)/(1<<20), "MB-cused")
		}
		b.ReportMetric(float64(ms.Sys-ms.HeapReleased)/(1<<20), "MB-gosys")
		c.shutdownExit()
	}
}

// netHTTPFiles copies the Go files of GOROOT/src/net/http under root,
// again and again in numbered directories, until there are n, and returns
// their paths.
func netHTTPFiles(b *testing.B, root string, n int) []string {
	b.Helper()
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	var src []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			src = append(src, p)
		}
		return nil
	})
	if err != nil || len(src) == 0 {
		b.Fatalf("no Go files under %s: %v", dir, err)
	}
	sort.Strings(src)
	var files []string
	for copyN := 0; len(files) < n; copyN++ {
		for _, p := range src {
			if len(files) == n {
				break
			}
			rel, _ := filepath.Rel(dir, p)
			dst := filepath.Join(root, fmt.Sprintf("copy%d", copyN), rel)
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(dst, data, 0o644); err != nil {
				b.Fatal(err)
			}
			files = append(files, dst)
		}
	}
	return files
}

// residentMB reads the resident set size of the process.
func residentMB() (float64, bool) {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	fields := strings.Fields(string(data))
	if len(fields) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseFloat(fields[1], 64)
	if err != nil {
		return 0, false
	}
	return pages * float64(os.Getpagesize()) / (1 << 20), true
}

// BenchmarkPackMemory runs ten searching packs over eight copies of
// GOROOT/src/net/http (about 900 files, 20 MB; every function matches, with
// twenty lines of context, under a 100,000-token budget), waits settle, and
// reports the resident set of the process then (MB-rss), its peak
// (MB-hwm), and the memory the Go runtime still holds from the OS
// (MB-held), with the return of memory after large packs on (returnAbove's
// default) and off.
func BenchmarkPackMemory(b *testing.B) {
	root := b.TempDir()
	netHTTPFiles(b, root, 8*112)
	const settle = 2 * time.Second
	for _, on := range []bool{true, false} {
		name := "return"
		if !on {
			name = "keep"
		}
		b.Run(name, func(b *testing.B) {
			saved := returnAbove
			if !on {
				returnAbove = 1 << 62
			}
			defer func() { returnAbove = saved }()
			for i := 0; i < b.N; i++ {
				debug.FreeOSMemory() // start from the same floor
				c := benchClient(b, root)
				params := map[string]any{
					"query":  "server handler timeout request",
					"search": map[string]any{"pattern": "func", "maxResults": 20000, "contextLines": 20},
					"budget": map[string]any{"totalTokens": 100000},
				}
				for range 10 {
					if m := c.call(methodPackContext, params); m.Error != nil {
						b.Fatal(m.Error.Message)
					}
				}
				time.Sleep(settle)
				if rss, ok := residentMB(); ok {
					b.ReportMetric(rss, "MB-rss")
				}
				if hwm, ok := peakMB(); ok {
					b.ReportMetric(hwm, "MB-hwm")
				}
				b.ReportMetric(float64(heldBytes())/(1<<20), "MB-held")
				c.shutdownExit()
			}
		})
	}
}

// BenchmarkFileCount1MB measures the file total of a 1 MB Go file after a
// one-character edit in its middle: "blocks" recounts the edited block
// (countCache), "whole" counts the whole text, in one run for the ratio.
func BenchmarkFileCount1MB(b *testing.B) {
	text := goFile(41000)
	tok, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		b.Fatal(err)
	}
	mid := len(text) / 2
	versions := [2]string{text, text[:mid] + "x" + text[mid:]}
	b.Run("blocks", func(b *testing.B) {
		c := newCountCache()
		c.get(&document{URI: "file:///big.go", Text: versions[0]}, tok)
		for i := 0; i < b.N; i++ {
			c.get(&document{URI: "file:///big.go", Text: versions[(i+1)%2]}, tok)
		}
	})
	b.Run("whole", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			tok.Count(versions[(i+1)%2])
		}
	})
}

// peakMB reads the peak resident set size of the process (VmHWM).
func peakMB() (float64, bool) { return statusMB("VmHWM:") }

// anonMB reads the anonymous part of the resident set (RssAnon: heap, C
// allocations, stacks; not the mapped pages of the binary).
func anonMB() (float64, bool) { return statusMB("RssAnon:") }

// statusMB reads a field in kB of /proc/self/status, in MB.
func statusMB(field string) (float64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			f := strings.Fields(v)
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseFloat(f[0], 64)
			return kb / 1024, err == nil
		}
	}
	return 0, false
}

// BenchmarkSearchPack measures acode/packContext with a query and a
// workspace search (closeIdleConns) in a server whose client watches
// files, with the workspace index on (a private cache): after a first
// pack (which reads every file and teaches the index their terms), the
// warm packs read only the files the index cannot rule out. The tree is
// net/http, or ACODE_BENCH_TREE; ACODE_BENCH_PROFILE=FILE writes the warm
// packs' CPU profile; ACODE_BENCH_NOINDEX=1 turns the index off.
func BenchmarkSearchPack(b *testing.B) {
	root := os.Getenv("ACODE_BENCH_TREE")
	if root == "" {
		root = filepath.Join(runtime.GOROOT(), "src", "net", "http")
	}
	b.Setenv("XDG_CACHE_HOME", b.TempDir())
	var srv *Server
	c := startServer(b, Options{Logger: zap.NewNop(), BudgetDebounce: 50 * time.Millisecond, WorkspaceIndex: os.Getenv("ACODE_BENCH_NOINDEX") == ""}, func(s *Server) { srv = s })
	c.initialize(map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}, nil, root)
	c.waitNote("client/registerCapability", 0, nil)
	for deadline := time.Now().Add(10 * time.Second); !srv.watching.Load(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("the watcher's registration was not answered in 10 s")
		}
	}
	params := map[string]any{"query": "idle connection timeout", "search": map[string]any{"pattern": "closeIdleConns"}, "includeOpenFiles": false}
	first := c.call(methodPackContext, params)
	if first.Error != nil {
		b.Fatal(first.Error.Message)
	}
	if out := os.Getenv("ACODE_BENCH_PROFILE"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	cpu0, cpuOK := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := c.call(methodPackContext, params)
		if m.Error != nil {
			b.Fatal(m.Error.Message)
		}
		if string(m.Result) != string(first.Result) {
			b.Fatal("a warm pack differs from the first")
		}
	}
	b.StopTimer()
	if cpu1, ok := processCPU(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}
