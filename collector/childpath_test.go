package collector

import (
	"path/filepath"
	"testing"
)

// TestChildPathIsJoin: childPath is filepath.Join for clean directory
// paths and every kind of entry name, and falls back to Join otherwise.
func TestChildPathIsJoin(t *testing.T) {
	dirs := []string{"/", "/a", "/a/b c", "/tmp/x.y/z", "rel", "rel/dir", "..", "../up", "/a/", "", "."}
	names := []string{"f.go", ".gitignore", "..x", "x..", ". ", "a b", "ü", "\x01", ".", "..", "", "a/b", "-", "[REDACTED-0]"}
	for _, d := range dirs {
		for _, n := range names {
			if got, want := childPath(d, n), filepath.Join(d, n); got != want {
				t.Errorf("childPath(%q, %q) = %q, want %q", d, n, got, want)
			}
		}
	}
}
