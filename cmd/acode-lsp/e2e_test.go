package main_test

// End-to-end conformance tests: the real acode-lsp binary, built once in
// TestMain, is driven as a subprocess exactly as an editor or a shell would
// drive it — the language server over stdio with a small hand-written
// JSON-RPC client, and every subcommand of the command line — and checked
// against /work/shared/DESIGN.md to the letter: names of methods, params,
// result fields, error codes, exclusion reasons, flags and outputs.
//
// Token counts are checked against an independent count made here with
// budget/tokenizer, never against the server's own numbers.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// binary is the acode-lsp executable built by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "acode-lsp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: temp dir:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "acode-lsp")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build: %v\n%s", err, out)
		_ = os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// waitLimit bounds every wait for the binary: a guard against a hung
// process, never an assertion about speed.
const waitLimit = 20 * time.Second

// sampleDir is the sample workspace of the repository (read-only).
const sampleDir = "../../testdata/sample"

// sample copies the sample workspace into a fresh temporary directory and
// returns its absolute, symlink-free path.
func sample(t *testing.T) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(sampleDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(sampleDir, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy sample: %v", err)
	}
	return dst
}

// writeFile writes data to path, creating its directory.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile returns the text of a file.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string { return "file://" + filepath.ToSlash(path) }

// count is the independent exact count of text under an encoding.
func count(t *testing.T, encoding, text string) int {
	t.Helper()
	tok, err := tokenizer.ForEncoding(encoding)
	if err != nil {
		t.Fatal(err)
	}
	return tok.Count(text)
}

// heuristicCount is DESIGN rule 1's estimate for unknown models.
func heuristicCount(text string) int {
	return int(math.Ceil(float64(len([]rune(text))) / 3.5))
}

// ---------------------------------------------------------------------------
// The command line.

// cliResult is what one run of the binary left behind.
type cliResult struct {
	code           int
	stdout, stderr string
}

// runBinary runs the binary in dir with stdin and returns its exit code
// and output.
func runBinary(t *testing.T, dir, stdin string, args ...string) cliResult {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(waitLimit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("acode-lsp %s did not finish", strings.Join(args, " "))
	}
	code := 0
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("acode-lsp %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	return cliResult{code: code, stdout: out.String(), stderr: errb.String()}
}

// ---------------------------------------------------------------------------
// The language server: a minimal editor speaking JSON-RPC over the
// process's stdin and stdout.

// message is any JSON-RPC message.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is the error object of a response.
type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// dataCode returns data.code of a -32803 error.
func (e *rpcError) dataCode() string {
	var d struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(e.Data, &d)
	return d.Code
}

// editor is a language-server session with the binary.
type editor struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	wmu   sync.Mutex

	mu        sync.Mutex
	cond      *sync.Cond
	seq       int
	responses map[string][]*message // by raw id
	notes     []*message            // notifications and server requests, in order
	badOutput error                 // the first stdout bytes that are not protocol
	eof       bool

	stderr   lockedBuffer
	exited   chan struct{}
	exitCode int
}

