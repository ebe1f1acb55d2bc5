// Package safeio reads files that come from an untrusted workspace: a cloned
// repository can ship a FIFO, a device or a symlink to /dev/zero where a
// config file or a source is expected. Start with [ReadFile].
//
// Every read here opens the file without blocking (O_NONBLOCK), checks what
// was opened on the descriptor itself (fstat, not the path, so a file swapped
// between the check and the open is caught), refuses anything that is not a
// regular file, reads at most the cap plus one byte (never trusting the size
// stat reports: /dev/zero and /proc files say 0) and checks the context
// between blocks, so a read can be cancelled.
package safeio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// ErrNotRegular is returned (wrapped in a *NotRegularError) for a FIFO, a
// socket, a device, a directory or any other file that is not regular.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned (wrapped in a *TooLargeError) when a file holds more
// bytes than the cap.
var ErrTooLarge = errors.New("over the size cap")

// NotRegularError names the kind of file that was refused.
type NotRegularError struct {
	Kind string // "named pipe", "device", "socket", "directory", …
}

func (e *NotRegularError) Error() string { return "not a regular file (" + e.Kind + ")" }

// Unwrap makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// TooLargeError reports a file over the cap. Size is the size stat
// reported when that was already over the cap, else how much was read
// before giving up (cap+1): at least that much.
type TooLargeError struct {
	Cap, Size int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("more than the %d-byte cap", e.Cap)
}

// Unwrap makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// Options tune a read.
type Options struct {
	// NoFollow refuses a final symlink (O_NOFOLLOW): the caller resolved
	// and checked the path itself.
	NoFollow bool
	// Expect, when not nil, is what the caller measured before: the opened
	// file must be the same file (os.SameFile) with the same size and
	// modification time, else ErrChanged.
	Expect fs.FileInfo
	// Listed, with NoFollow and an Expect that is a regular file of at
	// most the cap, says Expect is the caller's own check of path, made
	// without following its final link (a listing's lstat): the path is
	// then not stat'ed again before it is opened. The opened descriptor is
	// checked as always (a regular file, Expect's file, size and time), so
	// a path swapped since the listing is refused, never read; only the
	// check before the open is the listing's. A scan of every listed file
	// (collector's ScanRaw) saves a path lookup per file: on the 100K
	// tree 100,000 lstat calls, about 8 % of a first pack's answer
	// (docs/benchmarks.md, "ninth pass, first12").
	Listed bool
}

// FileID is a compact [fs.FileInfo] (a running server's kept listing)
// that names its file by device and inode, as its stat result said;
// [Options.Expect] may be one.
type FileID interface {
	FileID() (dev, ino uint64)
}

// sameFile is os.SameFile, with expect possibly a FileID.
func sameFile(expect, info fs.FileInfo) bool {
	if id, ok := expect.(FileID); ok {
		dev, ino := id.FileID()
		d, i, ok := sysFileID(info)
		return ok && d == dev && i == ino
	}
	return os.SameFile(expect, info)
}

// ErrChanged is returned when the opened file is not the one measured.
var ErrChanged = errors.New("file changed while being read")

// blockSize is how much is read between two checks of the context.
const blockSize = 64 << 10

// ReadFile reads the regular file at path, at most max bytes. It refuses
// a path that is not a regular file before opening it where the path says
// so (no side effect of opening a device), opens it non-blocking, checks the
// descriptor again, and reads in blocks, checking ctx between them. A file
// with more than max bytes is an error wrapping ErrTooLarge (whatever stat
// said); a FIFO, socket, device or directory an error wrapping
// ErrNotRegular. Errors from the file system are *fs.PathError values.
func ReadFile(ctx context.Context, path string, max int64, opts Options) ([]byte, error) {
	return ReadFileInto(ctx, path, max, opts, nil)
}

