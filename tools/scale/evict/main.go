// Command evict drops the files under the given directories from the page
// cache without root, so that a read after it is a read from disk: the
// "cold disk" read floor of a first pack (issue 24, docs/benchmarks.md).
//
//	go run ./tools/scale/evict [-check] DIR...
//
// Every regular file under each DIR (symbolic links are neither followed
// nor evicted) is opened read-only and advised POSIX_FADV_DONTNEED over its
// whole length. The kernel drops the file's clean pages that no process
// maps; nothing is written to the tree. With -check it also reports the
// share of the files' pages resident in the page cache before and after
// (mincore over a read-only mapping of each file).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	check := flag.Bool("check", false, "report the resident share of the files' pages before and after")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: evict [-check] DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var total stats
	for _, dir := range flag.Args() {
		s, err := evictTree(dir, *check)
		if err != nil {
			fmt.Fprintf(os.Stderr, "evict: %v\n", err)
			os.Exit(1)
		}
		total.add(s)
	}
	fmt.Fprintf(os.Stderr, "evict: %d files, %d bytes advised DONTNEED (%d not opened)\n", total.files, total.bytes, total.failed)
	if *check {
		fmt.Fprintf(os.Stderr, "evict: resident pages %d/%d before, %d/%d after\n", total.before, total.pages, total.after, total.pages)
	}
}

// stats are what evictTree did.
type stats struct {
	files, failed int
	bytes         int64
	pages         int64 // pages of the files evicted (with -check)
	before, after int64 // of them resident before and after (with -check)
}

func (s *stats) add(o stats) {
	s.files += o.files
	s.failed += o.failed
	s.bytes += o.bytes
	s.pages += o.pages
	s.before += o.before
	s.after += o.after
}

// evictTree advises DONTNEED on every regular file under dir; a file that
// cannot be opened (permissions, gone since the listing) is counted in
// failed, not an error. The walk itself failing is an error.
func evictTree(dir string, check bool) (stats, error) {
	var s stats
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			s.failed++
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; links, devices, FIFOs left alone
		}
		n, before, after, err := evictFile(path, check)
		if err != nil {
			s.failed++
			return nil
		}
		s.files++
		s.bytes += n
		if check {
			s.pages += pagesOf(n)
			s.before += before
			s.after += after
		}
		return nil
	})
	return s, err
}

// evictFile advises DONTNEED on the regular file at path (opened without
// following a link and without blocking, so a FIFO swapped in cannot
// hang it) and returns its size and, with check, its resident pages
// before and after.
func evictFile(path string, check bool) (size, before, after int64, err error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, 0, 0, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, 0, 0, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, 0, errors.New("not a regular file")
	}
	size = st.Size
	if check {
		if before, err = resident(fd, size); err != nil {
			return 0, 0, 0, err
		}
	}
	if err := unix.Fadvise(fd, 0, 0, unix.FADV_DONTNEED); err != nil {
		return 0, 0, 0, err
	}
	if check {
		if after, err = resident(fd, size); err != nil {
			return 0, 0, 0, err
		}
	}
	return size, before, after, nil
}

// pagesOf is the number of pages a file of n bytes spans.
func pagesOf(n int64) int64 {
	ps := int64(os.Getpagesize())
	return (n + ps - 1) / ps
}

// resident counts the pages of the open file fd (size bytes) that are in
// the page cache: mincore over a shared read-only mapping, which reads
// nothing in (mincore does not fault pages).
func resident(fd int, size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	m, err := unix.Mmap(fd, 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, fmt.Errorf("mmap: %w", err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, pagesOf(size))
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(len(m)), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		return 0, fmt.Errorf("mincore: %w", e)
	}
	var n int64
	for _, v := range vec {
		n += int64(v & 1)
	}
	return n, nil
}
