package mcp

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWalkBases(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"src/a/x.go": "package a\n", "docs/r.md": "# r\n", "main.go": "package main\n"})
	abs := func(p string) string { return filepath.Join(root, p) }
	tests := []struct {
		name  string
		roots []string
		globs []string
		want  []string
	}{
		{"everything", []string{root}, []string{"**"}, nil},
		{"top-level glob", []string{root}, []string{"*.go"}, nil},
		{"one directory", []string{root}, []string{"src/**/*.go"}, []string{abs("src")}},
		{"nested prefix", []string{root}, []string{"src/a/*.go"}, []string{abs("src/a")}},
		{"two directories", []string{root}, []string{"src/**", "./docs/*.md", "src/**/*.ts"}, []string{abs("src"), abs("docs")}},
		{"one glob anywhere", []string{root}, []string{"src/**", "**/*.md"}, nil},
		{"missing prefix", []string{root}, []string{"nothing/**"}, nil},
		{"parent", []string{root}, []string{"../x/**"}, nil},
		{"several roots", []string{root, t.TempDir()}, []string{"src/**"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, walkBases(tc.roots, tc.globs)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