// lockedBuffer is a bytes.Buffer safe for the process's stderr copier.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServer starts `acode-lsp args…` in dir and returns an editor talking
// to it. Nothing is sent yet.
func startServer(t *testing.T, dir string, args ...string) *editor {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	e := &editor{t: t, cmd: cmd, responses: map[string][]*message{}, exited: make(chan struct{})}
	e.cond = sync.NewCond(&e.mu)
	cmd.Stderr = &e.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	e.stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		e.readLoop(stdout)
	}()
	go func() {
		<-readDone // Wait closes stdout: read everything first
		err := cmd.Wait()
		e.exitCode = 0
		if err != nil {
			var ee *exec.ExitError
			e.exitCode = -1
			if errors.As(err, &ee) {
				e.exitCode = ee.ExitCode()
			}
		}
		close(e.exited)
	}()
	t.Cleanup(func() {
		_ = e.stdin.Close()
		select {
		case <-e.exited:
		case <-time.After(waitLimit):
			_ = cmd.Process.Kill()
			<-e.exited
			t.Errorf("acode-lsp did not end after its input was closed")
		}
		e.mu.Lock()
		bad := e.badOutput
		e.mu.Unlock()
		if bad != nil {
			t.Errorf("stdout carried something other than protocol: %v", bad)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", tail(e.stderr.String(), 4000))
		}
	})
	return e
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// readLoop parses stdout as LSP base-protocol frames. Anything else is
// recorded as bad output, which fails the test.
func (e *editor) readLoop(r io.Reader) {
	br := bufio.NewReader(r)
	defer func() {
		e.mu.Lock()
		e.eof = true
		e.cond.Broadcast()
		e.mu.Unlock()
	}()
	for {
		body, err := readFrame(br)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				e.fail(err)
			}
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			e.fail(fmt.Errorf("frame body is not JSON: %v: %.200q", err, body))
			continue
		}
		if m.JSONRPC != "2.0" {
			e.fail(fmt.Errorf("frame without jsonrpc 2.0: %.200q", body))
		}
		switch {
		case m.Method != "" && len(m.ID) > 0:
			e.answerServer(&m)
			e.mu.Lock()
			e.notes = append(e.notes, &m)
		case m.Method != "":
			e.mu.Lock()
			e.notes = append(e.notes, &m)
		default:
			e.mu.Lock()
			e.responses[string(m.ID)] = append(e.responses[string(m.ID)], &m)
		}
		e.cond.Broadcast()
		e.mu.Unlock()
	}
}

// fail records the first violation of the framing on stdout.
func (e *editor) fail(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.badOutput == nil {
		e.badOutput = err
	}
}

// readFrame reads one frame: headers ended by an empty line, then exactly
// Content-Length bytes of body. io.EOF means the stream ended between frames.
func readFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for first := true; ; first = false {
		line, err := r.ReadString('\n')
		if err != nil {
			if first && line == "" && errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("header: %q: %w", line, err)
		}
		if !strings.HasSuffix(line, "\r\n") {
			return nil, fmt.Errorf("header line not ended by CRLF: %q", line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("not a header: %q", line)
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length":
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length: %q", line)
			}
			length = n
		case "content-type":
		default:
			return nil, fmt.Errorf("unknown header: %q", line)
		}
	}
	if length < 0 {
		return nil, errors.New("frame without Content-Length")
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("body: %w", err)
	}
	return body, nil
}

