//go:build unix

package index

import (
	"os"
	"syscall"
)

// mapFile maps f read-only; release unmaps it.
func mapFile(f *os.File, size int) (data []byte, release func() error, err error) {
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}

// dropPages takes the pages of a mapping b out of the process's resident
// set (they stay in the page cache; the next access maps them again).
func dropPages(b []byte) {
	if len(b) > 0 {
		_ = syscall.Madvise(b, syscall.MADV_DONTNEED)
	}
}
