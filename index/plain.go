package index

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/acode-lsp/acode-lsp/collector"
)

// Plain paths (docs/index.md "Plain paths"): the listed paths of files
// that collector.DisplayPath shows as themselves and whose names
// collector.IsSecretPath lets in — pure functions of the path's text and
// the rules — are remembered by a keyed hash, so that a warm walk does not
// run the redaction scan and the secret-name checks over every path again
// (collector.PlainPaths). The table holds no path and nothing of a path
// that is not plain (such a path is never put: a miss recomputes): per
// path only its SipHash-2-4 under the per-user key. Its version folds in
// the index's and both sets of rules (collector.RulesProbe,
// collector.PathRulesProbe), so a change of the rules empties it.
//
// It lives in one file per root, plainName, in the side files' envelope
// (sidefile.go: opened without following a link or waiting on a FIFO, a
// regular file of this user of the size its count says, HMAC-SHA256
// under the per-user key), written whole when the index flushes and
// something was put; anything that fails a check is ignored and the table
// is built again.
const (
	plainName    = "paths.tbl"
	plainMagic   = "ACIDXPTH"
	plainVersion = 1
	plainHeader  = 32
	// maxPlain caps the table (16 MiB); past it, the paths this process
	// did not look up go first.
	maxPlain = 1 << 21
)

// plainTable is a root's table: the hashes on disk as last read or
// written (an immutable snapshot, read without a lock; loaded at the
// first lookup) and the hashes put since.
type plainTable struct {
	once  sync.Once
	snap  atomic.Pointer[plainSnap]
	mu    sync.Mutex
	fresh map[uint64]struct{}
}

// plainSnap is the table's hashes, sorted, with their bucket index
// (plainBuckets) and a bit per hash found by a lookup.
type plainSnap struct {
	disk  []uint64
	first []uint32
	shift uint
	hits  []atomic.Uint64
}

// newPlainSnap indexes the sorted hashes hs.
func newPlainSnap(hs []uint64) *plainSnap {
	s := &plainSnap{disk: hs, hits: make([]atomic.Uint64, (len(hs)+63)/64)}
	s.first, s.shift = plainBuckets(hs)
	return s
}

var plainFile = sideFile{magic: plainMagic, version: plainVersion, hdr: plainHeader,
	label: "plain paths\x00", temp: ".tmp-*.pth", what: "plain paths"}

// plainVH is the version the table is written under: the refused
// table's (the index's, with the content rules and redaction) and the
// path rules' (collector.PathRulesProbe).
func (x *Index) plainVH() uint64 {
	x.plainVHOnce.Do(func() {
		// refusedVH holds the index's version and collector.RulesProbe.
		x.plainVHVal = fnv64(x.refusedVH(), fmt.Sprintf("plain paths %d\x00%s", plainVersion, collector.PathRulesProbe()))
	})
	return x.plainVHVal
}

// plainTab returns the root's table, read from disk at the first call.
func (x *Index) plainTab() *plainTable {
	t := &x.plain
	t.once.Do(func() {
		t.snap.Store(newPlainSnap(readPlain(filepath.Join(x.dir, plainName), x.k, x.plainVH())))
		t.mu.Lock()
		t.fresh = map[uint64]struct{}{}
		t.mu.Unlock()
	})
	return t
}

// KnownPlain implements [collector.PlainPaths] for a file of this root.
func (x *Index) KnownPlain(listed string) bool {
	t := x.plainTab()
	h := x.k.pathHash(listed)
	if t.snap.Load().hitHash(h) {
		return true
	}
	t.mu.Lock()
	_, ok := t.fresh[h]
	t.mu.Unlock()
	return ok
}

// PutPlain implements [collector.PlainPaths] for a file of this root.
func (x *Index) PutPlain(listed string) {
	t := x.plainTab()
	h := x.k.pathHash(listed)
	if t.snap.Load().find(h) >= 0 {
		return
	}
	t.mu.Lock()
	t.fresh[h] = struct{}{}
	t.mu.Unlock()
}

// plainBuckets indexes the sorted hashes hs by their top bits (about one
// hash a bucket: the hashes are keyed, so uniform): hs[first[k]:first[k+1]]
// are those whose top bits are k. A lookup then reads one or two cache
// lines instead of a binary search's seventeen on 100,000 paths.
func plainBuckets(hs []uint64) (first []uint32, shift uint) {
	if len(hs) == 0 {
		return nil, 0
	}
	b := min(bits.Len(uint(len(hs))), 24)
	shift = uint(64 - b)
	first = make([]uint32, 1<<b+1)
	for _, h := range hs {
		first[h>>shift+1]++
	}
	for k := 1; k < len(first); k++ {
		first[k] += first[k-1]
	}
	return first, shift
}

// hitHash reports whether h is on disk, and marks it looked up.
func (s *plainSnap) hitHash(h uint64) bool {
	i := s.find(h)
	if i < 0 {
		return false
	}
	s.hits[i/64].Or(1 << (i % 64))
	return true
}

// find returns the index of h in the disk hashes, -1 when absent.
func (s *plainSnap) find(h uint64) int {
	if len(s.disk) == 0 {
		return -1
	}
	k := h >> s.shift
	for i := s.first[k]; i < s.first[k+1]; i++ {
		if d := s.disk[i]; d >= h {
			if d == h {
				return int(i)
			}
			return -1
		}
	}
	return -1
}

// flushPlain writes the table when something was put since it was read:
// the table on disk now (another process may have written it) and the
// hashes put here; past the cap, only what this process looked up or put.
// What it wrote becomes the table's snapshot (a server that flushes after
// each pack knows what it put without putting it again).
func (x *Index) flushPlain() error {
	t := &x.plain
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.fresh) == 0 {
		return nil
	}
	p := filepath.Join(x.dir, plainName)
	all := readPlain(p, x.k, x.plainVH())
	if len(all)+len(t.fresh) > maxPlain {
		all = all[:0:0]
		old := t.snap.Load()
		for i, h := range old.disk {
			if old.hits[i/64].Load()&(1<<(i%64)) != 0 {
				all = append(all, h)
			}
		}
	}
	for h := range t.fresh {
		all = append(all, h)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) > maxPlain {
		all = all[:maxPlain] // this process alone put more than the cap
	}
	if err := writePlain(x.dir, p, x.k, x.plainVH(), all); err != nil {
		return err
	}
	t.snap.Store(newPlainSnap(all))
	t.fresh = map[uint64]struct{}{}
	return nil
}

// writePlain writes hs (sorted, distinct) as the table p in dir.
func writePlain(dir, p string, k *keys, vh uint64, hs []uint64) error {
	b := plainFile.start(k, vh, len(hs), 8*len(hs))
	for _, h := range hs {
		b = le.AppendUint64(b, h)
	}
	return plainFile.write(dir, p, k, b)
}

// readPlain reads the table p; nil when there is none or it fails a check
// (sideFile.read's, and hashes strictly increasing).
func readPlain(p string, k *keys, vh uint64) []uint64 {
	b, n, ok := plainFile.read(p, k, vh, func(size int64) bool {
		n := (size - plainHeader - sideMAC) / 8
		return n <= maxPlain && size == plainHeader+8*n+sideMAC
	})
	if !ok || 8*n != len(b) {
		return nil
	}
	hs := make([]uint64, n)
	for i := range hs {
		hs[i] = le.Uint64(b[8*i:])
		if i > 0 && hs[i] <= hs[i-1] {
			return nil
		}
	}
	return hs
}
