//go:build unix

package main_test

// Hostile workspaces (issue 15): a cloned repository is untrusted input. Its
// config file, its sources and the files named on the command line can be
// FIFOs, devices or symlinks to /dev/zero; none of them may hang the binary,
// exhaust its memory or keep it from ending on a signal. Every workspace is
// generated here in t.TempDir, and every run is bounded by runBinary's
// waitLimit: a hang fails the test instead of hanging it.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileWorkspace is a workspace with one ordinary Go file and the given
// hostile entries: "fifo" makes a named pipe, "->TARGET" a symlink.
func hostileWorkspace(t *testing.T, entries map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "main.go"), "package main\n\nfunc main() {}\n")
	for name, kind := range entries {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case kind == "fifo":
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		case strings.HasPrefix(kind, "->"):
			if err := os.Symlink(strings.TrimPrefix(kind, "->"), p); err != nil {
				t.Fatal(err)
			}
		default:
			writeFile(t, p, kind)
		}
	}
	return root
}

func TestHostileConfigFile(t *testing.T) {
	for _, tc := range []struct{ name, kind, why string }{
		{"fifo", "fifo", "named pipe"},
		{"link to /dev/zero", "->/dev/zero", "character device"},
		{"link to /dev/urandom", "->/dev/urandom", "character device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := hostileWorkspace(t, map[string]string{".agent/config.yml": tc.kind})
			for _, args := range [][]string{
				{"config", "validate"},
				{"pack", ".", "--budget", "20000"},
				{"count", "main.go"},
			} {
				res := runBinary(t, root, "", args...)
				if out := res.stdout + res.stderr; res.code == 0 || !strings.Contains(out, tc.why) {
					t.Errorf("acode-lsp %s: exit %d, output %q; want a failure naming the %s", strings.Join(args, " "), res.code, tail(out, 400), tc.why)
				}
			}
			// The server answers initialize and keeps serving.
			e := startServer(t, root)
			initialize(e, root, nil)
			var st map[string]any
			e.Result("acode/budgetStatus", nil, &st)
			if code := e.ShutdownExit(); code != 0 {
				t.Errorf("exit code %d after shutdown", code)
			}
		})
	}
}

// TestHostileTokenizerFile: a config naming a FIFO or a device as its
// tokenizer.json must not hang count or pack.
func TestHostileTokenizerFile(t *testing.T) {
	for _, kind := range []string{"fifo", "->/dev/zero"} {
		root := hostileWorkspace(t, map[string]string{
			".agent/config.yml": "context:\n  tokenizer:\n    file: tok.json\n",
			".agent/tok.json":   kind,
		})
		for _, args := range [][]string{{"count", "main.go"}, {"pack", ".", "--budget", "20000"}} {
			res := runBinary(t, root, "", args...)
			if out := res.stdout + res.stderr; res.code == 0 || !strings.Contains(out, "regular file") {
				t.Errorf("%s: acode-lsp %s: exit %d, output %q; want an error saying the tokenizer file is not a regular file", kind, strings.Join(args, " "), res.code, tail(out, 400))
			}
		}
	}
}

func TestHostileCountArguments(t *testing.T) {
	root := hostileWorkspace(t, map[string]string{
		"pipe":      "fifo",
		"zero.go":   "->/dev/zero",
		"random.go": "->/dev/urandom",
		"pipe-link": "->pipe",
	})
	for _, tc := range []struct{ arg, why string }{
		{"pipe", "named pipe"},
		{"pipe-link", "named pipe"},
		{"zero.go", "character device"},
		{"random.go", "character device"},
		{"/dev/null", "character device"},
		{"/dev/zero", "character device"},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			res := runBinary(t, root, "", "count", tc.arg, "main.go")
			if res.code != 1 || !strings.Contains(res.stderr, tc.why) || !strings.Contains(res.stdout, "main.go") {
				t.Errorf("count %s main.go: exit %d, stdout %q, stderr %q; want exit 1, main.go counted and the %s named", tc.arg, res.code, res.stdout, res.stderr, tc.why)
			}
		})
	}
}

func TestHostilePackInputs(t *testing.T) {
	root := hostileWorkspace(t, map[string]string{
		"pipe.go":  "fifo",
		"zero.go":  "->/dev/zero",
		"sub/x.go": "package sub\n",
	})
	tests := [][]string{
		{"pack", ".", "--budget", "20000"},
		{"pack", "pipe.go", "zero.go", "main.go", "--budget", "20000"},
		{"pack", "main.go", "--reference", "pipe.go", "--reference", "zero.go:1-3", "--budget", "20000"},
	}
	for _, args := range tests {
		res := runBinary(t, root, "", args...)
		if res.code != 0 || !strings.Contains(res.stdout, "main.go") {
			t.Errorf("acode-lsp %s: exit %d, stderr %q; want main.go packed", strings.Join(args, " "), res.code, tail(res.stderr, 400))
		}
	}
	for _, arg := range []string{"pipe.go", "zero.go"} {
		res := runBinary(t, root, "", "pack", "main.go", "--tool-result", arg, "--budget", "20000")
		if res.code == 0 || !strings.Contains(res.stderr, "not a regular file") {
			t.Errorf("pack --tool-result %s: exit %d, stderr %q; want an error saying it is not a regular file", arg, res.code, res.stderr)
		}
	}
}

// TestSignalEndsBlockedCommand: SIGTERM and SIGINT end a command blocked
// on a read that never completes (stdin a pipe nobody writes to) promptly.
func TestSignalEndsBlockedCommand(t *testing.T) {
	needBinary(t)
	root := hostileWorkspace(t, nil)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"count stdin SIGTERM", syscall.SIGTERM, []string{"count", "-"}},
		{"count stdin SIGINT", syscall.SIGINT, []string{"count", "-"}},
		{"pack tool-result stdin SIGTERM", syscall.SIGTERM, []string{"pack", ".", "--tool-result", "-"}},
		{"trim stdin SIGTERM", syscall.SIGTERM, []string{"trim", "--max", "1000"}},
		{"fit stdin SIGINT", syscall.SIGINT, []string{"fit", "--tool", "read_file", "--max", "1000"}},
		{"serve SIGTERM", syscall.SIGTERM, []string{"serve"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, tc.args...)
			cmd.Dir = root
			w, err := cmd.StdinPipe() // never written, never closed until the end
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(300 * time.Millisecond) // let it block on stdin
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				var ee *exec.ExitError
				if err == nil || !errors.As(err, &ee) || ee.ExitCode() == 0 {
					if tc.args[0] != "serve" {
						t.Errorf("exit %v after %v; want a non-zero exit", err, tc.sig)
					}
				}
				// The bound is a guard against a hang, generous for a
				// loaded machine; the command is expected to end at once.
				if d := time.Since(sent); d > 10*time.Second {
					t.Errorf("ended %v after the signal", d)
				}
			case <-time.After(waitLimit):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("acode-lsp %s ignored %v (stderr %q)", strings.Join(tc.args, " "), tc.sig, stderr.String())
			}
		})
	}
}
