package main_test

// End-to-end conformance tests: the real acode-lsp binary, built once in
// TestMain, is driven as a subprocess exactly as an editor or a shell would
// drive it — the language server over stdio with a small hand-written
// JSON-RPC client, and every subcommand of the command line — and checked
// against docs/design.md to the letter: names of methods, params,
// result fields, error codes, exclusion reasons, flags and outputs.
//
// Token counts are checked against an independent count made here with
// budget/tokenizer and pkoukk/tiktoken-go, never against the server's own
// numbers.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
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
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// binary is the acode-lsp executable built by TestMain (not under -short).
var binary string

// needBinary skips t under -short: the binary is built, and tests start
// it, only in the full suite (go test without -short).
func needBinary(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts the acode-lsp binary; run without -short")
	}
}

func TestMain(m *testing.M) {
	flag.Parse() // for testing.Short
	dir, err := os.MkdirTemp("", "acode-lsp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: temp dir:", err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "acode-lsp")
	// Estimates read the calibration in the user's state directory: keep
	// the binaries started here (and this process) away from the real one.
	_ = os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	// The workspace index (docs/index.md) lives in the user's cache directory.
	_ = os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	if testing.Short() {
		code := m.Run()
		_ = os.RemoveAll(dir)
		os.Exit(code)
	}
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

// count is the independent exact count of text under an encoding: the
// project's tokenizer, cross-checked with pkoukk/tiktoken-go (ordinary
// encoding: special tokens count as text) for texts of a reasonable size.
func count(t *testing.T, encoding, text string) int {
	t.Helper()
	tok, err := tokenizer.ForEncoding(encoding)
	if err != nil {
		t.Fatal(err)
	}
	n := tok.Count(text)
	if len(text) <= 64<<10 {
		if ref := len(reference(t, encoding).EncodeOrdinary(text)); ref != n {
			t.Fatalf("budget/tokenizer counts %d, tiktoken-go %d under %s for %.80q", n, ref, encoding, text)
		}
	}
	return n
}

// The reference tokenizer, with the BPE ranks loaded offline.
var (
	refMu   sync.Mutex
	refEncs = map[string]*tiktoken.Tiktoken{}
)

// reference returns tiktoken-go's encoder for an encoding.
func reference(t *testing.T, encoding string) *tiktoken.Tiktoken {
	t.Helper()
	refMu.Lock()
	defer refMu.Unlock()
	if enc, ok := refEncs[encoding]; ok {
		return enc
	}
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		t.Fatalf("tiktoken-go %s: %v", encoding, err)
	}
	refEncs[encoding] = enc
	return enc
}

// heuristicCount is docs/design.md#rule-1's upper-bound estimate for unknown
// models: ceil(1.55 × the o200k_base count) (docs/tokenizer.md).
func heuristicCount(text string) int {
	return estimateCount(1.55, text)
}

// estimateCount is ceil(factor × the o200k_base count of text).
func estimateCount(factor float64, text string) int {
	o, err := tokenizer.ForEncoding("o200k_base")
	if err != nil {
		panic(err)
	}
	return int(math.Ceil(factor*float64(o.Count(text)) - 1e-9))
}

// estimateEncoding is what results of the estimate for the unknown model
// my-local-llama name as their encoding (the model and its factor).
const estimateEncoding = "estimate:my-local-llama×1.55"

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
	needBinary(t)
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

// editor is a language-server session with the binary, seen from one test
// (see in).
type editor struct {
	t *testing.T
	*proc
}

// in returns the editor for a subtest: failures are reported on t.
func (e *editor) in(t *testing.T) *editor { return &editor{t: t, proc: e.proc} }

// proc is the state of the session shared by the tests that use it.
type proc struct {
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
	needBinary(t)
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	e := &editor{t: t, proc: &proc{cmd: cmd, responses: map[string][]*message{}, exited: make(chan struct{})}}
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
	return e.initializeCaps(root, map[string]any{}, initOptions)
}

