//go:build linux

package collector

import (
	"io/fs"
	"strings"
	"syscall"
	"time"
)

// keptStat is a listed file's stat as a kept listing holds it: what the
// packs and the index ask of it (name, size, mode, mtime; device, inode
// and ctime through Sys) in 64 bytes, where os's stat result holds the
// whole stat_t and the path it was asked by (about 320 bytes a file on
// the 100K tree; issue 24, server5).
type keptStat struct {
	name               string // the base of the file's absolute path
	size, mtime, ctime int64  // mtime and ctime in ns
	dev, ino           uint64
	mode               fs.FileMode
}

// compactStat returns info as a keptStat when it is os's stat result of
// the file at abs; else info.
func compactStat(abs string, info fs.FileInfo) fs.FileInfo {
	if _, kept := info.(*keptStat); kept {
		return info
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return info
	}
	name := info.Name()
	if strings.HasSuffix(abs, name) {
		name = abs[len(abs)-len(name):] // no second string held
	}
	return &keptStat{name: name, size: info.Size(), mtime: info.ModTime().UnixNano(), ctime: st.Ctim.Nano(),
		dev: uint64(st.Dev), ino: st.Ino, mode: info.Mode()} //nolint:unconvert // Dev's type differs by architecture
}

func (s *keptStat) Name() string       { return s.name }
func (s *keptStat) Size() int64        { return s.size }
func (s *keptStat) Mode() fs.FileMode  { return s.mode }
func (s *keptStat) ModTime() time.Time { return time.Unix(0, s.mtime) }
func (s *keptStat) IsDir() bool        { return s.mode.IsDir() }

// FileID is the file's device and inode (safeio.FileID).
func (s *keptStat) FileID() (dev, ino uint64) { return s.dev, s.ino }

// StatID is the file's inode and change time in ns (what the index keys a
// file's entry by besides size, mtime and mode), without the stat_t Sys
// builds.
func (s *keptStat) StatID() (ino uint64, ctime int64) { return s.ino, s.ctime }

// Sys is a stat_t with what keptStat keeps (device, inode, size, mtime,
// ctime); the rest is zero.
func (s *keptStat) Sys() any {
	return &syscall.Stat_t{Dev: s.dev, Ino: s.ino, Size: s.size,
		Mtim: syscall.NsecToTimespec(s.mtime), Ctim: syscall.NsecToTimespec(s.ctime)}
}
