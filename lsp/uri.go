package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// uriToPath returns the absolute, cleaned file path of a file: URI.
//
// Defect: uri.URI.Filename panics on any URI that is not file: (untitled:,
// git:, vscode-notebook-cell: …), so it is never called; the scheme is
// checked here first and other schemes are an error.
func uriToPath(u protocol.DocumentURI) (string, error) {
	parsed, err := url.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("lsp: invalid URI %q: %w", u, err)
	}
	if !strings.EqualFold(parsed.Scheme, uri.FileScheme) {
		return "", fmt.Errorf("lsp: not a file URI: %q", u)
	}
	if parsed.Host != "" && !strings.EqualFold(parsed.Host, "localhost") {
		return "", fmt.Errorf("lsp: file URI with a remote host: %q", u)
	}
	p := parsed.Path
	if p == "" || !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("lsp: file URI without an absolute path: %q", u)
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// pathToURI returns the file: URI of an absolute path.
func pathToURI(path string) protocol.DocumentURI {
	return protocol.DocumentURI(uri.File(path))
}
