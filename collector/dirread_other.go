//go:build !linux

package collector

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openedDir is a directory a walk reads: on this platform by path
// (os.ReadDir and os.Stat).
type openedDir struct{ abs string }

// openDir names the directory abs; it is opened by read.
func openDir(abs string) (*openedDir, error) { return &openedDir{abs: abs}, nil }

func (d *openedDir) close() {}

// read returns the directory's entries sorted by name.
func (d *openedDir) read() ([]dirEntry, error) {
	des, err := os.ReadDir(d.abs)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(des))
	for i, e := range des {
		out[i] = dirEntry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}

// statEntry is os.Stat of the entry name.
func (d *openedDir) statEntry(name string) (fs.FileInfo, error) {
	return os.Stat(filepath.Join(d.abs, name))
}
