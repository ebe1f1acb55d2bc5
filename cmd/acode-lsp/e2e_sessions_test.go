package main_test

import (
	"context"
	"io"
	"testing"

	"github.com/acode-lsp/acode-lsp/internal/lsptest"
	"github.com/acode-lsp/acode-lsp/lsp"
)

// sessionFiles are the language-server sessions (internal/lsptest.Sessions):
// one txtar archive per case, by area.
const sessionFiles = "testdata/sessions/*/*.txtar"

// TestE2ESessions runs every session twice, and both runs must record the
// same answers: in-process (lsp.Serve over a pipe, in the quick suite too)
// and against the built binary (not under -short). After an intended
// change, `go test ./cmd/acode-lsp -run TestE2ESessions -update` rewrites
// the recorded sections.
func TestE2ESessions(t *testing.T) {
	workspaces := map[string]string{"sample": sampleDir}
	t.Run("in-process", func(t *testing.T) {
		lsptest.Sessions{Workspaces: workspaces, Start: func(t *testing.T, root string) *lsptest.Editor {
			return lsptest.InProcess(t, func(ctx context.Context, in io.Reader, out io.Writer) int {
				return lsp.Serve(ctx, in, out, lsp.Options{Version: "in-process"})
			}, lsptest.Options{})
		}}.Run(t, sessionFiles)
	})
	t.Run("binary", func(t *testing.T) {
		needBinary(t)
		lsptest.Sessions{Workspaces: workspaces, Start: func(t *testing.T, root string) *lsptest.Editor {
			return startServer(t, root)
		}}.Run(t, sessionFiles)
	})
}