// initializeCaps is initialize with client capabilities.
func (e *editor) initializeCaps(root string, caps, initOptions any) map[string]any {
	e.t.Helper()
	params := map[string]any{
		"processId":    os.Getpid(),
		"rootUri":      fileURI(root),
		"capabilities": caps,
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
	t.Run("serve subcommand", func(t *testing.T) {
		root := sample(t)
		e := startServer(t, root, "serve")
		e.initialize(root, nil)
		if code := e.shutdown(); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
	t.Run("end of input without shutdown ends with 1", func(t *testing.T) {
		e, _ := session(t, nil)
		_ = e.stdin.Close()
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
		out[i] = lens{Line: r.Range.Start.Line, Title: costPart(r.Command.Title)}
	}
	return out
}

// costPart is a lens title without its what-if part (" · ✓ in context",
// " · +N to fit", " · not packed: …"), which is computed in the background
// and so present or not depending on timing; lsp/whatif_test.go tests it.
func costPart(title string) string {
	for _, sep := range []string{" · ✓ in context", " · +", " · not packed: "} {
		if i := strings.Index(title, sep); i >= 0 {
			return title[:i]
		}
	}
	return title
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

// wantLenses is what docs/design.md asks for a Go document: the document's cost
// on line 0, then one lens per top-level declaration, counted by countFn.
// A declaration's chunk runs to the next declaration (the blank lines
// between them are whole lines of the chunk before).
func wantLenses(text string, available int, countFn func(string) int, approx string) []lens {
	n := countFn(text)
	want := []lens{{0, fmt.Sprintf("%s%s tokens · %.1f%% of budget", approx, commas(n), round1(n, available))}}
	decls := goDecls(text)
	last := strings.Count(strings.TrimSuffix(text, "\n"), "\n")
	for i, d := range decls {
		end := last
		if i+1 < len(decls) {
			end = decls[i+1][0] - 1
		}
		want = append(want, lens{d[0], fmt.Sprintf("%s%s tokens", approx, commas(countFn(linesOf(text, d[0], end))))})
	}
	return want
}

// commas writes n with thousands separated by commas (docs/design.md: code lenses).
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
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
		if err := e.callError("textDocument/codeLens", map[string]any{}); err.Code != -32602 || !strings.Contains(err.Message, "textDocument") {
			t.Errorf("codeLens without a document: %d %q, want -32602 naming textDocument.uri", err.Code, err.Message)
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

// budgetFields are the fields of acode/budget, exactly (docs/design.md).
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

// levelOf is the level of docs/design.md: normal below 80 %, warning from 80 to
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
			e := e.in(t)
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

// ---------------------------------------------------------------------------
// acode/packContext.

// packItem is an entry of included or excluded.
type packItem struct {
	Type      string  `json:"type"`
	Path      string  `json:"path"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Tokens    int     `json:"tokens"`
	Score     float64 `json:"score"`
	Reason    string  `json:"reason"`
}

// packResult is the result object of acode/packContext (and of pack --json).
type packResult struct {
	Content    string `json:"content"`
	TokenCount int    `json:"tokenCount"`
	Model      string `json:"model"`
	Encoding   string `json:"encoding"`
	Exact      bool   `json:"exact"`
	Budget     struct {
		Total           int `json:"total"`
		SystemReserve   int `json:"systemReserve"`
		ResponseReserve int `json:"responseReserve"`
		Available       int `json:"available"`
		Categories      map[string]struct {
			Allocated int `json:"allocated"`
			Used      int `json:"used"`
		} `json:"categories"`
	} `json:"budget"`
	Included []packItem `json:"included"`
	Excluded []packItem `json:"excluded"`
	Dedup    struct {
		ExactRemoved   int `json:"exactRemoved"`
		OverlapsMerged int `json:"overlapsMerged"`
		TokensSaved    int `json:"tokensSaved"`
	} `json:"dedup"`
	Warnings []string `json:"warnings"`
}

// find returns the items of the given type and path.
func find(items []packItem, typ, path string) []packItem {
	var out []packItem
	for _, it := range items {
		if it.Type == typ && it.Path == path {
			out = append(out, it)
		}
	}
	return out
}

// categories, source types and exclusion reasons of docs/design.md.
var (
	categoryNames = []string{"open_files", "references", "search_results", "tool_results"}
	sourceTypes   = map[string]bool{"tool_result": true, "open_file": true, "search_result": true, "reference": true}
	reasons       = map[string]bool{"over_budget": true, "duplicate": true, "merged": true, "binary": true, "secret": true,
		"ignored": true, "outside_workspace": true, "too_large": true, "unreadable": true, "invalid_utf8": true, "empty": true}
)

// checkPackResult checks the shape of a packContext result object against
// docs/design.md and its hard limit (rule 3), and decodes it. files maps the
// workspace-relative paths of the packed files to their text (the editor's
// text for open documents), for the format check.
func checkPackResult(t *testing.T, raw json.RawMessage, files map[string]string) packResult {
	t.Helper()
	top := object(t, raw)
	for _, k := range []string{"content", "tokenCount", "model", "encoding", "exact", "budget", "included", "excluded", "dedup", "warnings"} {
		if _, ok := top[k]; !ok {
			t.Errorf("result has no %q", k)
		}
	}
	for _, k := range []string{"included", "excluded", "warnings"} {
		if !isList(top[k]) {
			t.Errorf("result.%s = %s, want a list", k, top[k])
		}
	}
	b := object(t, top["budget"])
	if diff := cmp.Diff([]string{"available", "categories", "responseReserve", "systemReserve", "total"}, keys(t, top["budget"])); diff != "" {
		t.Errorf("budget fields (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(categoryNames, keys(t, b["categories"])); diff != "" {
		t.Errorf("budget.categories (-want +got):\n%s", diff)
	}
	for name, c := range object(t, b["categories"]) {
		if diff := cmp.Diff([]string{"allocated", "used"}, keys(t, c)); diff != "" {
			t.Errorf("budget.categories.%s fields (-want +got):\n%s", name, diff)
		}
	}
	if diff := cmp.Diff([]string{"exactRemoved", "overlapsMerged", "tokensSaved"}, keys(t, top["dedup"])); diff != "" {
		t.Errorf("dedup fields (-want +got):\n%s", diff)
	}
	for _, list := range []string{"included", "excluded"} {
		var items []json.RawMessage
		_ = json.Unmarshal(top[list], &items)
		for i, it := range items {
			fields := object(t, it)
			want := []string{"type", "path", "startLine", "endLine", "tokens", "score"}
			if list == "excluded" {
				want = append(want, "reason")
			}
			for _, k := range want {
				if _, ok := fields[k]; !ok {
					t.Errorf("%s[%d] has no %q: %s", list, i, k, it)
				}
			}
		}
	}

	var res packResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatalf("result: %v", err)
	}
	if got, want := res.Budget.Available, res.Budget.Total-res.Budget.SystemReserve-res.Budget.ResponseReserve; got != want {
		t.Errorf("budget.available = %d, want total − reserves = %d", got, want)
	}
	var n int
	if res.Exact {
		n = count(t, res.Encoding, res.Content)
	} else {
		n = heuristicCount(res.Content)
	}
	if res.TokenCount != n {
		t.Errorf("tokenCount = %d, but content counts %d under %s", res.TokenCount, n, res.Encoding)
	}
	if res.TokenCount > res.Budget.Available {
		t.Errorf("tokenCount %d exceeds available %d", res.TokenCount, res.Budget.Available)
	}
	for i, it := range res.Included {
		if !sourceTypes[it.Type] {
			t.Errorf("included[%d].type = %q", i, it.Type)
		}
		if it.StartLine < 1 || it.EndLine < it.StartLine {
			t.Errorf("included[%d] lines %d-%d: want 1-based, start ≤ end", i, it.StartLine, it.EndLine)
		}
		if it.Score < 0 || it.Score > 1 {
			t.Errorf("included[%d].score = %v, want within [0,1]", i, it.Score)
		}
		if filepath.IsAbs(it.Path) {
			t.Errorf("included[%d].path = %q, want it relative to the workspace root", i, it.Path)
		}
	}
	for i, it := range res.Excluded {
		if !sourceTypes[it.Type] {
			t.Errorf("excluded[%d].type = %q", i, it.Type)
		}
		if !reasons[it.Reason] {
			t.Errorf("excluded[%d].reason = %q is not a docs/design.md reason", i, it.Reason)
		}
	}
	checkFormat(t, res, files)
	return res
}

// section is one "## File:" section of a packed context.
type section struct {
	path   string
	ranges [][2]int
	body   []string
}

// parseSections returns the file sections of content (docs/design.md#rule-8).
func parseSections(t *testing.T, content string) []section {
	t.Helper()
	var out []section
	lines := strings.Split(content, "\n")
	for i := 0; i < len(lines); i++ {
		rest, ok := strings.CutPrefix(lines[i], "## File: ")
		if !ok {
			continue
		}
		open := strings.LastIndex(rest, " (lines ")
		if open < 0 || !strings.HasSuffix(rest, ")") {
			t.Errorf("file header %q: want \"## File: <path> (lines a-b, c-d)\"", lines[i])
			continue
		}
		sec := section{path: rest[:open]}
		for _, r := range strings.Split(strings.TrimSuffix(rest[open+len(" (lines "):], ")"), ", ") {
			a, b, _ := strings.Cut(r, "-")
			start, err1 := strconv.Atoi(a)
			end, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil {
				t.Errorf("file header %q: bad line range %q", lines[i], r)
				continue
			}
			sec.ranges = append(sec.ranges, [2]int{start, end})
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Errorf("file header %q is not followed by a fence", lines[i])
			continue
		}
		fence := strings.TrimRight(lines[i+1], "abcdefghijklmnopqrstuvwxyz0123456789+-#_")
		j := i + 2
		for ; j < len(lines) && lines[j] != fence; j++ {
			sec.body = append(sec.body, lines[j])
		}
		if j == len(lines) {
			t.Errorf("the fence of %s is never closed", sec.path)
		}
		out = append(out, sec)
		i = j
	}
	return out
}

// checkFormat checks the file sections of a result: one header per file,
// line ranges in order and disjoint (no source line twice), the body equal
// to the source lines with one gap marker between ranges, and every
// included chunk of a file inside its header's ranges.
func checkFormat(t *testing.T, res packResult, files map[string]string) {
	t.Helper()
	seen := map[string]bool{}
	for _, sec := range parseSections(t, res.Content) {
		if seen[sec.path] {
			t.Errorf("%s has two headers: chunks of one file must be grouped under one", sec.path)
		}
		seen[sec.path] = true
		for i, r := range sec.ranges {
			if r[0] < 1 || r[1] < r[0] || (i > 0 && r[0] <= sec.ranges[i-1][1]) {
				t.Errorf("%s ranges %v: want 1-based, in order, disjoint", sec.path, sec.ranges)
			}
		}
		text, ok := files[sec.path]
		if !ok {
			continue
		}
		src := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		var want []string
		for i, r := range sec.ranges {
			if i > 0 {
				want = append(want, fmt.Sprintf("lines %d-%d omitted", sec.ranges[i-1][1]+1, r[0]-1))
			}
			if r[1] > len(src) {
				t.Errorf("%s range %v is past the end (%d lines)", sec.path, r, len(src))
				continue
			}
			want = append(want, src[r[0]-1:r[1]]...)
		}
		if len(want) != len(sec.body) {
			t.Errorf("%s: body has %d lines, the ranges %v and their gaps %d", sec.path, len(sec.body), sec.ranges, len(want))
			continue
		}
		for i := range want {
			got := sec.body[i]
			switch {
			case strings.HasPrefix(want[i], "lines ") && strings.HasSuffix(want[i], " omitted") && i > 0 && i < len(want)-1:
				if !strings.Contains(got, "… "+want[i]+" …") {
					t.Errorf("%s: line %d of the body is %q, want the gap marker \"… %s …\"", sec.path, i+1, got, want[i])
				}
			case got != want[i] && !strings.Contains(got, "[REDACTED]"):
				t.Errorf("%s: body line %d = %q, want the source line %q", sec.path, i+1, got, want[i])
			}
		}
	}
	for i, it := range res.Included {
		if it.Path == "" || it.Type == "tool_result" {
			continue
		}
		if !seen[it.Path] {
			t.Errorf("included[%d] %s %d-%d has no section in the content", i, it.Path, it.StartLine, it.EndLine)
		}
	}
}

// workspaceFiles returns the text of every regular file of root by
// relative path, with the editor's text for the open ones.
func workspaceFiles(t *testing.T, root string, open map[string]string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range open {
		files[k] = v
	}
	return files
}

// pack calls acode/packContext and checks its result.
func (e *editor) pack(params any, files map[string]string) packResult {
	e.t.Helper()
	var raw json.RawMessage
	e.result("acode/packContext", params, &raw)
	return checkPackResult(e.t, raw, files)
}

// lspRange is an LSP range from line a to line b, at character 0.
func lspRange(a, b int) map[string]any {
	return map[string]any{"start": map[string]any{"line": a, "character": 0}, "end": map[string]any{"line": b, "character": 0}}
}

// secrets of the sample workspace that must never appear in a context.
var secrets = []string{"sk_live_51HxY7fLk9QwErTyUiOpAsDfGhJkLzXcVbNm", "hunter2", "sk-proj-Xq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt"}

func TestE2EPackContextEveryParam(t *testing.T) {
	e, root := session(t, nil)
	checkout := filepath.Join(root, "web/src/checkout.ts")
	edited := readFile(t, checkout) + "\n// inMemoryMarker: only in the editor\n"
	e.open(checkout, "typescript", edited)
	files := workspaceFiles(t, root, map[string]string{"web/src/checkout.ts": edited})

	tool := "--- FAIL: TestCheckoutEmptyCart (0.00s)\n    service_test.go:34: err = <nil>, want ErrEmptyCart\n"
	res := e.pack(map[string]any{
		"query": "why does checkout fail for empty carts",
		"model": "gpt-4",
		"budget": map[string]any{"totalTokens": 20000, "systemReserve": 1500, "responseReserve": 2500,
			"categories": map[string]any{"tool_results": 25, "open_files": 25, "search_results": 25, "references": 25}},
		"includeOpenFiles": true,
		"search":           map[string]any{"pattern": "ErrEmptyCart", "maxResults": 50},
		"sources": []any{
			map[string]any{"type": "tool_result", "label": "go test ./cart", "content": tool},
			map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, "cart/service.go")), "range": lspRange(9, 40),
				"relevance": 0.9, "timestamp": "2026-11-22T10:00:00Z"},
			map[string]any{"type": "reference", "uri": "file:///etc/hosts"},
			map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, ".env"))},
			map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "tools/report.py"))},
			map[string]any{"type": "search_result", "label": "grep", "content": "searchMarker appears here\n"},
		},
	}, files)

	if res.Model != "gpt-4" || res.Encoding != "cl100k_base" || !res.Exact {
		t.Errorf("model/encoding/exact = %s/%s/%v, want gpt-4/cl100k_base/true", res.Model, res.Encoding, res.Exact)
	}
	if b := res.Budget; b.Total != 20000 || b.SystemReserve != 1500 || b.ResponseReserve != 2500 || b.Available != 16000 {
		t.Errorf("budget = %+v, want the overrides 20000/1500/2500 → 16000", b)
	}
	for _, c := range categoryNames {
		if got := res.Budget.Categories[c].Allocated; got != 4000 {
			t.Errorf("budget.categories.%s.allocated = %d, want 25 %% of 16000", c, got)
		}
	}
	// The reference's LSP range 9:0–40:0 is lines 10–41 (docs/design.md's example).
	refs := append(find(res.Included, "reference", "cart/service.go"), find(res.Excluded, "reference", "cart/service.go")...)
	if len(refs) != 1 || refs[0].StartLine != 10 || refs[0].EndLine != 41 {
		t.Errorf("reference to cart/service.go = %+v, want one item with lines 10-41", refs)
	}
	wantExcluded := []struct{ path, reason string }{{"/etc/hosts", "outside_workspace"}, {".env", "secret"}}
	for _, w := range wantExcluded {
		found := false
		for _, it := range res.Excluded {
			found = found || (it.Type == "reference" && strings.HasSuffix(it.Path, strings.TrimPrefix(w.path, "/")) && it.Reason == w.reason)
		}
		if !found {
			t.Errorf("no excluded reference %s with reason %s in %+v", w.path, w.reason, res.Excluded)
		}
	}
	if len(find(res.Included, "open_file", "tools/report.py")) == 0 {
		t.Errorf("the open_file source by uri tools/report.py is not included: %+v", res.Included)
	}
	if len(find(res.Included, "open_file", "web/src/checkout.ts")) == 0 {
		t.Errorf("the open document web/src/checkout.ts is not included: %+v", res.Included)
	}
	searched := 0
	for _, it := range res.Included {
		if it.Type == "search_result" && it.Path != "" {
			searched++
		}
	}
	if searched == 0 {
		t.Errorf("the search for ErrEmptyCart included nothing: %+v", res.Included)
	}
	for _, want := range []string{"## Tool: go test ./cart", tool, "inMemoryMarker", "searchMarker appears here"} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("content lacks %q", want)
		}
	}
	for _, s := range secrets {
		if strings.Contains(res.Content, s) {
			t.Errorf("content leaks the secret %q", s)
		}
	}
}

func TestE2EPackContextSources(t *testing.T) {
	e, root := session(t, nil)
	svc := filepath.Join(root, "cart/service.go")
	edited := strings.Replace(readFile(t, svc), "// Inventory reserves stock for an order.", "// Inventory reserves stock for an order (editedMarker).", 1)
	e.open(svc, "go", edited)
	files := workspaceFiles(t, root, map[string]string{"cart/service.go": edited})

	t.Run("includeOpenFiles", func(t *testing.T) {
		e := e.in(t)
		tool := map[string]any{"type": "tool_result", "label": "t", "content": "toolMarker\n"}
		with := e.pack(map[string]any{"includeOpenFiles": true, "sources": []any{tool}}, files)
		if !strings.Contains(with.Content, "editedMarker") || len(find(with.Included, "open_file", "cart/service.go")) == 0 {
			t.Errorf("includeOpenFiles true: the open document is not packed: %+v", with.Included)
		}
		without := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{tool}}, files)
		if strings.Contains(without.Content, "editedMarker") || len(find(without.Included, "open_file", "cart/service.go")) != 0 {
			t.Errorf("includeOpenFiles false: the open document is packed: %+v", without.Included)
		}
	})
	t.Run("a uri source reads the open document", func(t *testing.T) {
		e := e.in(t)
		res := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{
			map[string]any{"type": "reference", "uri": fileURI(svc), "range": lspRange(14, 19)},
		}}, files)
		if !strings.Contains(res.Content, "editedMarker") {
			t.Errorf("the reference was not read from the editor's text:\n%s", res.Content)
		}
		if refs := find(res.Included, "reference", "cart/service.go"); len(refs) != 1 || refs[0].StartLine != 15 || refs[0].EndLine != 20 {
			t.Errorf("reference range 14:0–19:0 included as %+v, want lines 15-20", refs)
		}
	})
	t.Run("every source type by content", func(t *testing.T) {
		e := e.in(t)
		var srcs []any
		for typ := range sourceTypes {
			srcs = append(srcs, map[string]any{"type": typ, "label": typ + "-label", "content": typ + "Marker body\n"})
		}
		res := e.pack(map[string]any{"includeOpenFiles": false, "sources": srcs}, files)
		for typ := range sourceTypes {
			if !strings.Contains(res.Content, typ+"Marker body") {
				t.Errorf("content lacks the %s source", typ)
			}
			n := 0
			for _, it := range res.Included {
				if it.Type == typ {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d included items of type %s, want 1: %+v", n, typ, res.Included)
			}
		}
		if !strings.Contains(res.Content, "## Tool: tool_result-label\n") {
			t.Errorf("the tool result has no \"## Tool: <label>\" header:\n%s", res.Content)
		}
	})
	t.Run("filters of docs/design.md#rule-9", func(t *testing.T) {
		e := e.in(t)
		writeFile(t, filepath.Join(root, "keys/server.pem"), "-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\n")
		writeFile(t, filepath.Join(root, "bad.txt"), "ok\xff\xfe\n")
		writeFile(t, filepath.Join(root, "big.txt"), strings.Repeat("a line of a large file\n", 60000))
		outside := filepath.Join(t.TempDir(), "outside.go")
		writeFile(t, outside, "package outside\n")
		if err := os.Symlink(outside, filepath.Join(root, "link.go")); err != nil {
			t.Fatal(err)
		}
		tests := []struct{ rel, path, reason string }{
			{".env", ".env", "secret"},
			{"keys/server.pem", "keys/server.pem", "secret"},
			{"assets/logo.png", "assets/logo.png", "binary"},
			{"debug.log", "debug.log", "ignored"},
			{"cart/mocks.generated.go", "cart/mocks.generated.go", "ignored"},
			{"bad.txt", "bad.txt", "invalid_utf8"},
			{"link.go", "link.go", "outside_workspace"},
			{"missing.go", "missing.go", "unreadable"},
			{"big.txt", "big.txt", "too_large"},
		}
		for _, tt := range tests {
			t.Run(tt.rel, func(t *testing.T) {
				e := e.in(t)
				res := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{
					map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"},
					map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, tt.rel))},
				}}, files)
				got := find(res.Excluded, "reference", tt.path)
				if tt.reason == "outside_workspace" {
					// A path outside the roots may be reported absolute.
					got = append(got, find(res.Excluded, "reference", filepath.Join(root, tt.rel))...)
				}
				if len(got) != 1 || got[0].Reason != tt.reason {
					t.Errorf("excluded %s = %+v, want one with reason %s (all: %+v)", tt.rel, got, tt.reason, res.Excluded)
				}
			})
		}
	})
	t.Run("search maxResults", func(t *testing.T) {
		e := e.in(t)
		pathsOf := func(max int) map[string]bool {
			res := e.pack(map[string]any{"includeOpenFiles": false, "search": map[string]any{"pattern": "CheckoutService", "maxResults": max}}, files)
			paths := map[string]bool{}
			for _, list := range [][]packItem{res.Included, res.Excluded} {
				for _, it := range list {
					if it.Type == "search_result" && it.StartLine > 0 {
						paths[it.Path] = true
					}
				}
			}
			return paths
		}
		if got := pathsOf(50); len(got) < 3 {
			t.Errorf("a search for CheckoutService found matches in %v, want cart/service.go, cart/service_test.go and docs/README.md", got)
		}
		if got := pathsOf(1); len(got) != 1 {
			t.Errorf("maxResults 1 gave matches in %d files (%v), want 1", len(got), got)
		}
	})
}

func TestE2EPackContextBudget(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	var srcs []any
	for _, rel := range []string{"cart/service.go", "cart/model.go", "web/src/checkout.ts", "tools/report.py", "docs/README.md"} {
		srcs = append(srcs, map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, rel))})
	}
	srcs = append(srcs, map[string]any{"type": "tool_result", "label": "log", "content": strings.Repeat("checkout failed: empty cart\n", 40)})

	t.Run("never exceeded", func(t *testing.T) {
		e := e.in(t)
		for _, total := range []int{120, 300, 700, 1500, 4000} {
			res := e.pack(map[string]any{"includeOpenFiles": false, "sources": srcs,
				"budget": map[string]any{"totalTokens": total, "systemReserve": 10, "responseReserve": 10}}, files)
			if res.Budget.Available != total-20 {
				t.Errorf("total %d: available %d, want %d", total, res.Budget.Available, total-20)
			}
			if len(res.Included) == 0 {
				t.Errorf("total %d: nothing included though small chunks fit", total)
			}
			for _, it := range append(res.Included, res.Excluded...) {
				if it.Tokens > 600 {
					t.Errorf("total %d: chunk %+v is over the sample's max_chunk_tokens 600 (rule 4)", total, it)
				}
			}
			over := 0
			for _, it := range res.Excluded {
				if it.Reason == "over_budget" {
					over++
				}
			}
			if total < 1500 && over == 0 {
				t.Errorf("total %d: nothing excluded as over_budget", total)
			}
		}
	})
	t.Run("categories override", func(t *testing.T) {
		e := e.in(t)
		res := e.pack(map[string]any{"includeOpenFiles": false, "sources": srcs,
			"budget": map[string]any{"totalTokens": 1100, "systemReserve": 50, "responseReserve": 50,
				"categories": map[string]any{"tool_results": 70, "open_files": 30}}}, files)
		want := map[string]int{"tool_results": 700, "open_files": 300, "search_results": 0, "references": 0}
		for c, n := range want {
			if got := res.Budget.Categories[c].Allocated; got != n {
				t.Errorf("budget.categories.%s.allocated = %d, want %d", c, got, n)
			}
		}
	})
	t.Run("unknown model", func(t *testing.T) {
		e := e.in(t)
		res := e.pack(map[string]any{"includeOpenFiles": false, "sources": srcs, "model": "my-local-llama"}, files)
		if res.Exact || res.Encoding != estimateEncoding || res.Model != "my-local-llama" {
			t.Errorf("exact/encoding/model = %v/%s/%s, want false/%s/my-local-llama", res.Exact, res.Encoding, res.Model, estimateEncoding)
		}
	})
	t.Run("encoding", func(t *testing.T) {
		e := e.in(t)
		res := e.pack(map[string]any{"includeOpenFiles": false, "sources": srcs, "encoding": "p50k_base"}, files)
		if !res.Exact || res.Encoding != "p50k_base" {
			t.Errorf("exact/encoding = %v/%s, want true/p50k_base", res.Exact, res.Encoding)
		}
	})
}

func TestE2EPackContextErrors(t *testing.T) {
	e, root := session(t, nil)
	tool := map[string]any{"type": "tool_result", "content": "x"}
	t.Run("invalid params name the field", func(t *testing.T) {
		e := e.in(t)
		tests := []struct {
			params any
			field  string
		}{
			{map[string]any{"query": 5}, "query"},
			{map[string]any{"budget": map[string]any{"totalTokens": "many"}}, "budget.totalTokens"},
			{map[string]any{"budget": map[string]any{"systemReserve": -5}, "sources": []any{tool}}, "budget.systemReserve"},
			{map[string]any{"budget": map[string]any{"categories": map[string]any{"tool_results": 50, "open_files": 40}}, "sources": []any{tool}}, "budget.categories"},
			{map[string]any{"includeOpenFiles": "yes"}, "includeOpenFiles"},
			{map[string]any{"search": map[string]any{"pattern": "x", "maxResults": "all"}}, "search.maxResults"},
			{map[string]any{"sources": []any{map[string]any{"type": "gossip", "content": "x"}}}, "sources[0].type"},
			{map[string]any{"sources": []any{tool, map[string]any{"type": "reference", "uri": 5}}}, "sources[1].uri"},
			{map[string]any{"sources": []any{map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, "cart/model.go")), "range": map[string]any{"start": map[string]any{"line": "a"}}}}}, "sources[0].range.start.line"},
			{map[string]any{"sources": []any{map[string]any{"type": "tool_result", "content": "x", "timestamp": "yesterday"}}}, "sources[0].timestamp"},
			{map[string]any{"sources": []any{map[string]any{"type": "tool_result", "content": "x", "relevance": 2}}}, "sources[0].relevance"},
			{map[string]any{"sources": []any{tool}, "encoding": "no_such_base"}, "encoding"},
		}
		for _, tt := range tests {
			t.Run(tt.field, func(t *testing.T) {
				e := e.in(t)
				err := e.callError("acode/packContext", tt.params)
				if err.Code != -32602 || !strings.Contains(err.Message, tt.field+":") {
					t.Errorf("error %d %q, want -32602 naming %s", err.Code, err.Message, tt.field)
				}
			})
		}
	})
	t.Run("domain failures", func(t *testing.T) {
		e := e.in(t)
		tests := []struct {
			name   string
			params any
			code   string
		}{
			{"no content", map[string]any{"includeOpenFiles": false}, "ACODE-CTX-004"},
			{"everything excluded", map[string]any{"includeOpenFiles": false, "sources": []any{
				map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, ".env"))}}}, "ACODE-CTX-004"},
			{"available is zero", map[string]any{"sources": []any{tool},
				"budget": map[string]any{"totalTokens": 1000, "systemReserve": 600, "responseReserve": 400}}, "ACODE-CTX-003"},
			{"available is negative", map[string]any{"sources": []any{tool},
				"budget": map[string]any{"totalTokens": 1000, "systemReserve": 900, "responseReserve": 400}}, "ACODE-CTX-003"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e := e.in(t)
				err := e.callError("acode/packContext", tt.params)
				if err.Code != -32803 || err.dataCode() != tt.code {
					t.Errorf("error %d data %s (%s), want -32803 with data.code %s", err.Code, err.Data, err.Message, tt.code)
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------
// acode/countTokens.

func TestE2ECountTokens(t *testing.T) {
	e, root := session(t, nil)
	model := filepath.Join(root, "cart/model.go")
	modelText := readFile(t, model)
	text := "Hello, world! <|endoftext|> is ordinary text here.\n"
	type result struct {
		Tokens   int    `json:"tokens"`
		Encoding string `json:"encoding"`
		Exact    bool   `json:"exact"`
	}
	tests := []struct {
		name   string
		params map[string]any
		want   result
	}{
		{"text, configured model", map[string]any{"text": text}, result{count(t, "o200k_base", text), "o200k_base", true}},
		{"text, model", map[string]any{"text": text, "model": "gpt-4"}, result{count(t, "cl100k_base", text), "cl100k_base", true}},
		{"text, encoding", map[string]any{"text": text, "encoding": "p50k_base"}, result{count(t, "p50k_base", text), "p50k_base", true}},
		{"text, r50k", map[string]any{"text": text, "encoding": "r50k_base"}, result{count(t, "r50k_base", text), "r50k_base", true}},
		{"text, unknown model", map[string]any{"text": text, "model": "my-local-llama"}, result{heuristicCount(text), estimateEncoding, false}},
		{"empty text", map[string]any{"text": ""}, result{0, "o200k_base", true}},
		{"uri", map[string]any{"uri": fileURI(model)}, result{count(t, "o200k_base", modelText), "o200k_base", true}},
		{"uri, model", map[string]any{"uri": fileURI(model), "model": "gpt-3.5-turbo"}, result{count(t, "cl100k_base", modelText), "cl100k_base", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.in(t)
			var raw json.RawMessage
			e.result("acode/countTokens", tt.params, &raw)
			fields := []string{"encoding", "exact", "tokens"}
			if !tt.want.Exact {
				fields = []string{"encoding", "estimate", "exact", "tokens"} // rule 1's estimate object
			}
			if diff := cmp.Diff(fields, keys(t, raw)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			var got result
			_ = json.Unmarshal(raw, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("uri of an open document counts the editor's text", func(t *testing.T) {
		e := e.in(t)
		edited := modelText + "\n// one more line in the editor\n"
		e.open(model, "go", edited)
		var got result
		e.result("acode/countTokens", map[string]any{"uri": fileURI(model)}, &got)
		if want := count(t, "o200k_base", edited); got.Tokens != want {
			t.Errorf("tokens = %d, want %d (the open document)", got.Tokens, want)
		}
	})
	t.Run("errors", func(t *testing.T) {
		e := e.in(t)
		tests := []struct {
			name   string
			params any
			code   int
			field  string // for -32602
			data   string // for -32803
		}{
			{"neither text nor uri", map[string]any{}, -32602, "text", ""},
			{"text and uri", map[string]any{"text": "a", "uri": fileURI(model)}, -32602, "uri", ""},
			{"text of the wrong type", map[string]any{"text": 5}, -32602, "text", ""},
			{"unknown encoding", map[string]any{"text": "a", "encoding": "no_such_base"}, -32602, "encoding", ""},
			{"secret file", map[string]any{"uri": fileURI(filepath.Join(root, ".env"))}, -32803, "", "ACODE-CTX-002"},
			{"outside the workspace", map[string]any{"uri": "file:///etc/passwd"}, -32803, "", "ACODE-CTX-002"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				e := e.in(t)
				err := e.callError("acode/countTokens", tt.params)
				if err.Code != tt.code {
					t.Errorf("code %d (%s), want %d", err.Code, err.Message, tt.code)
				}
				if tt.field != "" && !strings.Contains(err.Message, tt.field+":") {
					t.Errorf("message %q does not name %s", err.Message, tt.field)
				}
				if tt.data != "" && err.dataCode() != tt.data {
					t.Errorf("data %s, want data.code %s", err.Data, tt.data)
				}
				for _, s := range secrets {
					if strings.Contains(err.Message+string(err.Data), s) {
						t.Errorf("the error leaks %q", s)
					}
				}
			})
		}
	})
}

// ---------------------------------------------------------------------------
// Cancellation.

// bigText returns about size bytes of varied words, different for each seed.
func bigText(seed uint32, size int) string {
	words := []string{"checkout", "cart", "empty", "order", "stock", "charge", "receipt", "payment", "service", "item"}
	var b strings.Builder
	b.Grow(size + 32)
	x := seed*2654435761 + 1
	for b.Len() < size {
		x = x*1664525 + 1013904223
		b.WriteString(words[x>>28%uint32(len(words))])
		b.WriteString(strconv.Itoa(int(x>>8) % 100000))
		if x&7 == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

func TestE2ECancelRequest(t *testing.T) {
	e, _ := session(t, nil)
	// A count of 8 MB takes long enough that it is still in flight when
	// its cancellation, sent right behind it, arrives.
	numeric := e.send(1001, "acode/countTokens", map[string]any{"text": bigText(1, 8<<20)})
	e.notify("$/cancelRequest", map[string]any{"id": 1001})
	str := e.send("req-b", "acode/countTokens", map[string]any{"text": bigText(2, 8<<20)})
	e.notify("$/cancelRequest", map[string]any{"id": "req-b"})
	for _, id := range []string{numeric, str} {
		m := e.await(id)
		if m.Error == nil || m.Error.Code != -32800 {
			t.Errorf("request %s after $/cancelRequest: %+v %.100s, want error -32800", id, m.Error, m.Result)
		}
	}
	// The server keeps serving.
	var got struct {
		Tokens int `json:"tokens"`
	}
	e.result("acode/countTokens", map[string]any{"text": "still here"}, &got)
	if want := count(t, "o200k_base", "still here"); got.Tokens != want {
		t.Errorf("tokens = %d, want %d", got.Tokens, want)
	}
	if code := e.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, id := range []string{numeric, str} {
		if n := len(e.responses[id]); n != 1 {
			t.Errorf("request %s answered %d times, want once", id, n)
		}
	}
}

// ---------------------------------------------------------------------------
// Conversation budgets.

// sectionPercents are docs/design.md's default section shares, in percent.
var sectionPercents = map[string]int{"systemPrompt": 15, "goal": 5, "memory": 10, "workingState": 5,
	"conversationSummary": 15, "retrievedContext": 10, "recentMessages": 35, "scaffoldingReminder": 5}

func TestE2ESectionBudget(t *testing.T) {
	e, _ := session(t, nil)
	type result map[string]json.RawMessage
	get := func(params any) result {
		t.Helper()
		var r result
		e.result("acode/sectionBudget", params, &r)
		return r
	}
	intOf := func(raw json.RawMessage) int {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil {
			t.Errorf("%s is not an integer", raw)
		}
		return n
	}
	for _, limit := range []int{128000, 200000, 8192} {
		t.Run(fmt.Sprintf("contextLimit %d", limit), func(t *testing.T) {
			r := get(map[string]any{"contextLimit": limit, "safety": 0.8})
			total := limit * 8 / 10
			got, want := map[string]int{}, map[string]int{}
			for name, pct := range sectionPercents {
				want[name] = total * pct / 100
				got[name] = intOf(r[name])
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sections of floor(%d·0.8) (-want +got):\n%s", limit, diff)
			}
		})
	}
	t.Run("used, available and level", func(t *testing.T) {
		total := 102400
		tests := []struct {
			used  int
			level string
		}{
			{600, "normal"}, {total*8/10 - 1, "normal"}, {total * 8 / 10, "warning"}, {total * 9 / 10, "warning"},
			{total*9/10 + 1, "critical"},
		}
		for _, tt := range tests {
			memory := 500
			r := get(map[string]any{"contextLimit": 128000, "safety": 0.8,
				"used": map[string]any{"memory": memory, "recentMessages": tt.used - memory}})
			var level string
			_ = json.Unmarshal(r["level"], &level)
			if level != tt.level {
				t.Errorf("used %d of %d: level %q, want %q", tt.used, total, level, tt.level)
			}
			var avail map[string]int
			if err := json.Unmarshal(r["available"], &avail); err != nil {
				t.Fatalf("available = %s: %v", r["available"], err)
			}
			if want := total*10/100 - memory; avail["memory"] != want {
				t.Errorf("available.memory = %d, want %d", avail["memory"], want)
			}
		}
	})
	t.Run("ratios over 1 are invalid", func(t *testing.T) {
		e := e.in(t)
		err := e.callError("acode/sectionBudget", map[string]any{"contextLimit": 128000, "ratios": map[string]any{"memory": 0.5, "recentMessages": 0.6}})
		if err.Code != -32602 || !strings.Contains(err.Message, "ratios") {
			t.Errorf("error %d %q, want -32602 naming ratios", err.Code, err.Message)
		}
	})
}

// chatMessage is a message of acode/trimConversation.
type chatMessage map[string]any

// messageCost is docs/design.md's cost of a message: content tokens + 4, +10
// and the name and arguments of each tool call, 1,000 per image.
func messageCost(t *testing.T, m chatMessage) int {
	n := 4
	switch c := m["content"].(type) {
	case string:
		n += count(t, "o200k_base", c)
	case []any:
		for _, p := range c {
			part := p.(map[string]any)
			if part["type"] == "image" || part["type"] == "image_url" {
				n += 1000
			} else if s, ok := part["text"].(string); ok {
				n += count(t, "o200k_base", s)
			}
		}
	}
	calls, _ := m["tool_calls"].([]any)
	for _, c := range calls {
		fn := c.(map[string]any)["function"].(map[string]any)
		n += 10 + count(t, "o200k_base", fn["name"].(string)) + count(t, "o200k_base", fn["arguments"].(string))
	}
	return n
}

// listCost is the cost of a message list: its messages + 3.
func listCost(t *testing.T, msgs []chatMessage) int {
	n := 3
	for _, m := range msgs {
		n += messageCost(t, m)
	}
	return n
}

func TestE2ETrimConversation(t *testing.T) {
	e, _ := session(t, nil)
	type trimResult struct {
		Messages       []chatMessage `json:"messages"`
		Truncated      bool          `json:"truncated"`
		DroppedCount   int           `json:"droppedCount"`
		OriginalTokens int           `json:"originalTokens"`
		FinalTokens    int           `json:"finalTokens"`
	}
	toolOutput := strings.Repeat("cart/service.go\ncart/model.go\nweb/src/checkout.ts\n", 40)
	conversation := []chatMessage{
		{"role": "system", "content": "You are terse."},
		{"role": "user", "content": "list the files"},
		{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
			"function": map[string]any{"name": "project_files", "arguments": `{"dir":"."}`}}}},
		{"role": "tool", "tool_call_id": "c1", "content": toolOutput},
		{"role": "assistant", "content": "There are 120 files."},
		{"role": "user", "content": []any{map[string]any{"type": "text", "text": "what is in this screenshot?"}, map[string]any{"type": "image"}}},
	}
	// Seven more steps (assistant turns with tool calls), with small outputs.
	for i := 0; i < 7; i++ {
		id := fmt.Sprintf("r%d", i)
		conversation = append(conversation,
			chatMessage{"role": "assistant", "content": fmt.Sprintf("step %d", i), "tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"cart/f%d.go"}`, i)}}}},
			chatMessage{"role": "tool", "tool_call_id": id, "content": fmt.Sprintf("package cart // f%d", i)})
	}
	conversation = append(conversation, chatMessage{"role": "assistant", "content": "Done."}, chatMessage{"role": "user", "content": "thanks"})
	original := listCost(t, conversation)

	t.Run("fits", func(t *testing.T) {
		e := e.in(t)
		var r trimResult
		e.result("acode/trimConversation", map[string]any{"messages": conversation, "model": "gpt-4o",
			"maxContextTokens": original + 100, "reservedOutputTokens": 100}, &r)
		wantMsgs, _ := json.Marshal(conversation)
		gotMsgs, _ := json.Marshal(r.Messages)
		if diff := cmp.Diff(string(wantMsgs), string(gotMsgs)); diff != "" {
			t.Errorf("messages changed though they fit (-want +got):\n%s", diff)
		}
		r.Messages = nil
		want := trimResult{OriginalTokens: original, FinalTokens: original}
		if diff := cmp.Diff(want, r); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("old tool output becomes a placeholder", func(t *testing.T) {
		e := e.in(t)
		var r trimResult
		e.result("acode/trimConversation", map[string]any{"messages": conversation, "model": "gpt-4o",
			"maxContextTokens": original - 200, "reservedOutputTokens": 0, "maxAge": 5, "preserveRecentTurns": 4}, &r)
		if !r.Truncated || r.OriginalTokens != original {
			t.Errorf("truncated %v, originalTokens %d; want true, %d", r.Truncated, r.OriginalTokens, original)
		}
		if got := listCost(t, r.Messages); r.FinalTokens != got || got > original-200 {
			t.Errorf("finalTokens %d, the returned messages cost %d, the limit is %d", r.FinalTokens, got, original-200)
		}
		// Pass 1 is enough: only the output older than maxAge steps goes,
		// the small ones stay.
		want := make([]chatMessage, len(conversation))
		copy(want, conversation)
		want[3] = chatMessage{"role": "tool", "tool_call_id": "c1",
			"content": fmt.Sprintf("[content truncated - %d steps ago, %d tokens]", 7, count(t, "o200k_base", toolOutput))}
		wantJSON, _ := json.Marshal(want)
		gotJSON, _ := json.Marshal(r.Messages)
		if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
			t.Errorf("messages (-want +got):\n%s", diff)
		}
		if r.DroppedCount != 0 {
			t.Errorf("droppedCount = %d, want 0", r.DroppedCount)
		}
	})
	t.Run("cannot fit", func(t *testing.T) {
		e := e.in(t)
		// System messages are never dropped.
		long := append([]chatMessage{{"role": "system", "content": strings.Repeat("Always answer in full sentences. ", 20)}}, conversation[1:]...)
		err := e.callError("acode/trimConversation", map[string]any{"messages": long, "model": "gpt-4o",
			"maxContextTokens": 100, "reservedOutputTokens": 10})
		var data struct {
			Code          string `json:"code"`
			CurrentTokens *int   `json:"currentTokens"`
			MaxTokens     *int   `json:"maxTokens"`
		}
		_ = json.Unmarshal(err.Data, &data)
		if err.Code != -32803 || data.Code != "ACODE-CTX-003" || data.CurrentTokens == nil || data.MaxTokens == nil || *data.MaxTokens != 90 || *data.CurrentTokens <= 90 {
			t.Errorf("error %d %s, want -32803 with data {code ACODE-CTX-003, currentTokens > 90, maxTokens 90}", err.Code, err.Data)
		}
	})
}

