// Command cancelbench times how long a pack goes on after its user cancels
// it, from each door of the real binary (issue 24 item 4, docs/benchmarks.md
// "Cancelling a pack (third pass)"):
//
//	go run ./tools/cancelbench -bin bin/acode-lsp -dir $(go env GOROOT)/src/net/http
//	go run ./tools/cancelbench -bin bin/acode-lsp -hostile
//
// For each delay of -delays it starts a pack and cancels it after that
// delay:
//
//   - cli: `BIN pack DIR --root DIR --query Q --budget B`, then SIGINT; the
//     time is from the signal to the process's exit (an exit status of 0
//     counts as finished first).
//   - lsp: `BIN serve --log-level debug`, an acode/packContext request (the
//     query, the budget and a workspace search for -pattern), then
//     $/cancelRequest; the server answers the request at once, so the time
//     is from the cancel to the server's "pack cancelled" log line (the
//     pack's return).
//   - mcp: `BIN mcp --root DIR --log-level debug` through the Go SDK's
//     client, a pack_context call whose context is then cancelled (the SDK
//     sends notifications/cancelled); the time is from the cancel to the
//     server's "pack cancelled" log line.
//
// Beside the wall time it reports the CPU time the process used from the
// cancel to the return (from /proc, 10 ms ticks): the work done after the
// cancel, whatever else loads the machine. A pack that finished before the
// cancel is counted as finished, not timed.
// -hostile packs issue 24's hostile case instead of -dir: a 744 KB Go file
// under a repository config of max_chunk_tokens: 1. It prints each door's
// samples, maximum and median.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/acode-lsp/acode-lsp/tools/internal/procstat"
)

var (
	bin     = flag.String("bin", "bin/acode-lsp", "the acode-lsp binary")
	dir     = flag.String("dir", "", "the tree to pack")
	hostile = flag.Bool("hostile", false, "pack the hostile case (a 744 KB file, max_chunk_tokens: 1) instead of -dir")
	query   = flag.String("query", "how does the server handle keep-alive connections", "the query")
	pattern = flag.String("pattern", "func", "the language server's workspace search pattern")
	budget  = flag.Int("budget", 16000, "the budget")
	delays  = flag.String("delays", "50ms,150ms,300ms,500ms,800ms,1200ms,1800ms", "when to cancel, after the pack starts")
	doors   = flag.String("doors", "cli,lsp,mcp", "the doors to measure")
)

func main() {
	flag.Parse()
	// Handling SIGINT here gives the children its default disposition: a
	// tool started in the background inherits SIGINT ignored, and so would
	// the CLI until it installs its own handler, losing an early signal.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	go func() { <-sigs; os.Exit(130) }()
	if *hostile {
		d, err := hostileTree()
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
		*dir, *query, *pattern = d, "checkout cart total", "checkout"
	}
	if *dir == "" {
		fail(fmt.Errorf("-dir or -hostile is required"))
	}
	var ds []time.Duration
	for _, s := range strings.Split(*delays, ",") {
		d, err := time.ParseDuration(s)
		if err != nil {
			fail(err)
		}
		ds = append(ds, d)
	}
	for _, door := range strings.Split(*doors, ",") {
		measure(door, ds)
	}
}

// measure starts door's server (if any), cancels a pack after each of ds
// and prints the samples and their summary.
func measure(door string, ds []time.Duration) {
	var run func(time.Duration) (time.Duration, time.Duration, bool, error)
	var closeDoor func()
	switch door {
	case "cli":
		run, closeDoor = cliPack, func() {}
	case "lsp":
		s, err := startLSP()
		if err != nil {
			fail(err)
		}
		run, closeDoor = s.pack, s.close
	case "mcp":
		s, err := startMCP()
		if err != nil {
			fail(err)
		}
		run, closeDoor = s.pack, s.close
	default:
		fail(fmt.Errorf("unknown door %q", door))
	}
	defer closeDoor()
	var lat, cpus []time.Duration
	finished := 0
	for _, d := range ds {
		took, cpu, ok, err := run(d)
		if err != nil {
			fail(fmt.Errorf("%s at %v: %w", door, d, err))
		}
		if !ok {
			finished++
			fmt.Printf("%s cancel at %v: finished first\n", door, d)
			continue
		}
		fmt.Printf("%s cancel at %v: returned %.1f ms after the cancel (%.0f ms of CPU)\n", door, d, float64(took)/1e6, float64(cpu)/1e6)
		lat, cpus = append(lat, took), append(cpus, cpu)
	}
	if len(lat) == 0 {
		fmt.Printf("%s: every pack finished before its cancel\n", door)
		return
	}
	slices.Sort(lat)
	slices.Sort(cpus)
	fmt.Printf("%s: %d cancelled, %d finished first; cancel to return max %.1f ms, p50 %.1f ms; CPU after the cancel max %.0f ms\n",
		door, len(lat), finished, float64(lat[len(lat)-1])/1e6, float64(lat[len(lat)/2])/1e6, float64(cpus[len(cpus)-1])/1e6)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cancelbench:", err)
	os.Exit(1)
}

