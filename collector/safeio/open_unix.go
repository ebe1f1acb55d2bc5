//go:build unix

package safeio

import (
	"os"
	"syscall"
)

// open opens path for reading without blocking on a FIFO or a device that
// replaced the file after it was measured, and, with noFollow, without
// following a final symlink.
func open(path string, noFollow bool) (*os.File, error) {
	flags := os.O_RDONLY | syscall.O_NONBLOCK
	if noFollow {
		flags |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flags, 0)
}