func TestE2EFitToolResult(t *testing.T) {
	e, _ := session(t, nil)
	type fitResult struct {
		Content      string  `json:"content"`
		Tokens       int     `json:"tokens"`
		Returned     int     `json:"returned"`
		Total        int     `json:"total"`
		Continuation *string `json:"continuation"`
		Note         string  `json:"note"`
	}
	var lines []string
	for i := 1; i <= 80; i++ {
		lines = append(lines, fmt.Sprintf("cart/service.go:%d: CheckoutService", i))
	}
	output := strings.Join(lines, "\n") + "\n"

	t.Run("pages", func(t *testing.T) {
		e := e.in(t)
		var pages []string
		returned := 0
		var cursor any
		for n := 0; ; n++ {
			if n > 40 {
				t.Fatal("more than 40 pages")
			}
			params := map[string]any{"tool": "search_content", "content": output, "maxTokens": 60}
			if cursor != nil {
				params["cursor"] = cursor
			}
			var raw json.RawMessage
			e.result("acode/fitToolResult", params, &raw)
			for _, k := range []string{"content", "tokens", "returned", "total", "continuation", "note"} {
				if _, ok := object(t, raw)[k]; !ok {
					t.Errorf("page %d has no %q", n, k)
				}
			}
			var r fitResult
			_ = json.Unmarshal(raw, &r)
			if r.Tokens != count(t, "o200k_base", r.Content) || r.Tokens > 60 {
				t.Errorf("page %d: tokens %d, content counts %d, maxTokens 60", n, r.Tokens, count(t, "o200k_base", r.Content))
			}
			if r.Total != 80 || r.Returned != strings.Count(r.Content, "\n") {
				t.Errorf("page %d: returned %d of %d, content has %d lines", n, r.Returned, r.Total, strings.Count(r.Content, "\n"))
			}
			returned += r.Returned
			pages = append(pages, r.Content)
			if r.Continuation == nil {
				break
			}
			// The largest leading page: one more item would not fit.
			next := lines[returned]
			if count(t, "o200k_base", r.Content+next+"\n") <= 60 {
				t.Errorf("page %d stops before %q, which fits", n, next)
			}
			if !strings.Contains(r.Note, *r.Continuation) {
				t.Errorf("note %q does not give the cursor", r.Note)
			}
			cursor = *r.Continuation
		}
		if diff := cmp.Diff(output, strings.Join(pages, "")); diff != "" {
			t.Errorf("pages joined (-want +got):\n%s", diff)
		}
	})
	t.Run("history", func(t *testing.T) {
		e := e.in(t)
		var r fitResult
		e.result("acode/fitToolResult", map[string]any{"tool": "search_content", "content": output, "maxTokens": 40, "mode": "history"}, &r)
		if r.Tokens != count(t, "o200k_base", r.Content) || r.Tokens > 40 {
			t.Errorf("tokens %d, content counts %d, maxTokens 40", r.Tokens, count(t, "o200k_base", r.Content))
		}
		if !strings.Contains(r.Content, "cart/service.go") || !strings.Contains(r.Content, "80") {
			t.Errorf("history %q: want the match count per file (cart/service.go: 80)", r.Content)
		}
	})
}

