//go:build unix

package safeio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bounded runs f and fails the test if it does not return within d: a
// hostile file must make the read fail, never hang it.
func bounded(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v (hang)", d)
	}
}

func TestReadFileHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, "/dev/zero", filepath.Join(dir, "zero-link"))
	mustSymlink(t, fifo, filepath.Join(dir, "fifo-link"))
	regular := filepath.Join(dir, "ok.txt")
	if err := os.WriteFile(regular, []byte("hello\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustSymlink(t, regular, filepath.Join(dir, "ok-link"))
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	tests := []struct {
		name     string
		path     string
		opts     Options
		wantErr  error
		wantKind string
		want     string
	}{
		{name: "fifo", path: fifo, wantErr: ErrNotRegular, wantKind: "named pipe"},
		{name: "fifo via symlink", path: filepath.Join(dir, "fifo-link"), wantErr: ErrNotRegular, wantKind: "named pipe"},
		{name: "link to /dev/zero", path: filepath.Join(dir, "zero-link"), wantErr: ErrNotRegular, wantKind: "character device"},
		{name: "/dev/zero", path: "/dev/zero", wantErr: ErrNotRegular, wantKind: "character device"},
		{name: "/dev/null", path: "/dev/null", wantErr: ErrNotRegular, wantKind: "character device"},
		{name: "socket", path: sock, wantErr: ErrNotRegular, wantKind: "socket"},
		{name: "directory", path: dir, wantErr: ErrNotRegular, wantKind: "directory"},
		{name: "symlink refused with NoFollow", path: filepath.Join(dir, "ok-link"), opts: Options{NoFollow: true}, wantErr: ErrNotRegular, wantKind: "symlink"},
		{name: "symlink followed", path: filepath.Join(dir, "ok-link"), want: "hello\n"},
		{name: "regular", path: regular, want: "hello\n"},
		{name: "over the cap", path: big, wantErr: ErrTooLarge},
		{name: "missing", path: filepath.Join(dir, "nope"), wantErr: os.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bounded(t, 5*time.Second, func() {
				data, err := ReadFile(context.Background(), tt.path, 1000, tt.opts)
				if tt.wantErr == nil {
					if err != nil || string(data) != tt.want {
						t.Errorf("ReadFile = %q, %v; want %q", data, err, tt.want)
					}
					return
				}
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ReadFile error = %v, want %v", err, tt.wantErr)
				}
				var nr *NotRegularError
				if tt.wantKind != "" && (!errors.As(err, &nr) || nr.Kind != tt.wantKind) {
					t.Errorf("ReadFile error = %v, want kind %q", err, tt.wantKind)
				}
			})
		})
	}
}

// TestReadAllNeverTrustsSize reads a "regular" file whose stat size is 0
// but that yields far more (/proc files do): the cap still holds.
func TestReadAllNeverTrustsSize(t *testing.T) {
	bounded(t, 5*time.Second, func() {
		data, err := ReadAll(context.Background(), zeroReader{}, 4096)
		if !errors.Is(err, ErrTooLarge) || len(data) != 4097 {
			t.Errorf("ReadAll(endless) = %d bytes, %v; want 4097 bytes and ErrTooLarge", len(data), err)
		}
	})
}

func TestReadAllCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bounded(t, 5*time.Second, func() {
		if _, err := ReadAll(ctx, zeroReader{}, 1<<40); !errors.Is(err, context.Canceled) {
			t.Errorf("ReadAll error = %v, want context.Canceled", err)
		}
	})
}

