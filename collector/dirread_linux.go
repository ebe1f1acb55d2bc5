//go:build linux

package collector

import (
	"encoding/binary"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// openedDir is a directory opened for a walk: its entries are read with
// getdents (name and type from the listing, no stat) and each entry is
// stated relative to the open descriptor (fstatat), so the kernel looks up
// one name per stat instead of every component of an absolute path
// (issue 24, warmwalk). The stat result is a [keptStat] (64 bytes) rather
// than os's (the whole stat_t and the path, about 320 bytes), which is
// what a kept listing holds anyway.
type openedDir struct {
	abs string
	fd  int
}

// openDir opens the directory abs for reading its entries.
func openDir(abs string) (*openedDir, error) {
	for {
		fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_DIRECTORY, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: abs, Err: err}
		}
		return &openedDir{abs: abs, fd: fd}, nil
	}
}

// close releases the descriptor.
func (d *openedDir) close() { unix.Close(d.fd) }

// direntBufs holds getdents buffers between directories.
var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// read returns the directory's entries but "." and "..", sorted by name as
// os.ReadDir sorts them. An entry whose type the listing does not give
// (DT_UNKNOWN) is lstat'ed for it, as os.ReadDir does; one that vanished
// meanwhile is left out.
func (d *openedDir) read() ([]dirEntry, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var out []dirEntry
	for {
		n, err := unix.ReadDirent(d.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: d.abs, Err: err}
		}
		if n <= 0 {
			break
		}
		out, err = d.parse(buf[:n], out)
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

// parse appends the entries of one getdents result (linux_dirent64
// records: inode, offset, record length, type, NUL-terminated name).
func (d *openedDir) parse(b []byte, out []dirEntry) ([]dirEntry, error) {
	const nameOff = 19 // 8 (ino) + 8 (off) + 2 (reclen) + 1 (type)
	for len(b) >= nameOff {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < nameOff || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		ino := binary.NativeEndian.Uint64(rec[0:8])
		if ino == 0 {
			continue // a deleted entry, as os skips it
		}
		name := rec[nameOff:]
		if i := indexNUL(name); i >= 0 {
			name = name[:i]
		}
		if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
			continue
		}
		e := dirEntry{name: string(name)}
		typ, known := direntType(rec[18])
		if !known {
			info, err := d.stat(e.name, unix.AT_SYMLINK_NOFOLLOW)
			if err != nil {
				if os.IsNotExist(err) {
					continue
				}
				return nil, err
			}
			typ = info.Mode().Type()
		}
		e.typ = typ
		out = append(out, e)
	}
	return out, nil
}

// indexNUL is the index of the first NUL byte of b, -1 when none.
func indexNUL(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

// direntType is the file type a getdents record gives; false for
// DT_UNKNOWN (or a type this code does not know).
func direntType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	}
	return 0, false
}

// statEntry is os.Stat of the entry name (following a symlink), taken
// relative to the open directory.
func (d *openedDir) statEntry(name string) (fs.FileInfo, error) {
	return d.stat(name, 0)
}

// stat is fstatat(2) of name in d with flags, as a keptStat, or an
// *fs.PathError naming the whole path as os.Stat's would.
func (d *openedDir) stat(name string, flags int) (fs.FileInfo, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, flags)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			op := "stat"
			if flags&unix.AT_SYMLINK_NOFOLLOW != 0 {
				op = "lstat"
			}
			return nil, &fs.PathError{Op: op, Path: d.abs + string(os.PathSeparator) + name, Err: err}
		}
		break
	}
	return &keptStat{name: name, size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
		dev: uint64(st.Dev), ino: st.Ino, mode: statMode(st.Mode)}, nil //nolint:unconvert // Dev's type differs by architecture
}

// statMode is the fs.FileMode of a stat_t mode, as os computes it.
func statMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