// answerServer answers a request from the server as an editor without
// special capabilities would.
func (e *editor) answerServer(m *message) {
	var result any
	if m.Method == "workspace/configuration" {
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(m.Params, &p)
		result = make([]any, len(p.Items))
	}
	go e.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

// write sends one framed message.
func (e *editor) write(v any) {
	body, err := json.Marshal(v)
	if err != nil {
		e.t.Errorf("marshal: %v", err)
		return
	}
	e.writeRaw(body)
}

// writeRaw sends body in one frame.
func (e *editor) writeRaw(body []byte) {
	e.wmu.Lock()
	defer e.wmu.Unlock()
	_, _ = fmt.Fprintf(e.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

// nextID returns a fresh numeric request id.
func (e *editor) nextID() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seq++
	return e.seq
}

// send sends a request with the given id and returns the id's raw JSON.
func (e *editor) send(id any, method string, params any) string {
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	e.write(msg)
	raw, _ := json.Marshal(id)
	return string(raw)
}

// await waits for the response to the request whose raw id is rawID.
func (e *editor) await(rawID string) *message {
	e.t.Helper()
	deadline := time.Now().Add(waitLimit)
	timer := time.AfterFunc(waitLimit, func() {
		e.mu.Lock()
		e.cond.Broadcast()
		e.mu.Unlock()
	})
	defer timer.Stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.responses[rawID]) == 0 {
		if e.eof || time.Now().After(deadline) {
			e.t.Fatalf("no response to request %s (output ended: %v)", rawID, e.eof)
		}
		e.cond.Wait()
	}
	return e.responses[rawID][0]
}

// call sends a request and waits for its response.
func (e *editor) call(method string, params any) *message {
	e.t.Helper()
	return e.await(e.send(e.nextID(), method, params))
}

// result calls method and decodes its result into v; an error response
// fails the test.
func (e *editor) result(method string, params, v any) {
	e.t.Helper()
	m := e.call(method, params)
	if m.Error != nil {
		e.t.Fatalf("%s: error %d %s %s", method, m.Error.Code, m.Error.Message, m.Error.Data)
	}
	if v != nil {
		if err := json.Unmarshal(m.Result, v); err != nil {
			e.t.Fatalf("%s: result %s: %v", method, m.Result, err)
		}
	}
}

// callError calls method and returns its error; a success fails the test.
func (e *editor) callError(method string, params any) *rpcError {
	e.t.Helper()
	m := e.call(method, params)
	if m.Error == nil {
		e.t.Fatalf("%s: want an error, got result %.300s", method, m.Result)
	}
	return m.Error
}

// notify sends a notification.
func (e *editor) notify(method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	e.write(msg)
}

// mark returns the number of server messages seen so far, for waitNote.
func (e *editor) mark() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.notes)
}

// waitNote waits for a message from the server with the given method,
// after the first `from` ones, for which ok returns true; it returns its
// params.
func (e *editor) waitNote(from int, method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.t.Helper()
	deadline := time.Now().Add(waitLimit)
	timer := time.AfterFunc(waitLimit, func() {
		e.mu.Lock()
		e.cond.Broadcast()
		e.mu.Unlock()
	})
	defer timer.Stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	for i := from; ; {
		for ; i < len(e.notes); i++ {
			if n := e.notes[i]; n.Method == method && (ok == nil || ok(n.Params)) {
				return n.Params
			}
		}
		if e.eof || time.Now().After(deadline) {
			e.t.Fatalf("no %s from the server (output ended: %v)", method, e.eof)
		}
		e.cond.Wait()
	}
}

// wait waits for the process to end and returns its exit code.
func (e *editor) wait() int {
	e.t.Helper()
	select {
	case <-e.exited:
		return e.exitCode
	case <-time.After(waitLimit):
		e.t.Fatal("acode-lsp did not exit")
		return 0
	}
}

// initialize runs the initialize handshake for the workspace root with the
// given initializationOptions (nil: none) and returns the result.
func (e *editor) initialize(root string, initOptions any) map[string]any {
	e.t.Helper()
	params := map[string]any{
		"processId":    os.Getpid(),
		"rootUri":      fileURI(root),
		"capabilities": map[string]any{},
		"clientInfo":   map[string]any{"name": "e2e"},
	}
	if root != "" {
		params["workspaceFolders"] = []map[string]any{{"uri": fileURI(root), "name": filepath.Base(root)}}
	}
	if initOptions != nil {
		params["initializationOptions"] = initOptions
	}
	var res map[string]any
	e.result("initialize", params, &res)
	e.notify("initialized", map[string]any{})
	return res
}

// open opens a document with the given text.
func (e *editor) open(path, language, text string) {
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": language, "version": 1, "text": text,
	}})
}

// session starts the server on a copy of the sample workspace, initialized
// with initOptions, and returns it with the workspace root.
func session(t *testing.T, initOptions any, args ...string) (*editor, string) {
	t.Helper()
	root := sample(t)
	e := startServer(t, root, args...)
	e.initialize(root, initOptions)
	return e, root
}

// shutdown sends shutdown and exit and returns the exit code.
func (e *editor) shutdown() int {
	e.t.Helper()
	e.result("shutdown", nil, nil)
	e.notify("exit", nil)
	return e.wait()
}

