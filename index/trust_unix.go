//go:build unix

package index

import (
	"io/fs"
	"syscall"
)

// ownerOf returns the uid that owns fi.
func ownerOf(fi fs.FileInfo) (uid int, ok bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), true
	}
	return 0, false
}

// allocated returns the bytes the file system allocated to fi (a sparse
// file has fewer than its size).
func allocated(fi fs.FileInfo) (n int64, ok bool) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Blocks) * 512, true
	}
	return 0, false
}

// openFlags: never follow a final symlink, never block on a FIFO.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