func TestReadAllContextBlockedReader(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	bounded(t, 5*time.Second, func() {
		if _, err := ReadAllContext(ctx, r, 100); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("ReadAllContext error = %v, want context.DeadlineExceeded", err)
		}
	})
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestReadFileExpect: with Options.Expect, a file replaced or changed
// since the caller measured it is refused with ErrChanged; a canceled
// context reads nothing.
func TestReadFileExpect(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	for _, p := range []string{path, other} {
		if err := os.WriteFile(p, []byte("hello\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stat := func(p string) os.FileInfo {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	otherFile := stat(other)
	if err := os.WriteFile(other, []byte("hello, longer\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	grown := stat(path) // measured before the file below grows
	if err := os.WriteFile(path, []byte("hello, grown\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	same := stat(path)
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		expect  os.FileInfo
		wantErr error
	}{
		{"as measured", context.Background(), same, nil},
		{"another file", context.Background(), otherFile, ErrChanged},
		{"changed since", context.Background(), grown, ErrChanged},
		{"canceled", canceled, same, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := ReadFile(tt.ctx, path, 1000, Options{Expect: tt.expect})
			if !errors.Is(err, tt.wantErr) || (err == nil && string(data) != "hello, grown\n") {
				t.Errorf("ReadFile = %q, %v; want error %v", data, err, tt.wantErr)
			}
		})
	}
}

// TestReadAllSizeHint: the size a file is expected to hold only sizes the
// buffer; what is read, and the cap, are ReadAll's whatever the hint.
func TestReadAllSizeHint(t *testing.T) {
	data := strings.Repeat("0123456789", 30000) // 300,000 bytes: several blocks
	for _, c := range []struct {
		size, max int64
		tooLarge  bool
	}{
		{0, 1 << 20, false}, {300000, 1 << 20, false}, {10, 1 << 20, false}, {1 << 19, 1 << 20, false},
		{300000, 1000, true}, {500, 1000, true},
	} {
		got, err := readAll(context.Background(), strings.NewReader(data), c.max, c.size)
		want, werr := ReadAll(context.Background(), strings.NewReader(data), c.max)
		if string(got) != string(want) || (err != nil) != (werr != nil) || errors.Is(err, ErrTooLarge) != c.tooLarge {
			t.Errorf("size %d, max %d: %d bytes, %v; ReadAll: %d bytes, %v", c.size, c.max, len(got), err, len(want), werr)
		}
	}
}

// idInfo is a compact Expect (as a server's kept listing holds): the
// file's identity by device and inode, its size and time.
type idInfo struct {
	os.FileInfo
	dev, ino uint64
}

func (i idInfo) FileID() (dev, ino uint64) { return i.dev, i.ino }

// TestReadFileSizes: ReadFile (on Linux a bare descriptor, direct_linux.go)
// returns what ReadAll of the same file returns, and the same cap error,
// for sizes around the block size and the cap, with or without an Expect
// (a FileInfo or a compact FileID).
func TestReadFileSizes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		size, max int
	}{
		{1, 10}, {10, 10}, {11, 10}, {blockSize - 1, 1 << 20}, {blockSize, 1 << 20}, {blockSize + 1, 1 << 20},
		{3*blockSize + 7, 1 << 20}, {3*blockSize + 7, 3 * blockSize}, {1 << 20, 1 << 20}, {1<<20 + 1, 1 << 20},
	} {
		path := filepath.Join(dir, fmt.Sprintf("f%d", c.size))
		data := make([]byte, c.size)
		for i := range data {
			data[i] = byte('a' + i%26)
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := ReadAll(context.Background(), bytes.NewReader(data), int64(c.max))
		var id idInfo
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			id = idInfo{fi, uint64(st.Dev), st.Ino} //nolint:unconvert // Dev's type differs by architecture
		}
		for _, opts := range []Options{{}, {NoFollow: true, Expect: fi}, {NoFollow: true, Expect: id}} {
			if opts.Expect == (idInfo{}) {
				continue
			}
			got, err := ReadFile(context.Background(), path, int64(c.max), opts)
			if errors.Is(werr, ErrTooLarge) {
				if !errors.Is(err, ErrTooLarge) {
					t.Errorf("size %d, cap %d: err %v, want ErrTooLarge", c.size, c.max, err)
				}
				continue
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("size %d, cap %d, %T: %d bytes, %v; want %d bytes", c.size, c.max, opts.Expect, len(got), err, len(want))
			}
		}
	}
}

// bareID is idInfo without a stat result (Sys nil): only FileID names
// its file.
type bareID struct{ idInfo }

func (bareID) Sys() any { return nil }

// TestReadFileListed: a read whose Expect is the listing's own lstat
// (Options.Listed, no stat before the open) answers as a read that stats
// the path first, whatever the path became since it was listed — a FIFO,
// a socket, a directory, a link to /dev/zero or to the file itself,
// another file, nothing — and never hangs or reads what it refuses.
func TestReadFileListed(t *testing.T) {
	swaps := []struct {
		name    string
		swap    func(t *testing.T, p string)
		wantErr error
	}{
		{"as listed", func(*testing.T, string) {}, nil},
		{"fifo", func(t *testing.T, p string) { mustRemove(t, p); mustMkfifo(t, p) }, ErrNotRegular},
		{"socket", func(t *testing.T, p string) {
			mustRemove(t, p)
			l, err := net.Listen("unix", p)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Close() })
		}, ErrNotRegular},
		{"directory", func(t *testing.T, p string) { mustRemove(t, p); mustMkdir(t, p) }, ErrNotRegular},
		{"link to /dev/zero", func(t *testing.T, p string) { mustRemove(t, p); mustSymlink(t, "/dev/zero", p) }, ErrNotRegular},
		{"link to a regular file", func(t *testing.T, p string) {
			other := p + ".other"
			if err := os.Rename(p, other); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, other, p)
		}, ErrNotRegular},
		{"another file", func(t *testing.T, p string) {
			mustRemove(t, p)
			if err := os.WriteFile(p, []byte("hello\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrChanged},
		{"grown", func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("hello, grown\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrChanged},
		{"removed", func(t *testing.T, p string) { mustRemove(t, p) }, os.ErrNotExist},
	}
	for _, sw := range swaps {
		for _, compact := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/compact=%v", sw.name, compact), func(t *testing.T) {
				var errs [2]error
				for k, listed := range []bool{false, true} {
					p := filepath.Join(t.TempDir(), "f.txt")
					if err := os.WriteFile(p, []byte("hello\n"), 0o600); err != nil {
						t.Fatal(err)
					}
					var expect os.FileInfo
					expect, err := os.Lstat(p)
					if err != nil {
						t.Fatal(err)
					}
					if compact {
						st := expect.Sys().(*syscall.Stat_t)
						expect = bareID{idInfo{FileInfo: expect, dev: uint64(st.Dev), ino: st.Ino}} //nolint:unconvert // Dev's type differs by architecture
					}
					sw.swap(t, p)
					bounded(t, 5*time.Second, func() {
						data, err := ReadFileInto(context.Background(), p, 1000, Options{NoFollow: true, Expect: expect, Listed: listed}, make([]byte, 0, 64))
						errs[k] = err
						if sw.wantErr == nil && (err != nil || string(data) != "hello\n") {
							t.Errorf("listed=%v: ReadFileInto = %q, %v; want the text", listed, data, err)
						}
						if sw.wantErr != nil && (!errors.Is(err, sw.wantErr) || data != nil) {
							t.Errorf("listed=%v: ReadFileInto = %q, %v; want no text and %v", listed, data, err, sw.wantErr)
						}
					})
				}
				var nr0, nr1 *NotRegularError
				if errors.As(errs[0], &nr0) != errors.As(errs[1], &nr1) || (nr0 != nil && nr0.Kind != nr1.Kind) {
					t.Errorf("listed read's error %v, a stat before the open gives %v", errs[1], errs[0])
				}
			})
		}
	}
}

// TestReadFileListedOverCap: a listed file over the cap is refused by its
// listed size, as the stat before the open refuses it.
func TestReadFileListedOverCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 2000)), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(context.Background(), p, 1000, Options{NoFollow: true, Expect: fi, Listed: true})
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 2000 {
		t.Errorf("ReadFile error = %v, want a TooLargeError of size 2000", err)
	}
}

func mustRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

func mustMkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
}