// ---------------------------------------------------------------------------
// Stdout carries protocol only.

func TestE2EStdoutIsProtocolOnly(t *testing.T) {
	// Debug logging, errors, malformed input, a configuration error shown
	// to the user: every byte of stdout must still be a framed JSON-RPC
	// message (startServer's reader fails the test otherwise).
	e, root := session(t, nil, "--log-level", "debug")
	svc := filepath.Join(root, "cart/service.go")
	e.open(svc, "go", readFile(t, svc))
	_ = e.lenses(svc)
	if err := e.callError("no/such/method", map[string]any{}); err.Code != -32601 {
		t.Errorf("unknown method: %d %q, want -32601", err.Code, err.Message)
	}
	if err := e.callError("initialize", map[string]any{"capabilities": map[string]any{}}); err.Code != -32600 {
		t.Errorf("second initialize: %d %q, want -32600", err.Code, err.Message)
	}
	_ = e.call("acode/packContext", map[string]any{"sources": "nope"})
	e.writeRaw([]byte(`{"jsonrpc":"2.0","id":77,"method":`))
	if m := e.await("77"); m.Error == nil || m.Error.Code != -32700 {
		t.Errorf("malformed JSON answered %+v, want -32700", m.Error)
	}
	from := e.mark()
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"acode": map[string]any{
		"budget": map[string]any{"totalTokens": -5}}}})
	msg := e.waitNote(from, "window/showMessage", nil)
	if !strings.Contains(string(msg), "totalTokens") && !strings.Contains(string(msg), "total_tokens") {
		t.Errorf("window/showMessage %s does not name the setting", msg)
	}
	var res json.RawMessage
	e.result("acode/packContext", map[string]any{"query": "checkout", "search": map[string]any{"pattern": "Checkout"}}, &res)
	if code := e.shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
	if !strings.Contains(e.stderr.String(), "acode/packContext") {
		t.Errorf("no debug log on stderr; logs must go there, not to stdout")
	}
	for _, s := range secrets {
		if strings.Contains(e.stderr.String(), s) {
			t.Errorf("the log leaks %q", s)
		}
	}
}

