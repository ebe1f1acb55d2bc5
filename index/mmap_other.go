//go:build !unix

package index

import (
	"io"
	"os"
)

// mapFile reads f into memory where mmap is not available.
func mapFile(f *os.File, size int) (data []byte, release func() error, err error) {
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}

// dropPages: a copy in memory has no pages to drop.
func dropPages([]byte) {}