// keys returns the sorted keys of a JSON object.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not an object: %.200s: %v", raw, err)
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// object decodes a JSON object into its raw fields.
func object(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		t.Fatalf("not a JSON object: %.300s (%v)", raw, err)
	}
	return m
}

// isList reports whether raw is a JSON array (not null).
func isList(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) > 0 && bytes.TrimSpace(raw)[0] == '['
}

// round1 rounds a percentage to one decimal, as the budget reports it.
func round1(part, whole int) float64 {
	return math.Round(float64(part)*1000/float64(whole)) / 10
}

// ---------------------------------------------------------------------------
// Lifecycle.

func TestE2EInitializeResult(t *testing.T) {
	root := sample(t)
	e := startServer(t, root)
	res := e.initialize(root, nil)

	caps, ok := res["capabilities"].(map[string]any)
	if !ok {
		t.Fatalf("initialize result without capabilities: %v", res)
	}
	// textDocumentSync: open/close/save, full or incremental.
	switch sync := caps["textDocumentSync"].(type) {
	case map[string]any:
		if sync["openClose"] != true {
			t.Errorf("textDocumentSync.openClose = %v, want true", sync["openClose"])
		}
		if c, _ := sync["change"].(float64); c != 1 && c != 2 {
			t.Errorf("textDocumentSync.change = %v, want 1 (full) or 2 (incremental)", sync["change"])
		}
		if save, ok := sync["save"]; !ok || save == nil || save == false {
			t.Errorf("textDocumentSync.save = %v, want true or an object", save)
		}
	default:
		t.Errorf("textDocumentSync = %v, want an object with openClose, change and save", caps["textDocumentSync"])
	}
	if lens, ok := caps["codeLensProvider"]; !ok || lens == nil || lens == false {
		t.Errorf("codeLensProvider = %v, want it advertised", lens)
	}
	info, _ := res["serverInfo"].(map[string]any)
	if diff := cmp.Diff("acode-lsp", info["name"]); diff != "" {
		t.Errorf("serverInfo.name (-want +got):\n%s", diff)
	}
	if code := e.shutdown(); code != 0 {
		t.Errorf("exit code %d after shutdown and exit, want 0", code)
	}
}