// ---------------------------------------------------------------------------
// The command line.

func TestE2ECLIVersion(t *testing.T) {
	r := runBinary(t, t.TempDir(), "", "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "acode-lsp ") || len(strings.TrimSpace(r.stdout)) <= len("acode-lsp ") {
		t.Errorf("version: exit %d, stdout %q, want 0 and \"acode-lsp <version>\"", r.code, r.stdout)
	}
}

func TestE2ECLICount(t *testing.T) {
	root := sample(t)
	model := readFile(t, filepath.Join(root, "cart/model.go"))
	checkout := readFile(t, filepath.Join(root, "web/src/checkout.ts"))
	stdin := "piped text, <|endoftext|> included\n"
	type file struct {
		Path   string `json:"path"`
		Tokens int    `json:"tokens"`
	}
	type result struct {
		Encoding string `json:"encoding"`
		Exact    bool   `json:"exact"`
		Files    []file `json:"files"`
		Total    int    `json:"total"`
	}
	want := func(enc string, exact bool, counter func(string) int) result {
		r := result{Encoding: enc, Exact: exact, Files: []file{
			{"cart/model.go", counter(model)}, {"-", counter(stdin)}, {"web/src/checkout.ts", counter(checkout)},
		}}
		for _, f := range r.Files {
			r.Total += f.Tokens
		}
		return r
	}
	exact := func(enc string) func(string) int { return func(s string) int { return count(t, enc, s) } }
	tests := []struct {
		name string
		args []string
		want result
	}{
		{"configured model", nil, want("o200k_base", true, exact("o200k_base"))},
		{"model", []string{"--model", "gpt-4"}, want("cl100k_base", true, exact("cl100k_base"))},
		{"encoding", []string{"--encoding", "r50k_base"}, want("r50k_base", true, exact("r50k_base"))},
		{"unknown model", []string{"--model", "my-local-llama"}, want(estimateEncoding, false, heuristicCount)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"count", "--json"}, tt.args...)
			args = append(args, "cart/model.go", "-", "web/src/checkout.ts")
			r := runBinary(t, root, stdin, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			raw := json.RawMessage(r.stdout)
			fields := []string{"encoding", "exact", "files", "total"}
			if strings.HasPrefix(tt.name, "unknown") {
				fields = []string{"encoding", "estimate", "exact", "files", "total"} // rule 1's estimate object
			}
			if diff := cmp.Diff(fields, keys(t, raw)); diff != "" {
				t.Errorf("fields (-want +got):\n%s", diff)
			}
			var files []json.RawMessage
			_ = json.Unmarshal(object(t, raw)["files"], &files)
			for i, f := range files {
				if diff := cmp.Diff([]string{"path", "tokens"}, keys(t, f)); diff != "" {
					t.Errorf("files[%d] fields (-want +got):\n%s", i, diff)
				}
			}
			var got result
			_ = json.Unmarshal(raw, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("text output", func(t *testing.T) {
		r := runBinary(t, root, "", "count", "cart/model.go")
		if r.code != 0 || !strings.Contains(r.stdout, strconv.Itoa(count(t, "o200k_base", model))) {
			t.Errorf("exit %d, stdout %q: want the count of cart/model.go", r.code, r.stdout)
		}
	})
	t.Run("missing file", func(t *testing.T) {
		r := runBinary(t, root, "", "count", "--json", "no/such.go")
		if r.code == 0 || r.stderr == "" {
			t.Errorf("exit %d, stderr %q: want a failure that says why", r.code, r.stderr)
		}
	})
}

func TestE2ECLIConfigValidate(t *testing.T) {
	root := sample(t)
	tests := []struct {
		name    string
		config  string // "" runs on the sample's own config
		code    int
		mention []string
	}{
		{"the sample", "", 0, nil},
		{"categories do not sum to 100", "context:\n  budget:\n    categories: {tool_results: 50, open_files: 30, search_results: 10}\n", 1, []string{"categories", "100"}},
		{"no budget left", "context:\n  budget:\n    total_tokens: 5000\n    system_prompt_reserve: 3000\n    response_reserve: 2000\n", 1, []string{"total_tokens"}},
		{"negative reserve", "context:\n  budget:\n    response_reserve: -1\n", 1, []string{"response_reserve"}},
		{"unknown key", "context:\n  budget:\n    total_tokns: 5000\n", 1, []string{"total_tokns", "line 3"}},
		{"not YAML", "context: [\n", 1, nil},
		{"valid", "context:\n  budget: {total_tokens: 128000}\n  tokenizer: {encoding: cl100k_base}\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"config", "validate"}
			if tt.config != "" {
				path := filepath.Join(t.TempDir(), "config.yml")
				writeFile(t, path, tt.config)
				args = append(args, "--config", path)
			}
			r := runBinary(t, root, "", args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, tt.code, r.stdout, r.stderr)
			}
			for _, m := range tt.mention {
				if !strings.Contains(r.stdout+r.stderr, m) {
					t.Errorf("output does not mention %q:\n%s%s", m, r.stdout, r.stderr)
				}
			}
		})
	}
}

