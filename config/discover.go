package config

import (
	"os"
	"path/filepath"
)

// Discover is the one rule that finds a workspace's configuration file,
// shared by every front end: the file at FilePath(dir) or, with upward,
// the nearest .agent/config.yml in dir's parents (the command line, which
// may run in a subdirectory). The servers do not search upward: a
// workspace's configuration is its first root's, and they watch that path
// for the file to appear. Discover returns the path and whether a file is
// there; when none is, the path is dir's own.
func Discover(dir string, upward bool) (path string, found bool) {
	own := FilePath(dir)
	for d := dir; ; {
		p := FilePath(d)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, true
		}
		parent := filepath.Dir(d)
		if !upward || parent == d {
			return own, false
		}
		d = parent
	}
}