// ReadFileInto is ReadFile reading into buf when the file fits in its
// capacity (a caller that reads many files and keeps none of them reuses
// one buffer: no allocation and no fresh pages per file); the text
// returned may be buf's memory.
func ReadFileInto(ctx context.Context, path string, max int64, opts Options, buf []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pre, err := preCheck(path, max, opts)
	if err != nil {
		return nil, err
	}
	if data, ok, err := readDirect(ctx, path, max, pre, opts, buf); ok {
		return data, err
	}
	f, err := open(path, opts.NoFollow)
	if err != nil {
		return nil, openFailed(path, err, opts)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Kind: Kind(info.Mode())}
	}
	if !sameFile(pre, info) {
		return nil, ErrChanged
	}
	if e := opts.Expect; e != nil && (!sameFile(e, info) || e.Size() != info.Size() || !e.ModTime().Equal(info.ModTime())) {
		return nil, ErrChanged
	}
	return readAll(ctx, f, max, info.Size())
}

// preCheck is the check of path before it is opened: Expect when the
// caller says it listed path (Options.Listed), else statRegular.
func preCheck(path string, max int64, opts Options) (fs.FileInfo, error) {
	e := opts.Expect
	if !opts.Listed || !opts.NoFollow || e == nil || !e.Mode().IsRegular() {
		return statRegular(path, max, opts.NoFollow)
	}
	if e.Size() > max {
		return nil, &TooLargeError{Cap: max, Size: e.Size()}
	}
	return e, nil
}

// openFailed is the error of an open of path that failed with err. A
// listed path (Options.Listed: not stat'ed before the open) is stat'ed
// now, so that what the stat before the open would have refused (a final
// symlink, a socket, a file gone) fails as it would have; else err.
func openFailed(path string, err error, opts Options) error {
	if opts.Listed {
		if _, serr := statRegular(path, math.MaxInt64, opts.NoFollow); serr != nil {
			return serr
		}
	}
	return err
}

// statRegular stats path (not following a final link with noFollow) and
// refuses what is not a regular file of at most max bytes, before it is
// opened.
func statRegular(path string, max int64, noFollow bool) (fs.FileInfo, error) {
	stat := os.Stat
	if noFollow {
		stat = os.Lstat
	}
	pre, err := stat(path)
	switch {
	case err != nil:
		return nil, err
	case pre.Mode()&fs.ModeSymlink != 0 && noFollow:
		return nil, &NotRegularError{Kind: "symlink"}
	case !pre.Mode().IsRegular():
		return nil, &NotRegularError{Kind: Kind(pre.Mode())}
	case pre.Size() > max:
		return nil, &TooLargeError{Cap: max, Size: pre.Size()}
	}
	return pre, nil
}

// ReadAll reads r to its end, at most max bytes, checking ctx between blocks
// of 64 KiB. More than max bytes is a *TooLargeError; the bytes read so far
// are returned with it. A reader that blocks (a pipe) is not interrupted by
// ctx: use [ReadAllContext] for those.
func ReadAll(ctx context.Context, r io.Reader, max int64) ([]byte, error) {
	return readAll(ctx, r, max, 0)
}

// readAll is ReadAll with the size the reader is expected to hold (a
// file's stat; 0: unknown): the buffer starts at that size and one byte
// more (so the read that meets the end needs no room), instead of growing
// to it by copies.
func readAll(ctx context.Context, r io.Reader, max, size int64) ([]byte, error) {
	lr := io.LimitReader(r, max+1)
	var buf []byte
	if size > 0 {
		buf = make([]byte, 0, min(size, max)+1)
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			grow := len(buf)
			if grow < 512 {
				grow = 512
			}
			if grow > blockSize*16 {
				grow = blockSize * 16
			}
			buf = append(buf, make([]byte, grow)...)[:len(buf)]
		}
		chunk := buf[len(buf):cap(buf)]
		if len(chunk) > blockSize {
			chunk = chunk[:blockSize]
		}
		n, err := lr.Read(chunk)
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return buf, &TooLargeError{Cap: max, Size: int64(len(buf))}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// ReadAllContext is ReadAll for a reader that may block forever (stdin, a
// pipe): the read runs in its own goroutine and ReadAllContext returns
// ctx.Err() as soon as ctx ends. The goroutine stays blocked until the
// reader yields; callers use it where the process is about to exit anyway.
func ReadAllContext(ctx context.Context, r io.Reader, max int64) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := ReadAll(ctx, r, max)
		done <- result{data, err}
	}()
	select {
	case res := <-done:
		return res.data, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Kind names a file mode that is not regular.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	}
	return "irregular file"
}