// packJSON runs pack --json with args in dir and checks the result.
func packJSON(t *testing.T, dir, stdin string, files map[string]string, args ...string) packResult {
	t.Helper()
	r := runBinary(t, dir, stdin, append([]string{"pack", "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("pack --json %s: exit %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return checkPackResult(t, json.RawMessage(r.stdout), files)
}

func TestE2ECLIPack(t *testing.T) {
	root := sample(t)
	files := workspaceFiles(t, root, nil)
	toolFile := filepath.Join(t.TempDir(), "test-output.txt")
	writeFile(t, toolFile, "--- FAIL: TestCheckoutEmptyCart (0.00s)\ntoolFileMarker\n")

	t.Run("json is the packContext result", func(t *testing.T) {
		res := packJSON(t, root, "", files)
		if b := res.Budget; b.Total != 16000 || b.SystemReserve != 1000 || b.ResponseReserve != 3000 || b.Available != 12000 {
			t.Errorf("budget %+v, want the sample config's 16000/1000/3000", b)
		}
		if res.Model != "gpt-4o" || res.Encoding != "o200k_base" || !res.Exact {
			t.Errorf("model/encoding/exact = %s/%s/%v", res.Model, res.Encoding, res.Exact)
		}
		for _, s := range secrets {
			if strings.Contains(res.Content, s) {
				t.Errorf("content leaks %q", s)
			}
		}
		if got := find(res.Excluded, "open_file", ".env"); len(got) != 1 || got[0].Reason != "secret" {
			t.Errorf(".env excluded as %+v, want secret", got)
		}
		text := runBinary(t, root, "", "pack")
		if text.code != 0 {
			t.Fatalf("pack: exit %d: %s", text.code, text.stderr)
		}
		if diff := cmp.Diff(res.Content, text.stdout); diff != "" {
			t.Errorf("pack prints something else than the content of pack --json (-json +text):\n%s", diff)
		}
	})
	tests := []struct {
		name  string
		stdin string
		args  []string
		check func(t *testing.T, res packResult)
	}{
		{"budget and reserves", "", []string{"--budget", "2000", "--system-reserve", "100", "--response-reserve", "200"}, func(t *testing.T, res packResult) {
			if b := res.Budget; b.Total != 2000 || b.SystemReserve != 100 || b.ResponseReserve != 200 || b.Available != 1700 {
				t.Errorf("budget %+v, want 2000/100/200 → 1700", b)
			}
		}},
		{"model", "", []string{"--model", "gpt-4"}, func(t *testing.T, res packResult) {
			if res.Model != "gpt-4" || res.Encoding != "cl100k_base" || !res.Exact {
				t.Errorf("model/encoding/exact = %s/%s/%v, want gpt-4/cl100k_base/true", res.Model, res.Encoding, res.Exact)
			}
		}},
		{"encoding", "", []string{"--encoding", "p50k_base"}, func(t *testing.T, res packResult) {
			if res.Encoding != "p50k_base" || !res.Exact {
				t.Errorf("encoding/exact = %s/%v, want p50k_base/true", res.Encoding, res.Exact)
			}
		}},
		{"unknown model", "", []string{"--model", "my-local-llama"}, func(t *testing.T, res packResult) {
			if res.Encoding != estimateEncoding || res.Exact {
				t.Errorf("encoding/exact = %s/%v, want %s/false", res.Encoding, res.Exact, estimateEncoding)
			}
		}},
		{"query ranks a small budget", "", []string{"--query", "EmptyCartError", "--budget", "300", "--system-reserve", "0", "--response-reserve", "0"}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "EmptyCartError") {
				t.Errorf("the 300 tokens packed for the query do not mention EmptyCartError:\n%s", res.Content)
			}
		}},
		{"search", "", []string{"docs", "--search", "ErrEmptyCart"}, func(t *testing.T, res packResult) {
			n := 0
			for _, it := range res.Included {
				if it.Type == "search_result" && it.Path != "" {
					n++
				}
			}
			if n == 0 {
				t.Errorf("no search_result included: %+v", res.Included)
			}
		}},
		{"tool result file", "", []string{"docs", "--tool-result", toolFile}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "toolFileMarker") || !strings.Contains(res.Content, "## Tool: ") {
				t.Errorf("the tool result is not packed under \"## Tool:\":\n%s", res.Content)
			}
		}},
		{"tool result on stdin", "stdinToolMarker: FAIL\n", []string{"docs", "--tool-result", "-"}, func(t *testing.T, res packResult) {
			if !strings.Contains(res.Content, "stdinToolMarker: FAIL") {
				t.Errorf("the tool result from stdin is not packed:\n%s", res.Content)
			}
		}},
		{"reference with lines", "", []string{"docs", "--reference", "cart/service.go:10-41"}, func(t *testing.T, res packResult) {
			if refs := find(res.Included, "reference", "cart/service.go"); len(refs) != 1 || refs[0].StartLine != 10 || refs[0].EndLine != 41 {
				t.Errorf("reference included as %+v, want cart/service.go lines 10-41", refs)
			}
		}},
		{"reference without lines", "", []string{"docs", "--reference", "tools/report.py"}, func(t *testing.T, res packResult) {
			if len(find(res.Included, "reference", "tools/report.py")) == 0 {
				t.Errorf("reference not included: %+v", res.Included)
			}
		}},
		{"every flag", "stdin tool output\n", []string{"cart", "--query", "empty cart", "--search", "ErrEmptyCart", "--tool-result", toolFile,
			"--tool-result", "-", "--reference", "web/src/checkout.ts:1-10", "--budget", "6000", "--system-reserve", "500",
			"--response-reserve", "500", "--model", "gpt-4o-mini"}, func(t *testing.T, res packResult) {
			if res.Budget.Available != 5000 || res.Encoding != "o200k_base" {
				t.Errorf("available %d encoding %s, want 5000 o200k_base", res.Budget.Available, res.Encoding)
			}
			types := map[string]bool{}
			for _, it := range res.Included {
				types[it.Type] = true
			}
			if diff := cmp.Diff(sourceTypes, types); diff != "" {
				t.Errorf("included source types (-want +got):\n%s", diff)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, packJSON(t, root, tt.stdin, files, tt.args...))
		})
	}
	t.Run("config", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "other.yml")
		writeFile(t, cfg, "context:\n  budget: {total_tokens: 5000, system_prompt_reserve: 100, response_reserve: 400}\n  tokenizer: {model: gpt-4}\n")
		res := packJSON(t, root, "", files, "--config", cfg)
		if b := res.Budget; b.Total != 5000 || b.Available != 4500 || res.Encoding != "cl100k_base" {
			t.Errorf("budget %+v, encoding %s: want the --config file's 5000/100/400 and cl100k_base", b, res.Encoding)
		}
	})
	t.Run("report on stderr", func(t *testing.T) {
		plain := runBinary(t, root, "", "pack")
		r := runBinary(t, root, "", "pack", "--report")
		if r.code != 0 || r.stdout != plain.stdout {
			t.Errorf("pack --report: exit %d, stdout differs from pack's: %v", r.code, r.stdout != plain.stdout)
		}
		report := strings.ToLower(r.stderr)
		for _, want := range []string{"tool results", "open files", "search results", "references", "dedup", "excluded", "ms"} {
			if !strings.Contains(report, want) {
				t.Errorf("the report on stderr does not mention %q:\n%s", want, r.stderr)
			}
		}
	})
	t.Run("nothing to pack", func(t *testing.T) {
		empty := t.TempDir()
		r := runBinary(t, empty, "", "pack")
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "ACODE-CTX-004") {
			t.Errorf("exit %d, stdout %q, stderr %q: want 1 with ACODE-CTX-004", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("no budget left", func(t *testing.T) {
		r := runBinary(t, root, "", "pack", "--budget", "1000", "--system-reserve", "500", "--response-reserve", "500")
		if r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, "ACODE-CTX-003") {
			t.Errorf("exit %d, stdout %q, stderr %q: want a failure with ACODE-CTX-003", r.code, r.stdout, r.stderr)
		}
	})
}

// ---------------------------------------------------------------------------
// Configuration reloads, progress, determinism, fences.

func TestE2EConfigReload(t *testing.T) {
	e, root := session(t, nil)
	cfgPath := filepath.Join(root, ".agent/config.yml")
	cfgURI := fileURI(cfgPath)
	sampleCfg := readFile(t, cfgPath)
	withTotal := func(n int) string {
		return strings.Replace(sampleCfg, "total_tokens: 16000", fmt.Sprintf("total_tokens: %d", n), 1)
	}
	total := func() int {
		t.Helper()
		var b budgetStatus
		e.result("acode/budgetStatus", nil, &b)
		return b.Total
	}
	if got := total(); got != 16000 {
		t.Fatalf("total %d, want the sample's 16000", got)
	}

	writeFile(t, cfgPath, withTotal(20000))
	e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": cfgURI}})
	if got := total(); got != 20000 {
		t.Errorf("after didSave of the config: total %d, want 20000", got)
	}

	from := e.mark()
	writeFile(t, cfgPath, withTotal(-5))
	e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": cfgURI}})
	msg := e.waitNote(from, "window/showMessage", nil)
	var shown struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(msg, &shown)
	if shown.Type != 1 || !strings.Contains(shown.Message, "total_tokens") {
		t.Errorf("window/showMessage %s: want an error naming total_tokens", msg)
	}
	if got := total(); got != 20000 {
		t.Errorf("after an invalid edit: total %d, want the last good 20000", got)
	}

	writeFile(t, cfgPath, withTotal(30000))
	e.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": cfgURI, "type": 2}}})
	if got := total(); got != 30000 {
		t.Errorf("after didChangeWatchedFiles: total %d, want 30000", got)
	}

	// Without any notification: the server notices the file by itself.
	from = e.mark()
	writeFile(t, cfgPath, withTotal(40000))
	e.waitNote(from, "acode/budget", func(p json.RawMessage) bool {
		var b budgetStatus
		return json.Unmarshal(p, &b) == nil && b.Total == 40000
	})
}

func TestE2EProgress(t *testing.T) {
	type progressParams struct {
		Token any `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	// kinds returns the $/progress kinds for token, waiting for the end.
	kinds := func(e *editor, from int, token any) []string {
		e.waitNote(from, "$/progress", func(p json.RawMessage) bool {
			var pp progressParams
			return json.Unmarshal(p, &pp) == nil && fmt.Sprint(pp.Token) == fmt.Sprint(token) && pp.Value.Kind == "end"
		})
		e.mu.Lock()
		defer e.mu.Unlock()
		var out []string
		for _, n := range e.notes[from:] {
			var pp progressParams
			if n.Method == "$/progress" && json.Unmarshal(n.Params, &pp) == nil && fmt.Sprint(pp.Token) == fmt.Sprint(token) {
				out = append(out, pp.Value.Kind)
			}
		}
		return out
	}
	check := func(t *testing.T, got []string) {
		t.Helper()
		if len(got) < 2 || got[0] != "begin" || got[len(got)-1] != "end" {
			t.Errorf("$/progress kinds %v, want begin, [report…], end", got)
		}
		for _, k := range got[1 : len(got)-1] {
			if k != "report" {
				t.Errorf("$/progress kinds %v, want begin, [report…], end", got)
			}
		}
	}
	t.Run("workDoneToken of the request", func(t *testing.T) {
		e, _ := session(t, nil)
		from := e.mark()
		e.result("acode/packContext", map[string]any{"workDoneToken": "tok-1", "search": map[string]any{"pattern": "Checkout"}}, nil)
		check(t, kinds(e, from, "tok-1"))
	})
	t.Run("token created by the server", func(t *testing.T) {
		root := sample(t)
		e := startServer(t, root)
		e.initializeCaps(root, map[string]any{"window": map[string]any{"workDoneProgress": true}}, nil)
		from := e.mark()
		e.result("acode/packContext", map[string]any{"search": map[string]any{"pattern": "Checkout"}}, nil)
		raw := e.waitNote(from, "window/workDoneProgress/create", nil)
		var create struct {
			Token any `json:"token"`
		}
		_ = json.Unmarshal(raw, &create)
		if create.Token == nil {
			t.Fatalf("window/workDoneProgress/create %s without a token", raw)
		}
		check(t, kinds(e, from, create.Token))
	})
}

func TestE2EDeterministic(t *testing.T) {
	root := sample(t)
	args := []string{"pack", "--json", "--query", "empty cart checkout", "--search", "Cart", "--budget", "3000", "--system-reserve", "0", "--response-reserve", "0"}
	first := runBinary(t, root, "", args...)
	for i := 0; i < 2; i++ {
		again := runBinary(t, root, "", args...)
		if diff := cmp.Diff(first.stdout, again.stdout); diff != "" {
			t.Fatalf("pack is not byte-identical on the same input (-first +again):\n%s", diff)
		}
	}
	e, root2 := session(t, nil)
	params := map[string]any{"query": "empty cart checkout", "search": map[string]any{"pattern": "Cart"},
		"budget":  map[string]any{"totalTokens": 3000, "systemReserve": 0, "responseReserve": 0},
		"sources": []any{map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root2, "cart/model.go"))}}}
	var a, b json.RawMessage
	e.result("acode/packContext", params, &a)
	e.result("acode/packContext", params, &b)
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("acode/packContext is not identical on the same input (-first +second):\n%s", diff)
	}
}

func TestE2EFencesCannotBeClosedByContent(t *testing.T) {
	e, root := session(t, nil)
	doc := "# Fences\n\nA block:\n\n````go\n```\nnot the end\n```\n````\n\nAnd ``````six`````` ticks.\n"
	writeFile(t, filepath.Join(root, "docs/fences.md"), doc)
	tool := "output with a fence:\n`````\nstill output\n"
	files := workspaceFiles(t, root, nil)
	res := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, "docs/fences.md"))},
		map[string]any{"type": "tool_result", "label": "fenced", "content": tool},
	}}, files) // checkFormat re-reads the file section up to its closing fence
	if len(parseSections(t, res.Content)) != 1 {
		t.Errorf("want one file section:\n%s", res.Content)
	}
	head, body, ok := strings.Cut(res.Content, "## Tool: fenced\n")
	_ = head
	if !ok {
		t.Fatalf("no tool section:\n%s", res.Content)
	}
	fence, rest, _ := strings.Cut(body, "\n")
	fence = strings.TrimRight(fence, "abcdefghijklmnopqrstuvwxyz")
	if len(fence) <= 5 || strings.Trim(fence, "`") != "" {
		t.Errorf("tool fence %q, want more than 5 backticks (the content has a run of 5)", fence)
	}
	if !strings.HasPrefix(rest, tool) || !strings.HasPrefix(rest[len(tool):], fence+"\n") {
		t.Errorf("tool section is not the content closed by its fence:\n%s", body)
	}
}