func TestE2ELifecycle(t *testing.T) {
	t.Run("requests before initialize are refused", func(t *testing.T) {
		root := sample(t)
		e := startServer(t, root)
		for _, method := range []string{"acode/budgetStatus", "acode/countTokens", "acode/packContext", "textDocument/codeLens", "shutdown"} {
			err := e.callError(method, map[string]any{"text": "x"})
			if err.Code != -32002 {
				t.Errorf("%s before initialize: code %d (%s), want -32002 (ServerNotInitialized)", method, err.Code, err.Message)
			}
		}
		// The refusal does not end the session.
		e.initialize(root, nil)
		var st map[string]any
		e.result("acode/budgetStatus", nil, &st)
		if code := e.shutdown(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
	t.Run("shutdown then exit ends with 0", func(t *testing.T) {
		e, _ := session(t, nil)
		m := e.call("shutdown", nil)
		if m.Error != nil || string(m.Result) != "null" {
			t.Errorf("shutdown answered %s %+v, want result null", m.Result, m.Error)
		}
		e.notify("exit", nil)
		if code := e.wait(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
	t.Run("exit without shutdown ends with 1", func(t *testing.T) {
		e, _ := session(t, nil)
		e.notify("exit", nil)
		if code := e.wait(); code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	})
	t.Run("requests after shutdown are invalid", func(t *testing.T) {
		e, _ := session(t, nil)
		e.result("shutdown", nil, nil)
		if err := e.callError("acode/budgetStatus", nil); err.Code != -32600 {
			t.Errorf("request after shutdown: code %d (%s), want -32600", err.Code, err.Message)
		}
		e.notify("exit", nil)
		if code := e.wait(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
}

// ---------------------------------------------------------------------------
// Code lenses.

// lens is a code lens as the editor shows it.
type lens struct {
	Line  int
	Title string
}

// lenses asks for the code lenses of a document.
func (e *editor) lenses(path string) []lens {
	e.t.Helper()
	var raw []struct {
		Range struct {
			Start struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"range"`
		Command *struct {
			Title string `json:"title"`
		} `json:"command"`
	}
	e.result("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fileURI(path)}}, &raw)
	out := make([]lens, len(raw))
	for i, r := range raw {
		if r.Command == nil {
			e.t.Fatalf("lens %d has no command (title)", i)
		}
		out[i] = lens{Line: r.Range.Start.Line, Title: r.Command.Title}
	}
	return out
}

// goDecls returns, for Go source, the top-level declarations (func, type,
// var, const) as 0-based [first, last] lines, the first line including the
// doc comment above the declaration.
func goDecls(text string) [][2]int {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var out [][2]int
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !(strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "type ") || strings.HasPrefix(l, "var ") || strings.HasPrefix(l, "const ")) {
			continue
		}
		start := i
		for start > 0 && strings.HasPrefix(lines[start-1], "//") {
			start--
		}
		end := i
		if strings.HasSuffix(l, "{") || strings.HasSuffix(l, "(") {
			for end = i + 1; end < len(lines) && lines[end] != "}" && lines[end] != ")"; end++ {
			}
		}
		out = append(out, [2]int{start, end})
		i = end
	}
	return out
}

// linesOf returns the 0-based lines first..last of text with their newlines.
func linesOf(text string, first, last int) string {
	lines := strings.SplitAfter(text, "\n")
	return strings.Join(lines[first:last+1], "")
}

// wantLenses is what DESIGN.md asks for a Go document: the document's cost
// on line 0, then one lens per top-level declaration, counted by countFn.
// A declaration's chunk runs to the next declaration (the blank lines
// between them are whole lines of the chunk before).
func wantLenses(text string, available int, countFn func(string) int, approx string) []lens {
	n := countFn(text)
	want := []lens{{0, fmt.Sprintf("%s%d tokens · %.1f%% of budget", approx, n, round1(n, available))}}
	decls := goDecls(text)
	last := strings.Count(strings.TrimSuffix(text, "\n"), "\n")
	for i, d := range decls {
		end := last
		if i+1 < len(decls) {
			end = decls[i+1][0] - 1
		}
		want = append(want, lens{d[0], fmt.Sprintf("%s%d tokens", approx, countFn(linesOf(text, d[0], end)))})
	}
	return want
}

func TestE2ECodeLens(t *testing.T) {
	exact := func(text string) int { return count(t, "o200k_base", text) }
	t.Run("exact model", func(t *testing.T) {
		e, root := session(t, nil)
		for _, rel := range []string{"cart/service.go", "cart/model.go"} {
			path := filepath.Join(root, rel)
			text := readFile(t, path)
			e.open(path, "go", text)
			// The sample config: 16000 − 1000 − 3000 = 12000 available.
			if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), e.lenses(path)); diff != "" {
				t.Errorf("%s lenses (-want +got):\n%s", rel, diff)
			}
		}
		if got := e.lenses(filepath.Join(root, "cart/service_test.go")); len(got) != 0 {
			t.Errorf("lenses of a document that is not open: %v, want none", got)
		}
	})
	t.Run("unknown model is marked approximate", func(t *testing.T) {
		e, root := session(t, map[string]any{"model": "my-local-llama"})
		path := filepath.Join(root, "cart/service.go")
		text := readFile(t, path)
		e.open(path, "go", text)
		if diff := cmp.Diff(wantLenses(text, 12000, heuristicCount, "≈"), e.lenses(path)); diff != "" {
			t.Errorf("lenses (-want +got):\n%s", diff)
		}
	})
	t.Run("recomputed after didChange", func(t *testing.T) {
		e, root := session(t, nil)
		path := filepath.Join(root, "cart/model.go")
		text := readFile(t, path)
		e.open(path, "go", text)
		_ = e.lenses(path)

		// An incremental insertion at the end of the document.
		nLines := strings.Count(text, "\n")
		added := "\n// Extra is new: 😀 price.\nfunc Extra() int { return 42 }\n"
		text += added
		e.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(path), "version": 2},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": nLines, "character": 0}, "end": map[string]any{"line": nLines, "character": 0}},
				"text":  added,
			}},
		})
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), e.lenses(path)); diff != "" {
			t.Errorf("after an insertion (-want +got):\n%s", diff)
		}

		// An edit after a character outside the BMP: positions are UTF-16.
		line := nLines + 1 // "// Extra is new: 😀 price."
		col := len([]rune("// Extra is new: ")) + 2 + 1
		text = strings.Replace(text, "😀 price.", "😀 total price of everything in the cart.", 1)
		e.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": fileURI(path), "version": 3},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": map[string]any{"line": line, "character": col}, "end": map[string]any{"line": line, "character": col + len("price.")}},
				"text":  "total price of everything in the cart.",
			}},
		})
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), e.lenses(path)); diff != "" {
			t.Errorf("after an edit behind an emoji (-want +got):\n%s", diff)
		}

		// A full-text change (no range) replaces the document.
		text = "package cart\n\n// Only is all that is left.\nfunc Only() {}\n"
		e.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": fileURI(path), "version": 4},
			"contentChanges": []any{map[string]any{"text": text}},
		})
		if diff := cmp.Diff(wantLenses(text, 12000, exact, ""), e.lenses(path)); diff != "" {
			t.Errorf("after a full change (-want +got):\n%s", diff)
		}
	})
}

// ---------------------------------------------------------------------------
// acode/budget and acode/budgetStatus.

// budgetFields are the fields of acode/budget, exactly (DESIGN.md).
var budgetFields = []string{"available", "encoding", "exact", "level", "model", "openFiles", "percent", "total", "used"}

// budgetStatus is the payload of acode/budget.
type budgetStatus struct {
	Model     string  `json:"model"`
	Encoding  string  `json:"encoding"`
	Exact     bool    `json:"exact"`
	Total     int     `json:"total"`
	Available int     `json:"available"`
	Used      int     `json:"used"`
	Percent   float64 `json:"percent"`
	Level     string  `json:"level"`
	OpenFiles int     `json:"openFiles"`
}

// decodeBudget checks the exact field set and decodes the payload.
func decodeBudget(t *testing.T, raw json.RawMessage) budgetStatus {
	t.Helper()
	if diff := cmp.Diff(budgetFields, keys(t, raw)); diff != "" {
		t.Errorf("acode/budget fields (-want +got):\n%s", diff)
	}
	var b budgetStatus
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("acode/budget %s: %v", raw, err)
	}
	return b
}

// levelOf is the level of DESIGN.md: normal below 80 %, warning from 80 to
// 90 %, critical above 90 %, computed without rounding.
func levelOf(used, available int) string {
	switch {
	case used*100 < 80*available:
		return "normal"
	case used*100 <= 90*available:
		return "warning"
	}
	return "critical"
}

func TestE2EBudgetNotification(t *testing.T) {
	e, root := session(t, nil)
	svc, model := filepath.Join(root, "cart/service.go"), filepath.Join(root, "cart/model.go")
	svcText, modelText := readFile(t, svc), readFile(t, model)
	nSvc, nModel := count(t, "o200k_base", svcText), count(t, "o200k_base", modelText)
	status := func(used, open int) budgetStatus {
		return budgetStatus{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, Total: 16000, Available: 12000,
			Used: used, Percent: round1(used, 12000), Level: levelOf(used, 12000), OpenFiles: open}
	}
	// waitBudget waits for the notification that reports want.
	waitBudget := func(from int, want budgetStatus) {
		t.Helper()
		raw := e.waitNote(from, "acode/budget", func(p json.RawMessage) bool {
			var b budgetStatus
			return json.Unmarshal(p, &b) == nil && b.OpenFiles == want.OpenFiles && b.Used == want.Used
		})
		if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
			t.Errorf("acode/budget (-want +got):\n%s", diff)
		}
		var got json.RawMessage
		e.result("acode/budgetStatus", nil, &got)
		if diff := cmp.Diff(want, decodeBudget(t, got)); diff != "" {
			t.Errorf("acode/budgetStatus (-want +got):\n%s", diff)
		}
	}

	from := e.mark()
	e.open(svc, "go", svcText)
	waitBudget(from, status(nSvc, 1))

	from = e.mark()
	e.open(model, "go", modelText)
	waitBudget(from, status(nSvc+nModel, 2))

	from = e.mark()
	changed := modelText + "\n// Later is added later.\nfunc Later() {}\n"
	e.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": fileURI(model), "version": 2},
		"contentChanges": []any{map[string]any{"text": changed}},
	})
	waitBudget(from, status(nSvc+count(t, "o200k_base", changed), 2))

	from = e.mark()
	e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(svc)}})
	waitBudget(from, status(count(t, "o200k_base", changed), 1))

	// A configuration change is announced too.
	from = e.mark()
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{
		"model": "gpt-4", "budget": map[string]any{"totalTokens": 50000}}}})
	raw := e.waitNote(from, "acode/budget", func(p json.RawMessage) bool {
		var b budgetStatus
		return json.Unmarshal(p, &b) == nil && b.Total == 50000
	})
	n := count(t, "cl100k_base", changed)
	want := budgetStatus{Model: "gpt-4", Encoding: "cl100k_base", Exact: true, Total: 50000, Available: 46000,
		Used: n, Percent: round1(n, 46000), Level: "normal", OpenFiles: 1}
	if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
		t.Errorf("acode/budget after a configuration change (-want +got):\n%s", diff)
	}
}

func TestE2EBudgetLevels(t *testing.T) {
	e, root := session(t, nil)
	// A document whose count is a multiple of 36, so that 80 % and 90 % of
	// some budget are whole numbers of tokens.
	var text string
	n := 0
	for k := 72; ; k++ {
		if k > 2000 {
			t.Fatal("no text with a count that is a multiple of 36")
		}
		text = strings.Repeat("checkout cart ", k/2) + strings.Repeat("empty ", k%2) + "\n"
		if n = count(t, "o200k_base", text); n%36 == 0 {
			break
		}
	}
	path := filepath.Join(root, "notes.txt")
	writeFile(t, path, text)
	e.open(path, "plaintext", text)

	tests := []struct {
		name      string
		available int
		level     string
	}{
		{"half", 2 * n, "normal"},
		{"just below 80 %", n*100/80 + 1, "normal"},
		{"exactly 80 %", n * 100 / 80, "warning"},
		{"85 %", n * 100 / 85, "warning"},
		{"exactly 90 %", n * 100 / 90, "warning"},
		{"just above 90 %", n*100/90 - 1, "critical"},
		{"full", n, "critical"},
		{"over", n / 2, "critical"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := levelOf(n, tt.available); got != tt.level {
				t.Fatalf("test table: %d of %d is %s, not %s", n, tt.available, got, tt.level)
			}
			e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{
				"budget": map[string]any{"totalTokens": tt.available, "systemReserve": 0, "responseReserve": 0}}}})
			var raw json.RawMessage
			e.result("acode/budgetStatus", nil, &raw)
			want := budgetStatus{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, Total: tt.available, Available: tt.available,
				Used: n, Percent: round1(n, tt.available), Level: tt.level, OpenFiles: 1}
			if diff := cmp.Diff(want, decodeBudget(t, raw)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