// hostileTree writes issue 24's hostile case (as BenchmarkPackHostileChunks
// builds it) into a new temporary directory.
func hostileTree() (string, error) {
	d, err := os.MkdirTemp("", "cancelbench")
	if err != nil {
		return "", err
	}
	var text []byte
	for i := 0; len(text) < 744<<10; i++ {
		text = fmt.Appendf(text, "\tcheckoutValue%d := computeCartTotal(items, %d) // line %d\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(d, "big.go"), []byte("package big\n\nfunc F() {\n"+string(text)+"}\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(d, ".agent"), 0o755); err != nil {
		return "", err
	}
	cfg := "context:\n  chunking: {max_chunk_tokens: 1, min_chunk_tokens: 0}\n"
	return d, os.WriteFile(filepath.Join(d, ".agent", "config.yml"), []byte(cfg), 0o644)
}

// cliPack runs a CLI pack, interrupts it after delay and returns the time
// from SIGINT to the process's exit; ok is false when it exited first.
func cliPack(delay time.Duration) (time.Duration, time.Duration, bool, error) {
	cmd := exec.Command(*bin, "pack", *dir, "--root", *dir, "--query", *query, "--budget", strconv.Itoa(*budget))
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		return 0, 0, false, err
	}
	exited := make(chan struct{})
	var end time.Time
	go func() { _ = cmd.Wait(); end = time.Now(); close(exited) }()
	select {
	case <-exited:
		return 0, 0, false, nil
	case <-time.After(delay):
	}
	cpu0 := procstat.CPU(cmd.Process.Pid)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		<-exited
		return 0, 0, false, nil // exited in between
	}
	<-exited
	st := cmd.ProcessState
	if st.ExitCode() == 0 {
		return 0, 0, false, nil // it finished before the signal was handled
	}
	return end.Sub(start), st.UserTime() + st.SystemTime() - cpu0, true, nil
}

// logWatch reads a server's JSON log lines and signals each pack's end.
type logWatch struct {
	ends chan string // "cancelled" or "packed"
}

func watchLog(r io.Reader) *logWatch {
	w := &logWatch{ends: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.Contains(line, `"msg":"pack cancelled"`):
				w.ends <- "cancelled"
			case strings.Contains(line, `"msg":"packed"`):
				w.ends <- "packed"
			}
		}
	}()
	return w
}

// wait waits for the end of the pack of server pid cancelled at start,
// when the server had used cpu0 of CPU: the time from start to its "pack
// cancelled" line and the CPU the server used meanwhile; ok is false when
// it had finished.
func (w *logWatch) wait(pid int, start time.Time, cpu0 time.Duration) (time.Duration, time.Duration, bool, error) {
	select {
	case end := <-w.ends:
		took := time.Since(start)
		if end == "packed" {
			return 0, 0, false, nil
		}
		return took, procstat.CPU(pid) - cpu0, true, nil
	case <-time.After(30 * time.Second):
		return 0, 0, false, fmt.Errorf("no end of the pack in the server's log 30 s after the cancel")
	}
}

// lspServer is a running `acode-lsp serve`.
type lspServer struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	log   *logWatch
	mu    sync.Mutex
	next  int
	resps map[int]chan json.RawMessage
}

func startLSP() (*lspServer, error) {
	cmd := exec.Command(*bin, "serve", "--log-level", "debug")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &lspServer{cmd: cmd, in: in, log: watchLog(errPipe), resps: map[int]chan json.RawMessage{}}
	go s.read(bufio.NewReader(out))
	root := (&url.URL{Scheme: "file", Path: *dir}).String()
	if _, err := s.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": root,
		"workspaceFolders": []any{map[string]any{"uri": root, "name": "root"}}, "capabilities": map[string]any{}}); err != nil {
		return nil, err
	}
	return s, s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
}

