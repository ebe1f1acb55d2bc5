package chunker

import "testing"

func TestLanguage(t *testing.T) {
	tests := []struct {
		path, lang, fence string
	}{
		{"cart/service.go", "go", "go"},
		{"a/b.PY", "python", "python"},
		{"x.pyi", "python", "python"},
		{"app.js", "javascript", "javascript"},
		{"app.mjs", "javascript", "javascript"},
		{"app.jsx", "javascript", "javascript"},
		{"app.ts", "typescript", "typescript"},
		{"app.tsx", "tsx", "tsx"},
		{"A.java", "java", "java"},
		{"lib.rs", "rust", "rust"},
		{"x.c", "c", "c"},
		{"x.h", "c", "c"},
		{"x.cc", "cpp", "cpp"},
		{"x.hpp", "cpp", "cpp"},
		{"A.cs", "csharp", "csharp"},
		{"README.md", "markdown", "markdown"},
		{"config.yml", "", "yaml"},
		{"data.json", "", "json"},
		{"run.sh", "", "sh"},
		{"Cargo.toml", "", "toml"},
		{"q.sql", "", "sql"},
		{"index.html", "", "html"},
		{"s.css", "", "css"},
		{"Dockerfile", "", "dockerfile"},
		{"Makefile", "", "makefile"},
		{"go.mod", "", "go-mod"},
		{"LICENSE", "", ""},
		{"archive.tar.gz", "", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := Language(tt.path); got != tt.lang {
				t.Errorf("Language(%q) = %q, want %q", tt.path, got, tt.lang)
			}
			if got := FenceLanguage(tt.path); got != tt.fence {
				t.Errorf("FenceLanguage(%q) = %q, want %q", tt.path, got, tt.fence)
			}
		})
	}
}

// TestGrammarsLoad parses a line of every language with a grammar.
func TestGrammarsLoad(t *testing.T) {
	for id, g := range grammars {
		t.Run(id, func(t *testing.T) {
			tree, err := g.parse(t.Context(), nil, []byte("x\n"))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			if tree.RootNode() == nil {
				t.Fatal("no root node")
			}
		})
	}
}
