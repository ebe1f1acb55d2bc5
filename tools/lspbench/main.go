// Command lspbench times acode/packContext in a running language server
// (docs/benchmarks.md, "Servers, fourth pass (lspidx)"):
//
//	go run ./tools/lspbench -bin bin/acode-lsp -dir $(go env GOROOT)/src -runs 5 \
//	    -params '{"query":"idle connection timeout","search":{"pattern":"closeIdleConns"}}'
//
// It starts `BIN serve` (plus -args), initializes it on -dir as a client
// that lets the server watch files (workspace.didChangeWatchedFiles with
// dynamic registration; -watch=false: a client that cannot), waits for
// the server's registration, then sends the request once (first) and
// -runs more times (warm). It prints wall and CPU (user+sys of the server
// process over each call, /proc/PID/stat) and the server's memory, checks
// that every warm result is the first's, and writes the first result's
// "content" to -out when set (for a byte-for-byte comparison of builds).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/acode-lsp/acode-lsp/tools/internal/procstat"
)

func main() {
	bin := flag.String("bin", "bin/acode-lsp", "the acode-lsp binary")
	dir := flag.String("dir", "", "the workspace root")
	params := flag.String("params", `{"query":"idle connection timeout","search":{"pattern":"closeIdleConns"}}`, "the acode/packContext params (JSON)")
	runs := flag.Int("runs", 5, "warm calls")
	watch := flag.Bool("watch", true, "offer the server dynamic registration of file watchers")
	out := flag.String("out", "", "write the first result's content to this file")
	args := flag.String("args", "", "more arguments of serve (space-separated)")
	flag.Parse()
	if *dir == "" {
		fail("-dir is required")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		fail(err.Error())
	}
	var req json.RawMessage
	if err := json.Unmarshal([]byte(*params), &req); err != nil {
		fail("-params: " + err.Error())
	}
	c := start(*bin, append([]string{"serve"}, strings.Fields(*args)...))
	defer c.stop()
	c.initialize(abs, *watch)

	var walls, cpus []time.Duration
	var first string
	for i := 0; i <= *runs; i++ {
		cpu0 := procstat.CPU(c.cmd.Process.Pid)
		t0 := time.Now()
		res := c.call("acode/packContext", req)
		wall, cpu := time.Since(t0), procstat.CPU(c.cmd.Process.Pid)-cpu0
		var r struct {
			Content    string `json:"content"`
			TokenCount int    `json:"tokenCount"`
		}
		if err := json.Unmarshal(res, &r); err != nil {
			fail("result: " + err.Error())
		}
		if i == 0 {
			first = r.Content
			fmt.Printf("first: wall %v  cpu %v  (%d tokens)\n", wall.Round(time.Millisecond), cpu, r.TokenCount)
			if *out != "" {
				if err := os.WriteFile(*out, []byte(first), 0o644); err != nil {
					fail(err.Error())
				}
			}
			continue
		}
		if r.Content != first {
			fmt.Println("lspbench: WARNING: a warm result differs from the first")
		}
		walls, cpus = append(walls, wall), append(cpus, cpu)
	}
	if len(walls) > 0 {
		wmin, wmed := procstat.MinMedian(walls)
		cmin, cmed := procstat.MinMedian(cpus)
		fmt.Printf("warm (%d): wall min %v median %v  cpu min %v median %v\n", len(walls), wmin.Round(time.Millisecond), wmed.Round(time.Millisecond), cmin, cmed)
	}
	fmt.Printf("server memory: %s\n", procstat.Memory(c.cmd.Process.Pid))
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "lspbench:", msg)
	os.Exit(1)
}

// client is a minimal LSP client over the server's stdin and stdout.
type client struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	wmu sync.Mutex

	mu         sync.Mutex
	next       int
	waiting    map[int]chan json.RawMessage
	registered chan struct{}
	once       sync.Once
}

func start(bin string, args []string) *client {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		fail(err.Error())
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		fail(err.Error())
	}
	if err := cmd.Start(); err != nil {
		fail(err.Error())
	}
	c := &client{cmd: cmd, in: in, waiting: map[int]chan json.RawMessage{}, registered: make(chan struct{})}
	go c.read(bufio.NewReader(outp))
	return c
}

func (c *client) stop() {
	c.call("shutdown", nil)
	c.send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	_ = c.in.Close()
	_ = c.cmd.Wait()
}

func (c *client) send(msg any) {
	data, err := json.Marshal(msg)
	if err != nil {
		fail(err.Error())
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		fail("write: " + err.Error())
	}
}

// call sends a request and waits for its result.
func (c *client) call(method string, params any) json.RawMessage {
	c.mu.Lock()
	c.next++
	id := c.next
	ch := make(chan json.RawMessage, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case res := <-ch:
		return res
	case <-time.After(10 * time.Minute):
		fail(method + ": no answer in 10 minutes")
	}
	return nil
}

// read delivers responses, answers the server's requests (null: accepted)
// and notes the watcher's registration.
func (c *client) read(r *bufio.Reader) {
	for {
		body, err := lsptest.ReadFrame(r, false)
		if err != nil {
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &msg); err != nil {
			continue
		}
		switch {
		case msg.Method != "" && len(msg.ID) > 0: // a request of the server
			c.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": nil})
			if msg.Method == "client/registerCapability" {
				c.once.Do(func() { close(c.registered) })
			}
		case msg.Method == "" && len(msg.ID) > 0:
			if msg.Error != nil {
				fail("error: " + msg.Error.Message)
			}
			id, _ := strconv.Atoi(string(msg.ID))
			c.mu.Lock()
			ch := c.waiting[id]
			delete(c.waiting, id)
			c.mu.Unlock()
			if ch != nil {
				ch <- msg.Result
			}
		}
	}
}

// initialize opens the session on root; with watch it waits for the
// server's file watcher registration.
func (c *client) initialize(root string, watch bool) {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(root)}
	caps := map[string]any{}
	if watch {
		caps["workspace"] = map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}
	}
	c.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": u.String(), "capabilities": caps,
		"workspaceFolders": []map[string]any{{"uri": u.String(), "name": filepath.Base(root)}}})
	c.send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	if watch {
		select {
		case <-c.registered:
			time.Sleep(100 * time.Millisecond) // the answer reaches the server
		case <-time.After(30 * time.Second):
			fail("the server registered no file watcher in 30 s")
		}
	}
}