// read routes the server's responses to their callers; requests and
// notifications from the server are answered or dropped.
func (s *lspServer) read(r *bufio.Reader) {
	for {
		body, err := lsptest.ReadFrame(r, false)
		if err != nil {
			return
		}
		var m struct {
			ID     *json.RawMessage `json:"id"`
			Method string           `json:"method"`
		}
		if json.Unmarshal(body, &m) != nil || m.ID == nil {
			continue
		}
		if m.Method != "" { // a request of the server's (progress, configuration)
			_ = s.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
			continue
		}
		id, _ := strconv.Atoi(string(*m.ID))
		s.mu.Lock()
		ch := s.resps[id]
		delete(s.resps, id)
		s.mu.Unlock()
		if ch != nil {
			ch <- body
		}
	}
}

func (s *lspServer) send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(data), data)
	return err
}

// start sends a request and returns its id and the channel of its response.
func (s *lspServer) start(method string, params any) (int, chan json.RawMessage, error) {
	s.mu.Lock()
	s.next++
	id := s.next
	ch := make(chan json.RawMessage, 1)
	s.resps[id] = ch
	s.mu.Unlock()
	return id, ch, s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

func (s *lspServer) call(method string, params any) (json.RawMessage, error) {
	_, ch, err := s.start(method, params)
	if err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		return r, nil
	case <-time.After(60 * time.Second):
		return nil, fmt.Errorf("%s: no answer in 60 s", method)
	}
}

// pack sends acode/packContext, cancels it after delay with
// $/cancelRequest and times the pack's end in the server's log.
func (s *lspServer) pack(delay time.Duration) (time.Duration, time.Duration, bool, error) {
	params := map[string]any{"query": *query, "budget": map[string]any{"totalTokens": *budget},
		"search": map[string]any{"pattern": *pattern, "maxResults": 100000}}
	id, ch, err := s.start("acode/packContext", params)
	if err != nil {
		return 0, 0, false, err
	}
	select {
	case r := <-ch:
		if bytes.Contains(r, []byte(`"error"`)) {
			return 0, 0, false, fmt.Errorf("acode/packContext failed: %.300s", r)
		}
		<-s.log.ends // its "packed" line
		return 0, 0, false, nil
	case <-time.After(delay):
	}
	pid := s.cmd.Process.Pid
	cpu0 := procstat.CPU(pid)
	start := time.Now()
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "$/cancelRequest", "params": map[string]any{"id": id}}); err != nil {
		return 0, 0, false, err
	}
	took, cpu, ok, err := s.log.wait(pid, start, cpu0)
	<-ch
	return took, cpu, ok, err
}

func (s *lspServer) close() {
	_, _ = s.call("shutdown", nil)
	_ = s.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	_ = s.cmd.Wait()
}

// mcpServer is a running `acode-lsp mcp` and the SDK's client session.
type mcpServer struct {
	cs  *sdk.ClientSession
	pid int
	log *logWatch
}

func startMCP() (*mcpServer, error) {
	cmd := exec.Command(*bin, "mcp", "--root", *dir, "--log-level", "debug")
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "cancelbench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	return &mcpServer{cs: cs, pid: cmd.Process.Pid, log: watchLog(errPipe)}, nil
}

// pack calls pack_context, cancels its context after delay (the SDK sends
// notifications/cancelled) and times the pack's end in the server's log.
func (s *mcpServer) pack(delay time.Duration) (time.Duration, time.Duration, bool, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type answer struct {
		res *sdk.CallToolResult
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: "pack_context", Arguments: map[string]any{"query": *query, "budget": *budget}})
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if a.err != nil || a.res.IsError {
			return 0, 0, false, fmt.Errorf("pack_context failed: %v", a.err)
		}
		<-s.log.ends
		return 0, 0, false, nil
	case <-time.After(delay):
	}
	cpu0 := procstat.CPU(s.pid)
	start := time.Now()
	cancel()
	took, cpu, ok, err := s.log.wait(s.pid, start, cpu0)
	<-done
	return took, cpu, ok, err
}

func (s *mcpServer) close() { _ = s.cs.Close() }
