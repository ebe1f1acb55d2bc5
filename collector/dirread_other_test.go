//go:build !linux

package collector

import (
	"io/fs"
	"os"
)

// sameFileInfo is os.SameFile (the walk's stat results are os's here).
func sameFileInfo(a, b fs.FileInfo) bool { return os.SameFile(a, b) }
