package safeio

import (
	"context"
	"io/fs"
	"syscall"
	"time"
)

// readDirect is ReadFile after the path's check, on a bare descriptor:
// the same open flags (O_NONBLOCK, O_NOFOLLOW with NoFollow), the same
// checks on the descriptor (a regular file, the file pre measured, the one
// opts.Expect names with its size and time) and the same reads (blocks of
// blockSize, ctx checked between them, max+1 bytes at most), without an
// *os.File: no registration with the runtime's poller (an epoll_ctl call
// that fails for a regular file) and no finalizer: 8 % less CPU over
// Go's src (docs/benchmarks.md, "fifth pass, first6"); buf as
// ReadFileInto's. ok is always true on Linux.
func readDirect(ctx context.Context, path string, max int64, pre fs.FileInfo, opts Options, buf []byte) (data []byte, ok bool, err error) {
	flags := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if opts.NoFollow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	for {
		fd, err = syscall.Open(path, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, true, openFailed(path, &fs.PathError{Op: "open", Path: path, Err: err}, opts)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, true, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := checkStat(&st, pre, opts.Expect); err != nil {
		return nil, true, err
	}
	data, err = readFD(ctx, fd, path, max, st.Size, buf)
	return data, true, err
}

// fileID is the device and inode fi names: a FileID's, else its stat
// result's.
func fileID(fi fs.FileInfo) (dev, ino uint64, ok bool) {
	if id, isID := fi.(FileID); isID {
		dev, ino = id.FileID()
		return dev, ino, true
	}
	return sysFileID(fi)
}

// fstat is syscall.Fstat, retried on EINTR.
func fstat(fd int, st *syscall.Stat_t) error {
	for {
		err := syscall.Fstat(fd, st)
		if err != syscall.EINTR {
			return err
		}
	}
}

// checkStat applies ReadFile's checks on the descriptor to its stat st: a
// regular file, the file pre measured (device and inode), and the file
// expect names (when not nil) with expect's size and modification time.
func checkStat(st *syscall.Stat_t, pre, expect fs.FileInfo) error {
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return &NotRegularError{Kind: Kind(modeOf(st.Mode))}
	}
	dev, ino := uint64(st.Dev), st.Ino //nolint:unconvert // Dev's type differs by architecture
	if d, i, ok := fileID(pre); !ok || d != dev || i != ino {
		return ErrChanged
	}
	if expect == nil {
		return nil
	}
	d, i, ok := fileID(expect)
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)) //nolint:unconvert // Timespec's types differ by architecture
	if !ok || d != dev || i != ino || expect.Size() != st.Size || !expect.ModTime().Equal(mtime) {
		return ErrChanged
	}
	return nil
}

// modeOf is the fs.FileMode type bits of a stat mode, for Kind.
func modeOf(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// readFD reads the descriptor fd to its end as readAll does: at most
// limit+1 bytes (more is a *TooLargeError), in blocks of at most blockSize
// with ctx checked before each, into buf when its capacity holds size
// (what fstat said, never trusted) and one byte more, else into a buffer
// of that size.
func readFD(ctx context.Context, fd int, path string, limit, size int64, buf []byte) ([]byte, error) {
	if want := min(max(size, 0), limit) + 1; int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			grow := min(max(len(buf), 512), blockSize*16)
			buf = append(buf, make([]byte, grow)...)[:len(buf)]
		}
		chunk := buf[len(buf):cap(buf)]
		if len(chunk) > blockSize {
			chunk = chunk[:blockSize]
		}
		if left := limit + 1 - int64(len(buf)); int64(len(chunk)) > left {
			chunk = chunk[:left]
		}
		n, err := syscall.Read(fd, chunk)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return buf, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return buf, &TooLargeError{Cap: limit, Size: int64(len(buf))}
		}
		if n == 0 {
			return buf, nil
		}
	}
}
