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
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
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
	// The binary is built in the caller's environment: with the XDG
	// directories below, go build would use an empty build cache and
	// recompile everything, cgo included (minutes on a busy machine).
	buildEnv := append(os.Environ(), "CGO_ENABLED=1")
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
	build.Env = buildEnv
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
	lsptest.CopyDir(t, sampleDir, dst)
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

// secrets of the sample workspace that must never appear in a context.
var secrets = []string{"sk_live_51HxY7fLk9QwErTyUiOpAsDfGhJkLzXcVbNm", "hunter2", "sk-proj-Xq3J9vT2mLp8RwZk4YbN7cHd1FgS6aUe0WiOy5Rt"}

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

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// ---------------------------------------------------------------------------
// The language server: the shared fake editor (internal/lsptest) driving
// the binary over its stdin and stdout.

// startServer starts `acode-lsp args…` in dir and returns an editor talking
// to it; nothing is sent yet. The editor fails the test if stdout carries
// anything but protocol.
func startServer(t *testing.T, dir string, args ...string) *lsptest.Editor {
	t.Helper()
	needBinary(t)
	return lsptest.Binary(t, binary, dir, args, lsptest.Options{})
}

// initialize runs the initialize handshake for the workspace root with the
// given initializationOptions (nil: none) and returns the result.
func initialize(e *lsptest.Editor, root string, initOptions any) map[string]any {
	e.T().Helper()
	return initializeCaps(e, root, nil, initOptions)
}

// initializeCaps is initialize with client capabilities.
func initializeCaps(e *lsptest.Editor, root string, caps, initOptions any) map[string]any {
	e.T().Helper()
	return e.Initialize(lsptest.Init{Roots: []string{root}, Capabilities: caps, InitializationOptions: initOptions, ClientName: "e2e"})
}

// session starts the server on a copy of the sample workspace, initialized
// with initOptions, and returns it with the workspace root.
func session(t *testing.T, initOptions any, args ...string) (*lsptest.Editor, string) {
	t.Helper()
	root := sample(t)
	e := startServer(t, root, args...)
	initialize(e, root, initOptions)
	return e, root
}

// waitNote waits for a message from the server with the given method,
// after the first `from` ones, for which ok returns true; it returns its
// params.
func waitNote(e *lsptest.Editor, from int, method string, ok func(json.RawMessage) bool) json.RawMessage {
	e.T().Helper()
	m, _ := e.WaitNote(from, method, ok)
	return m.Params
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
