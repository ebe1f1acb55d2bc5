//go:build linux

package safeio

import (
	"io/fs"
	"syscall"
)

// sysFileID returns the device and inode of fi's stat result.
func sysFileID(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino, true //nolint:unconvert // Dev's type differs by architecture
	}
	return 0, 0, false
}
