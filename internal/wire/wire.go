// Package wire is the JSON in which clients name files — the "sources" of
// the language server's acode/packContext and of the MCP tool pack_context
// (a file: URI and an LSP range, 0-based lines) — and its conversion to the
// pipeline's terms (pack.Source: paths, 1-based lines). Start at [Sources];
// [PathFromURI] is the project's one file: URI → path helper.
package wire

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/pack"
)

// Source is one explicit source as a client sends it (docs/protocol.md
// acode/packContext "sources").
type Source struct {
	Type    string          `json:"type"`
	Label   string          `json:"label,omitempty"`
	Content *string         `json:"content,omitempty"`
	URI     string          `json:"uri,omitempty"`
	Range   *protocol.Range `json:"range,omitempty"`
	// Relevance in [0,1], used instead of the lexical relevance.
	Relevance *float64   `json:"relevance,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
}

// Sources converts a client's sources to the pipeline's. A URI that is not
// a local file: URI and a range that ends before it starts are a
// *pack.ParamError naming the field ("sources[1].uri"). A tool result is
// named by its label: its uri is not read.
func Sources(in []Source) ([]pack.Source, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]pack.Source, len(in))
	for i, s := range in {
		ps := pack.Source{Type: s.Type, Label: s.Label, Content: s.Content, Relevance: s.Relevance, Timestamp: s.Timestamp}
		if r := s.Range; r != nil {
			// 0-based → 1-based, as the example of docs/design.md does
			// (range 9:0–40:0 → lines 10–41).
			if r.End.Line < r.Start.Line {
				return nil, &pack.ParamError{Field: fmt.Sprintf("sources[%d].range", i),
					Message: fmt.Sprintf("end (line %d) is before start (line %d)", r.End.Line, r.Start.Line)}
			}
			ps.StartLine, ps.EndLine = int(r.Start.Line)+1, int(r.End.Line)+1
		}
		if s.URI != "" && s.Type != "tool_result" {
			path, err := PathFromURI(s.URI)
			if err != nil {
				return nil, &pack.ParamError{Field: fmt.Sprintf("sources[%d].uri", i), Message: err.Error()}
			}
			ps.Path = path
		}
		out[i] = ps
	}
	return out, nil
}

// PathFromURI returns the absolute, cleaned local path of a file: URI. The
// scheme is checked before the path is taken: other schemes (untitled:,
// git:, https:), remote hosts and relative paths are errors (go.lsp.dev's
// uri.URI.Filename panics on non-file URIs, so it is never used).
func PathFromURI(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("not a URI: %v", err)
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", fmt.Errorf("scheme %q is not supported; use a file: URI", u.Scheme)
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", fmt.Errorf("file: URI with a remote host %q", u.Host)
	}
	if u.Path == "" || !strings.HasPrefix(u.Path, "/") {
		return "", fmt.Errorf("the file: URI has no absolute path")
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}