// ---------------------------------------------------------------------------
// Ranking, selection, dedup, workspace roots.

func TestE2ERankingAndSelection(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	t.Run("score formula", func(t *testing.T) {
		e := e.in(t)
		// Same timestamp, so recency is equal: scores differ by
		// 0.5·Δrelevance and 0.2·Δpriority/100 (docs/design.md#rule-5).
		ts := "2026-11-22T10:00:00Z"
		var raw json.RawMessage
		e.result("acode/packContext", map[string]any{"includeOpenFiles": false, "sources": []any{
			map[string]any{"type": "tool_result", "label": "a", "content": "alpha output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "tool_result", "label": "b", "content": "beta output\n", "relevance": 0.1, "timestamp": ts},
			map[string]any{"type": "open_file", "label": "c", "content": "gamma output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "search_result", "label": "d", "content": "delta output\n", "relevance": 0.9, "timestamp": ts},
			map[string]any{"type": "reference", "label": "e", "content": "epsilon output\n", "relevance": 0.9, "timestamp": ts},
		}}, &raw)
		res := checkPackResult(t, raw, files)
		var labelled struct {
			Included []struct {
				Label string  `json:"label"`
				Score float64 `json:"score"`
			} `json:"included"`
		}
		_ = json.Unmarshal(raw, &labelled)
		byLabel := map[string]float64{}
		for _, it := range labelled.Included {
			byLabel[it.Label] = it.Score
		}
		diffs := map[string]float64{
			"relevance 0.9 vs 0.1":     byLabel["a"] - byLabel["b"],
			"tool_result vs open_file": byLabel["a"] - byLabel["c"],
			"tool_result vs search":    byLabel["a"] - byLabel["d"],
			"tool_result vs reference": byLabel["a"] - byLabel["e"],
		}
		want := map[string]float64{
			"relevance 0.9 vs 0.1":     0.5 * 0.8,
			"tool_result vs open_file": 0.2 * 0.2,
			"tool_result vs search":    0.2 * 0.4,
			"tool_result vs reference": 0.2 * 0.6,
		}
		if diff := cmp.Diff(want, diffs, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 0.0002 })); diff != "" {
			t.Errorf("score differences (-want +got):\n%s\nscores %v", diff, byLabel)
		}
		if len(res.Included) != 5 {
			t.Errorf("%d included, want 5", len(res.Included))
		}
	})
	var big strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&big, "tool output line %d that is long enough to matter\n", i)
	}
	selection := func(t *testing.T, redistribute bool) packResult {
		return e.in(t).pack(map[string]any{"includeOpenFiles": false,
			"budget": map[string]any{"totalTokens": 2000, "systemReserve": 0, "responseReserve": 0, "redistribute": redistribute,
				"categories": map[string]any{"tool_results": 50, "references": 50}},
			"sources": []any{
				map[string]any{"type": "tool_result", "label": "big", "content": big.String(), "relevance": 1},
				map[string]any{"type": "reference", "label": "small", "content": strings.Repeat("reference line\n", 60), "relevance": 0},
			}}, files)
	}
	t.Run("a category is never starved", func(t *testing.T) {
		for _, redistribute := range []bool{true, false} {
			res := selection(t, redistribute)
			refs := 0
			for _, it := range res.Included {
				if it.Type == "reference" {
					refs++
				}
			}
			if refs == 0 {
				t.Errorf("redistribute %v: the low-ranked reference lost its allocation to the tool result: %+v", redistribute, res.Included)
			}
		}
	})
	t.Run("redistribute", func(t *testing.T) {
		on, off := selection(t, true), selection(t, false)
		if got := off.Budget.Categories["tool_results"]; got.Used > got.Allocated {
			t.Errorf("redistribute false: tool_results used %d of %d", got.Used, got.Allocated)
		}
		if on.Budget.Categories["tool_results"].Used <= off.Budget.Categories["tool_results"].Used {
			t.Errorf("redistribute true: tool_results used %d, no more than without (%d): the references' leftover was not shared",
				on.Budget.Categories["tool_results"].Used, off.Budget.Categories["tool_results"].Used)
		}
	})
}

func TestE2EDedup(t *testing.T) {
	e, root := session(t, nil)
	files := workspaceFiles(t, root, nil)
	svc := fileURI(filepath.Join(root, "cart/service.go"))
	res := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "cart/model.go"))},
		map[string]any{"type": "open_file", "uri": fileURI(filepath.Join(root, "legacy/model_copy.go"))},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(9, 40), "relevance": 0.9},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(12, 39), "relevance": 0.5},
		map[string]any{"type": "reference", "uri": svc, "range": lspRange(35, 60), "relevance": 0.4},
	}}, files) // checkFormat: no line twice, one header per file
	reasons := map[string]int{}
	for _, it := range res.Excluded {
		reasons[it.Path+" "+it.Reason]++
	}
	if reasons["legacy/model_copy.go duplicate"] == 0 || res.Dedup.ExactRemoved == 0 {
		t.Errorf("the copy of cart/model.go is not removed as a duplicate: %v, dedup %+v", reasons, res.Dedup)
	}
	if reasons["cart/service.go merged"] == 0 || res.Dedup.OverlapsMerged == 0 {
		t.Errorf("lines 13-40 inside 10-41 are not merged: %v, dedup %+v", reasons, res.Dedup)
	}
	if res.Dedup.TokensSaved <= 0 {
		t.Errorf("dedup.tokensSaved = %d, want the saving", res.Dedup.TokensSaved)
	}
	if strings.Contains(res.Content, "legacy/model_copy.go") {
		t.Errorf("the duplicate is in the content")
	}
}

