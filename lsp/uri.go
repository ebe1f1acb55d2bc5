package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/acode-lsp/acode-lsp/internal/wire"
)

// uriToPath returns the absolute, cleaned file path of a file: URI.
//
// Defect: uri.URI.Filename panics on any URI that is not file: (untitled:,
// git:, vscode-notebook-cell: …), so it is never called; the scheme is
// checked first (wire.PathFromURI, the project's one URI → path helper,
// shared with the MCP server) and other schemes are an error.
func uriToPath(u protocol.DocumentURI) (string, error) {
	p, err := wire.PathFromURI(string(u))
	if err != nil {
		return "", fmt.Errorf("lsp: %q: %w", u, err)
	}
	return p, nil
}

// pathToURI returns the file: URI of an absolute path.
func pathToURI(path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(path))
}
