package chunker

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutline checks the outline of a file per language: doc comments (the
// first lines) and signatures of declarations and members, bodies left
// out, imports left out, in line order.
func TestOutline(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string // the outline's lines
	}{
		{
			name: "go",
			path: "cart/service.go",
			src: lines(
				"package cart",
				"",
				"import \"errors\"",
				"",
				"// ErrEmpty is returned for an empty cart.",
				"var ErrEmpty = errors.New(\"empty\")",
				"",
				"// Service checks carts out.",
				"// It is safe for concurrent use.",
				"// More words.",
				"// And more.",
				"type Service struct {",
				"\tstore Store",
				"}",
				"",
				"// Checkout totals the cart.",
				"func (s *Service) Checkout(ctx context.Context,",
				"\tid string) (int64, error) {",
				"\titems, err := s.store.Load(ctx, id)",
				"\treturn total(items), err",
				"}",
			),
			want: []string{
				"// ErrEmpty is returned for an empty cart.",
				"var ErrEmpty = errors.New(\"empty\")",
				"// Service checks carts out.",
				"// It is safe for concurrent use.",
				"// More words.",
				"type Service struct {",
				"// Checkout totals the cart.",
				"func (s *Service) Checkout(ctx context.Context,",
				"\tid string) (int64, error) {",
			},
		},
		{
			name: "python class with decorated methods",
			path: "app/settings.py",
			src: lines(
				"import os",
				"",
				"@dataclass",
				"class Settings:",
				"    \"\"\"Settings.\"\"\"",
				"    debug: bool = False",
				"",
				"    @classmethod",
				"    def from_env(cls, env):",
				"        return cls(debug=env.get('DEBUG') == '1')",
			),
			want: []string{
				"@dataclass",
				"class Settings:",
				"    \"\"\"Settings.\"\"\"",
				"    @classmethod",
				"    def from_env(cls, env):",
			},
		},
		{
			name: "javascript tests",
			path: "test/url.test.js",
			src: lines(
				"const assert = require('assert');",
				"describe('parseUrl', () => {",
				"  it('keeps the hostname', () => {",
				"    assert.ok(parseUrl('http://a/').hostname);",
				"  });",
				"});",
			),
			want: []string{
				"const assert = require('assert');",
				"describe('parseUrl', () => {",
				"  it('keeps the hostname', () => {",
			},
		},
		{
			name: "markdown headings",
			path: "README.md",
			src:  lines("intro", "# Title", "text", "## Usage", "more text"),
			want: []string{"# Title", "## Usage"},
		},
		{"no grammar", "notes.txt", lines("a", "b"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Outline(t.Context(), tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			src := strings.Split(tt.src, "\n")
			var got []string
			last := 0
			for _, r := range rs {
				if r.Start <= last || r.End < r.Start {
					t.Errorf("ranges not ascending and disjoint: %v", rs)
				}
				last = r.End
				got = append(got, src[r.Start-1:r.End]...)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("outline (-want +got):\n%s", diff)
			}
		})
	}
}
