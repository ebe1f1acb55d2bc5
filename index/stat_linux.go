//go:build linux

package index

import (
	"io/fs"
	"syscall"
)

// statIDer is a compact stat result (the walk's and a kept listing's,
// collector's keptStat) that gives its inode and change time without
// building a stat_t for Sys.
type statIDer interface {
	StatID() (ino uint64, ctime int64)
}

// sysStat returns the inode and the change time (ns) of fi when the
// platform's stat result carries them.
func sysStat(fi fs.FileInfo) (ino uint64, ctime int64) {
	if s, ok := fi.(statIDer); ok {
		return s.StatID()
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Nano()
	}
	return 0, 0
}
