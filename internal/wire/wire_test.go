package wire

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/pack"
)

func TestSources(t *testing.T) {
	content := "x"
	lspRange := func(start, end uint32) *protocol.Range {
		return &protocol.Range{Start: protocol.Position{Line: start}, End: protocol.Position{Line: end}}
	}
	tests := []struct {
		name  string
		in    []Source
		want  []pack.Source
		field string // of the *pack.ParamError, when the sources do not convert
	}{
		{"none", nil, nil, ""},
		// docs/design.md's example: range 9:0–40:0 → lines 10–41.
		{"range", []Source{{Type: "reference", URI: "file:///ws/cart/service.go", Range: lspRange(9, 40)}},
			[]pack.Source{{Type: "reference", Path: "/ws/cart/service.go", StartLine: 10, EndLine: 41}}, ""},
		{"one line", []Source{{Type: "reference", URI: "file:///ws/a.go", Range: lspRange(0, 0)}},
			[]pack.Source{{Type: "reference", Path: "/ws/a.go", StartLine: 1, EndLine: 1}}, ""},
		{"content without uri", []Source{{Type: "reference", Label: "snippet", Content: &content}},
			[]pack.Source{{Type: "reference", Label: "snippet", Content: &content}}, ""},
		{"a tool result's uri is not read", []Source{{Type: "tool_result", Label: "t", Content: &content, URI: "untitled:1"}},
			[]pack.Source{{Type: "tool_result", Label: "t", Content: &content}}, ""},
		{"non-file uri", []Source{{Type: "reference", Content: &content}, {Type: "reference", URI: "https://example.com/a.go"}}, nil, "sources[1].uri"},
		{"backwards range", []Source{{Type: "reference", URI: "file:///ws/a.go", Range: lspRange(5, 2)}}, nil, "sources[0].range"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sources(tt.in)
			if tt.field != "" {
				var pe *pack.ParamError
				if !errors.As(err, &pe) || pe.Field != tt.field {
					t.Fatalf("err = %v, want a pack.ParamError for %s", err, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sources (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPathFromURI(t *testing.T) {
	tests := []struct {
		uri, want string
		ok        bool
	}{
		{"file:///ws/a.go", "/ws/a.go", true},
		{"file://localhost/ws/a%20b.go", "/ws/a b.go", true},
		{"file:///ws/../etc/x", "/etc/x", true},
		{"untitled:Untitled-1", "", false},
		{"https://example.com/a.go", "", false},
		{"file://server/share/a.go", "", false},
		{"file:a.go", "", false},
		{"%zz", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			got, err := PathFromURI(tt.uri)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("PathFromURI(%q) = %q, %v; want %q, ok=%v", tt.uri, got, err, tt.want, tt.ok)
			}
		})
	}
}
