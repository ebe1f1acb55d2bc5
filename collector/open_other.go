//go:build !unix

package collector

import "os"

// openNoFollow opens a file for reading. Without O_NOFOLLOW the caller's
// os.SameFile check against the measured file is the only guard.
func openNoFollow(path string) (*os.File, error) {
	return os.Open(path)
}
