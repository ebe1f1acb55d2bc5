//go:build linux

package index

import (
	"io/fs"
	"syscall"
)

// sysStat returns the inode and the change time (ns) of fi when the
// platform's stat result carries them.
func sysStat(fi fs.FileInfo) (ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Nano()
	}
	return 0, 0
}
