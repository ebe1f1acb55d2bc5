package index

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sync"
)

// sideFile is the envelope of the small files kept beside a root's
// segments (refused.tbl, map.plan): magic (8 bytes), version (4), record
// count (4), the content rules' version hash (8) and the key's id (8) at
// the start of a header of hdr bytes, then the records, then an
// HMAC-SHA256 under the per-user key, over all before it and the file's
// label. It is written whole (a temporary file renamed into place) and
// read only when every check passes; a file that fails one is ignored.
type sideFile struct {
	magic   string // 8 bytes
	version uint32
	hdr     int    // bytes before the records (at least 32)
	label   string // what the MAC is taken under
	temp    string // the temporary file's pattern
	what    string // what errors call it
}

// sideMAC is the size of a side file's MAC.
const sideMAC = sha256.Size

// start returns f's header for n records and the rules' version vh, with
// room for size more bytes and the MAC.
func (f sideFile) start(k *keys, vh uint64, n, size int) []byte {
	b := make([]byte, f.hdr, f.hdr+size+sideMAC)
	copy(b, f.magic)
	le.PutUint32(b[8:], f.version)
	le.PutUint32(b[12:], uint32(n))
	le.PutUint64(b[16:], vh)
	le.PutUint64(b[24:], k.id)
	return b
}

// sum is the MAC of a file's bytes b.
func (f sideFile) sum(k *keys, b []byte) []byte {
	m := hmac.New(sha256.New, k.mac)
	io.WriteString(m, f.label)
	m.Write(b)
	return m.Sum(nil)
}

// write appends b's MAC and writes the whole as p in dir: a temporary
// file renamed into place, so that a reader never sees a part of it.
func (f sideFile) write(dir, p string, k *keys, b []byte) error {
	return f.writeParts(dir, p, k, b)
}

// writeParts writes the parts one after another, then the MAC of their
// concatenation, as p in dir (as write does, without joining the parts
// into one buffer first).
func (f sideFile) writeParts(dir, p string, k *keys, parts ...[]byte) error {
	return f.writeFrom(dir, p, k, nil, -1, func(w io.Writer) error {
		for _, b := range parts {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeFrom writes head, then what body writes (size bytes; -1: any),
// then the MAC of both, as p in dir, taking the MAC as the bytes go by (a
// map summary's body, tens of MB, is never whole in memory); nothing is
// written when body fails or writes another size.
func (f sideFile) writeFrom(dir, p string, k *keys, head []byte, size int64, body func(io.Writer) error) error {
	m := hmac.New(sha256.New, k.mac)
	io.WriteString(m, f.label)
	tmp, err := os.CreateTemp(dir, f.temp)
	if err != nil {
		return fmt.Errorf("index: write %s: %w", f.what, err)
	}
	w := &countWriter{w: io.MultiWriter(tmp, m)}
	if _, err = w.Write(head); err == nil {
		err = body(w)
	}
	if err == nil && size >= 0 && w.n != int64(len(head))+size {
		err = fmt.Errorf("%d bytes written, %d announced", w.n-int64(len(head)), size)
	}
	if err == nil {
		_, err = tmp.Write(m.Sum(nil))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("index: write %s: %w", f.what, err)
	}
	return nil
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// dirLocks orders this process's reads and writes of one kind of side
// file, by index directory; another process's write is a rename, read
// whole.
type dirLocks struct{ m sync.Map }

// of returns the lock of the index directory dir.
func (l *dirLocks) of(dir string) *sync.Mutex {
	mu, _ := l.m.LoadOrStore(dir, &sync.Mutex{})
	return mu.(*sync.Mutex)
}

// read returns the records' bytes of the file p and the count its header
// gives; ok is false when there is no such file or it fails a check:
// opened without following a link and without blocking, a regular file of
// this user whose size sizeOK accepts (before anything is read), its MAC,
// magic, version, key and rules' version vh.
func (f sideFile) read(p string, k *keys, vh uint64, sizeOK func(int64) bool) (recs []byte, n int, ok bool) {
	fd, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, false
	}
	defer fd.Close()
	fi, err := fd.Stat()
	if err != nil || !ownRegular(fi) || fi.Size() < int64(f.hdr+sideMAC) || !sizeOK(fi.Size()) {
		return nil, 0, false
	}
	b := make([]byte, fi.Size())
	if _, err := io.ReadFull(fd, b); err != nil {
		return nil, 0, false
	}
	body := b[:len(b)-sideMAC]
	if !hmac.Equal(f.sum(k, body), b[len(body):]) || string(b[:8]) != f.magic ||
		le.Uint32(b[8:]) != f.version || le.Uint64(b[16:]) != vh || le.Uint64(b[24:]) != k.id {
		return nil, 0, false
	}
	return body[f.hdr:], int(le.Uint32(b[12:])), true
}

// splitRecords cuts b into n records of a head of headLen bytes and a body
// whose length sizeAt reads from the head, each body at most maxBody, and
// gives each to each (the body capped at its length); false unless all n
// fit and fill b exactly.
func splitRecords(b []byte, n, headLen, maxBody int, sizeAt func(head []byte) int, each func(head, body []byte)) bool {
	for i := 0; i < n; i++ {
		if len(b) < headLen {
			return false
		}
		head := b[:headLen]
		size := sizeAt(head)
		b = b[headLen:]
		if size < 0 || size > maxBody || size > len(b) {
			return false
		}
		each(head, b[:size:size])
		b = b[size:]
	}
	return len(b) == 0
}