func TestE2EWorkspaceRoots(t *testing.T) {
	root := sample(t)
	other, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(other, "lib/util.go"), "package lib\n\n// Util helps.\nfunc Util() int { return 1 }\n")
	third, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(third, "x.go"), "package x\n\n// ThirdRootMarker is late.\nvar ThirdRootMarker = 3\n")
	e := startServer(t, root)
	e.result("initialize", map[string]any{"processId": os.Getpid(), "rootUri": fileURI(root), "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": fileURI(root), "name": "shop"}, map[string]any{"uri": fileURI(other), "name": "lib"}}}, nil)
	e.notify("initialized", map[string]any{})
	ref := func(path string) map[string]any {
		return map[string]any{"includeOpenFiles": false, "sources": []any{map[string]any{"type": "reference", "uri": fileURI(path)},
			map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"}}}
	}
	var res packResult
	e.result("acode/packContext", ref(filepath.Join(other, "lib/util.go")), &res)
	if !strings.Contains(res.Content, "func Util()") {
		t.Errorf("a file of the second workspace folder is not packed: excluded %+v", res.Excluded)
	}
	e.result("acode/packContext", ref(filepath.Join(third, "x.go")), &res)
	if strings.Contains(res.Content, "ThirdRootMarker") || len(res.Excluded) != 1 || res.Excluded[0].Reason != "outside_workspace" {
		t.Errorf("a file outside every folder: excluded %+v, want outside_workspace", res.Excluded)
	}
	e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []any{map[string]any{"uri": fileURI(third), "name": "third"}}, "removed": []any{}}})
	e.result("acode/packContext", ref(filepath.Join(third, "x.go")), &res)
	if !strings.Contains(res.Content, "ThirdRootMarker") {
		t.Errorf("a file of an added workspace folder is not packed: excluded %+v", res.Excluded)
	}
}

func TestE2ERedaction(t *testing.T) {
	e, root := session(t, nil)
	keys := []string{
		"sk-proj-Zt8Qm2Lx9Vb4Nc7Rw1Ks5Hd3Jf6Gp0Ye",
		"sk_live_51Mz9QxLk2WeRtYuIoPaSdFgHjKl",
		"AKIAZ7Q3M4N5P6R7S8T9",
		"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
		"Xq7!mK2#pL9@vR4$wN8^tB",
	}
	src := "package billing\n\n" +
		"// Client talks to the payment provider.\n" +
		"type Client struct{ key string }\n\n" +
		"const openAIKey = \"" + keys[0] + "\"\n" +
		"const stripeKey = \"" + keys[1] + "\"\n" +
		"var awsAccessKeyID = \"" + keys[2] + "\"\n" +
		"var githubToken = \"" + keys[3] + "\"\n" +
		"const DB_PASSWORD = \"" + keys[4] + "\"\n\n" +
		"// Charge charges a customer.\n" +
		"func (c *Client) Charge(cents int64) error { return nil }\n"
	path := filepath.Join(root, "billing/client.go")
	writeFile(t, path, src)
	files := workspaceFiles(t, root, nil)
	res := e.pack(map[string]any{"includeOpenFiles": false, "sources": []any{
		map[string]any{"type": "reference", "uri": fileURI(path)}}}, files) // checkFormat: only redacted lines differ
	for _, k := range keys {
		if strings.Contains(res.Content, k) {
			t.Errorf("the key %q is in the context", k)
		}
	}
	if n := strings.Count(res.Content, "[REDACTED]"); n != len(keys) {
		t.Errorf("%d values redacted, want %d:\n%s", n, len(keys), res.Content)
	}
	for _, want := range []string{"func (c *Client) Charge(cents int64) error { return nil }", "const stripeKey = "} {
		if !strings.Contains(res.Content, want) {
			t.Errorf("the rest of the file is not usable: %q missing", want)
		}
	}
}

func TestE2ECLIPackPaths(t *testing.T) {
	root := sample(t)
	files := workspaceFiles(t, root, nil)
	paths := func(res packResult) []string {
		set := map[string]bool{}
		for _, it := range res.Included {
			set[it.Path] = true
		}
		var out []string
		for p := range set {
			out = append(out, p)
		}
		sort.Strings(out)
		return out
	}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"cart/model.go"}, []string{"cart/model.go"}},
		{[]string{"cart/model.go", "tools"}, []string{"cart/model.go", "tools/report.py"}},
		{[]string{"web"}, []string{"web/.gitignore", "web/src/api.ts", "web/src/checkout.ts"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if diff := cmp.Diff(tt.want, paths(packJSON(t, root, "", files, tt.args...))); diff != "" {
				t.Errorf("packed files (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("quiet stderr", func(t *testing.T) {
		// Progress goes to stderr only when it is a terminal.
		r := runBinary(t, root, "", "pack", "--search", "Cart")
		if r.code != 0 || r.stderr != "" {
			t.Errorf("exit %d, stderr %q: want 0 and nothing on a stderr that is not a terminal", r.code, r.stderr)
		}
	})
}

func TestE2EModelFamilies(t *testing.T) {
	e, _ := session(t, nil)
	tests := []struct {
		model, encoding string
	}{
		{"gpt-4o", "o200k_base"}, {"gpt-4o-mini", "o200k_base"}, {"gpt-4.1", "o200k_base"}, {"gpt-4.1-nano", "o200k_base"},
		{"o1", "o200k_base"}, {"o1-mini", "o200k_base"}, {"o3", "o200k_base"}, {"o3-mini", "o200k_base"}, {"o4-mini", "o200k_base"},
		{"gpt-5", "o200k_base"}, {"gpt-5-mini", "o200k_base"},
		{"gpt-4", "cl100k_base"}, {"gpt-4-turbo", "cl100k_base"}, {"gpt-4-32k", "cl100k_base"},
		{"gpt-3.5-turbo", "cl100k_base"}, {"gpt-3.5-turbo-16k", "cl100k_base"},
		{"text-embedding-3-small", "cl100k_base"}, {"text-embedding-3-large", "cl100k_base"},
		{"claude-3-opus", "estimate:claude-3-opus×1.25"},
	}
	text := "func (s *CheckoutService) Checkout(ctx context.Context) error { return ErrEmptyCart } // ✓ naïve\n"
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			e := e.in(t)
			var got struct {
				Tokens   int    `json:"tokens"`
				Encoding string `json:"encoding"`
				Exact    bool   `json:"exact"`
			}
			e.result("acode/countTokens", map[string]any{"text": text, "model": tt.model}, &got)
			want := estimateCount(1.25, text) // Claude ≤ 4.6
			estimate := strings.HasPrefix(tt.encoding, "estimate:")
			if !estimate {
				want = count(t, tt.encoding, text)
			}
			if got.Encoding != tt.encoding || got.Exact != !estimate || got.Tokens != want {
				t.Errorf("got %+v, want %d tokens under %s", got, want, tt.encoding)
			}
		})
	}
}

func TestE2ETrimDropsWholeToolExchanges(t *testing.T) {
	e, _ := session(t, nil)
	msgs := []chatMessage{{"role": "system", "content": "You are terse."}}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("call%d", i)
		msgs = append(msgs,
			chatMessage{"role": "user", "content": fmt.Sprintf("question %d about the checkout service and its carts", i)},
			chatMessage{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"cart/f%d.go"}`, i)}}}},
			chatMessage{"role": "tool", "tool_call_id": id, "content": fmt.Sprintf("package cart // file %d, short", i)},
			chatMessage{"role": "assistant", "content": fmt.Sprintf("answer %d: the cart is fine", i)})
	}
	original := listCost(t, msgs)
	limit := original / 3
	var r struct {
		Messages       []chatMessage `json:"messages"`
		Truncated      bool          `json:"truncated"`
		DroppedCount   int           `json:"droppedCount"`
		OriginalTokens int           `json:"originalTokens"`
		FinalTokens    int           `json:"finalTokens"`
	}
	e.result("acode/trimConversation", map[string]any{"messages": msgs, "model": "gpt-4o", "maxContextTokens": limit,
		"reservedOutputTokens": 0, "preserveRecentTurns": 2}, &r)
	if !r.Truncated || r.OriginalTokens != original || r.FinalTokens != listCost(t, r.Messages) || r.FinalTokens > limit {
		t.Errorf("truncated %v, tokens %d → %d (messages cost %d), limit %d", r.Truncated, r.OriginalTokens, r.FinalTokens, listCost(t, r.Messages), limit)
	}
	if r.DroppedCount == 0 || len(r.Messages) != len(msgs)-r.DroppedCount {
		t.Errorf("droppedCount %d, %d of %d messages left", r.DroppedCount, len(r.Messages), len(msgs))
	}
	if len(r.Messages) == 0 || r.Messages[0]["role"] != "system" {
		t.Errorf("the system message was dropped")
	}
	calls, results := map[string]bool{}, map[string]bool{}
	for _, m := range r.Messages {
		if id, ok := m["tool_call_id"].(string); ok {
			results[id] = true
		}
		list, _ := m["tool_calls"].([]any)
		for _, c := range list {
			calls[c.(map[string]any)["id"].(string)] = true
		}
	}
	if diff := cmp.Diff(calls, results); diff != "" {
		t.Errorf("a tool call was split from its result (calls -, results +):\n%s", diff)
	}
	tail := msgs[len(msgs)-8:] // the last two turns (user … assistant)
	gotTail, _ := json.Marshal(r.Messages[len(r.Messages)-len(tail):])
	wantTail, _ := json.Marshal(tail)
	if diff := cmp.Diff(string(wantTail), string(gotTail)); diff != "" {
		t.Errorf("the last 2 turns were not preserved (-want +got):\n%s", diff)
	}
}

func TestE2EOpenDocumentsAreFiltered(t *testing.T) {
	e, root := session(t, nil)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	secret := "OPEN_SECRET_KEY=sk_live_51OpenInEditorQwErTyUiOpAsDfGh\n"
	e.open(filepath.Join(root, ".env"), "dotenv", secret)
	e.open(filepath.Join(outside, "notes.go"), "go", "package notes // outsideMarker\n")
	e.open(filepath.Join(root, "debug.log"), "log", "ignoredMarker\n")
	var raw json.RawMessage
	e.result("acode/packContext", map[string]any{"includeOpenFiles": true, "sources": []any{
		map[string]any{"type": "tool_result", "label": "t", "content": "keep\n"},
		map[string]any{"type": "reference", "uri": fileURI(filepath.Join(root, ".env"))},
	}}, &raw)
	res := checkPackResult(t, raw, nil)
	for _, leak := range []string{"sk_live_51OpenInEditor", "outsideMarker", "ignoredMarker"} {
		if strings.Contains(res.Content, leak) {
			t.Errorf("an open document that rule 9 keeps out is packed: %q", leak)
		}
	}
	got := map[string]string{}
	for _, it := range res.Excluded {
		got[it.Type+" "+filepath.Base(it.Path)] = it.Reason
	}
	want := map[string]string{"open_file .env": "secret", "reference .env": "secret", "open_file notes.go": "outside_workspace", "open_file debug.log": "ignored"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exclusions (-want +got):\n%s", diff)
	}
}
