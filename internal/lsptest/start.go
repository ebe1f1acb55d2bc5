package lsptest

import (
	"context"
	"errors"
	"io"
	"net"
	"os/exec"
	"testing"
	"time"
)

// ServeFunc runs a language server on in and out until it ends and returns
// its exit code, as lsp.Serve does.
type ServeFunc func(ctx context.Context, in io.Reader, out io.Writer) int

// InProcess runs serve over a pipe and returns the editor on the other
// end. The test's cleanup closes the pipe and waits for serve to return.
func InProcess(t testing.TB, serve ServeFunc, opts Options) *Editor {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	e := newEditor(t, clientEnd, clientEnd, opts)
	go func() { e.code <- serve(context.Background(), serverEnd, serverEnd) }()
	t.Cleanup(func() {
		e.ended.Store(true)
		_ = clientEnd.Close()
		select {
		case code := <-e.code:
			e.code <- code
		case <-time.After(WaitLimit):
			t.Error("lsptest: the server did not stop after its input was closed")
		}
		e.WaitOutputEnd()
		if err := e.Violation(); err != nil {
			t.Errorf("lsptest: the server's output carried something other than protocol: %v", err)
		}
	})
	return e
}

// Binary starts the language server `path args…` in dir and returns the
// editor talking to it over its stdin and stdout; nothing is sent yet.
// The test's cleanup closes its stdin, waits for it to exit (killing it
// after [WaitLimit]), fails the test if stdout carried anything but
// protocol, and logs the end of stderr when the test failed.
func Binary(t testing.TB, path, dir string, args []string, opts Options) *Editor {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	e := newEditor(t, stdout, stdin, opts)
	e.stderr = stderr.String
	exited := make(chan struct{})
	go func() {
		e.mu.Lock()
		for !e.eof { // Wait closes stdout: read everything first
			e.cond.Wait()
		}
		e.mu.Unlock()
		code := 0
		if err := cmd.Wait(); err != nil {
			code = -1
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
		}
		e.code <- code
		close(exited)
	}()
	t.Cleanup(func() {
		e.CloseInput()
		select {
		case <-exited:
		case <-time.After(WaitLimit):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("lsptest: %s did not end after its input was closed", path)
		}
		if err := e.Violation(); err != nil {
			t.Errorf("lsptest: stdout carried something other than protocol: %v", err)
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", tail(stderr.String(), 4000))
		}
	})
	return e
}
