//go:build unix

package collector

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading without following a final symlink
// and without blocking on a FIFO that replaced the file after it was
// measured.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
