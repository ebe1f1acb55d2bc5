package index

import (
	"crypto/hmac"
	"crypto/sha256"
	"io"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// Map summaries (docs/index.md "Map summaries"): what a no-query pack (a
// repository map) knows of every file it ranked — per file its number of
// chunks and tokens, the keyed hashes of the words its symbol names define
// and of the identifiers it uses, and its place in the map — so that a map
// after an edit takes the unchanged files from here (found by a keyed
// stamp of their path and stat) and re-derives only the changed ones
// (pack/mapsum.go). A summary holds no path, no text and no word: paths
// and stats as keyed 64-bit SipHashes under the per-user key, words as the
// keyed hashes of mapred.tbl (MapWordHash).
//
// A root keeps one summary, sumName, beside its segments (the map of the
// last key that wrote it), at most maxSumFile bytes, written whole (a
// temporary file renamed into place) and read as map.plan is (no link
// followed, no FIFO waited on, a regular file of this user, an HMAC over
// all of it, the index's version and rules): anything else is ignored,
// and the next map writes the file again.
const (
	sumName    = "map.sum"
	sumMagic   = "ACIDXSUM"
	sumVersion = 1
	sumHeader  = 32 // magic, version, count (1), version hash, key id
	sumRecHead = 32 + 4
	maxSumBody = 1 << 30
	maxSumFile = sumHeader + sumRecHead + maxSumBody + sideMAC
)

// sumStore is the map summary of one root's index (pack.MapSumStore).
type sumStore struct {
	x  *Index
	mu *sync.Mutex
}

var _ pack.MapSums = (*Set)(nil)

// sumLocks orders this process's reads and writes of each summary file
// (by index directory).
var sumLocks dirLocks

// MapSums implements [pack.MapSums]: the summary of the root holding abs;
// nil when no index of the set holds it.
func (s *Set) MapSums(abs string) pack.MapSumStore {
	x := s.of(abs)
	if x == nil {
		return nil
	}
	return sumStore{x: x, mu: sumLocks.of(x.dir)}
}

// Stamp implements [pack.MapSumStore]: a keyed hash of the file's paths
// and stat (size, modification and change times, inode, mode); false
// when it is no regular file or changed within racyWindow.
func (ss sumStore) Stamp(f collector.FileRef) (uint64, bool) {
	st, ok := statOf(f.Info)
	if !ok || ss.x.now().UnixNano()-max(st.mtime, st.ctime) < int64(racyWindow) {
		return 0, false
	}
	bp := stampBufs.Get().(*[]byte)
	defer stampBufs.Put(bp)
	b := append((*bp)[:0], "map sum stamp\x00"...)
	b = append(b, f.Abs...)
	b = append(b, 0)
	b = append(b, f.Path...)
	b = append(b, 0)
	b = le.AppendUint64(b, uint64(st.size))
	b = le.AppendUint64(b, uint64(st.mtime))
	b = le.AppendUint64(b, uint64(st.ctime))
	b = le.AppendUint64(b, st.ino)
	b = le.AppendUint32(b, st.mode)
	*bp = b
	return ss.x.k.other.sum64(unsafe.String(unsafe.SliceData(b), len(b))), true
}

// stampBufs are Stamp's buffers (a map stamps every listed file).
var stampBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// PathHash implements [pack.MapSumStore].
func (ss sumStore) PathHash(path string) uint64 {
	return ss.x.k.other.sum64("map sum path\x00" + path)
}

// keyOf is the keyed HMAC a summary is stored under for the map's key.
func (ss sumStore) keyOf(key [32]byte) (out [32]byte) {
	m := hmac.New(sha256.New, ss.x.k.mac)
	io.WriteString(m, "map sum key\x00")
	m.Write(key[:])
	copy(out[:], m.Sum(nil))
	return out
}

// Sum implements [pack.MapSumStore]: the body stored under key.
func (ss sumStore) Sum(key [32]byte) ([]byte, bool) {
	k := ss.keyOf(key)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	b, n, ok := sumFile.read(filepath.Join(ss.x.dir, sumName), ss.x.k, ss.x.refusedVH(), func(size int64) bool { return size <= maxSumFile })
	if !ok || n != 1 || len(b) < sumRecHead {
		return nil, false
	}
	size := int(le.Uint32(b[32:]))
	if [32]byte(b[:32]) != k || size != len(b)-sumRecHead {
		return nil, false
	}
	return b[sumRecHead:], true
}

// PutSum implements [pack.MapSumStore]: the summary of key replaces the
// root's (a body over maxSumBody is not kept). The body is written as
// write makes it (a 100K-file tree's is tens of MB), its MAC taken on
// the way.
func (ss sumStore) PutSum(key [32]byte, size int, write func(io.Writer) error) {
	if size < 0 || size > maxSumBody {
		return
	}
	k := ss.keyOf(key)
	ss.mu.Lock()
	defer ss.mu.Unlock()
	head := sumFile.start(ss.x.k, ss.x.refusedVH(), 1, sumRecHead)
	head = append(head, k[:]...)
	head = le.AppendUint32(head, uint32(size))
	_ = sumFile.writeFrom(ss.x.dir, filepath.Join(ss.x.dir, sumName), ss.x.k, head, int64(size), write)
}

// sumFile is map.sum's envelope.
var sumFile = sideFile{magic: sumMagic, version: sumVersion, hdr: sumHeader,
	label: "map summary\x00", temp: ".tmp-*.sum", what: "map summary"}
