package config

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDiscover(t *testing.T) {
	top := t.TempDir()
	sub := filepath.Join(top, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(FilePath(top)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(FilePath(top), []byte("context: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirAsFile := filepath.Join(top, "d")
	if err := os.MkdirAll(FilePath(dirAsFile), 0o755); err != nil { // a directory where the file would be
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		dir       string
		upward    bool
		wantPath  string
		wantFound bool
	}{
		{"own file", top, false, FilePath(top), true},
		{"own file, upward", top, true, FilePath(top), true},
		{"a server's root without one", sub, false, FilePath(sub), false},
		{"the command line from a subdirectory", sub, true, FilePath(top), true},
		{"a directory is not the file", dirAsFile, false, FilePath(dirAsFile), false},
		{"a directory is passed over upward", dirAsFile, true, FilePath(top), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, found := Discover(tt.dir, tt.upward)
			if path != tt.wantPath || found != tt.wantFound {
				t.Errorf("Discover(%s, %v) = %s, %v; want %s, %v", tt.dir, tt.upward, path, found, tt.wantPath, tt.wantFound)
			}
		})
	}
}
