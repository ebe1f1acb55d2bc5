package index

import (
	"crypto/hmac"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// errCorrupt marks a segment part whose checksum or bounds do not hold.
var errCorrupt = errors.New("index: corrupt segment")

// errSparse marks a segment with far fewer bytes allocated than its size.
var errSparse = errors.New("index: segment not allocated")

// segment is one opened segment file, mapped read-only.
type segment struct {
	path    string
	data    []byte
	release func() error
	size    int64
	created int64
	nonce   uint64
	k       *keys

	nFiles, nTerms, nBlocks, tsize int
	sec                            [numSections][2]int // off, len

	blocks []atomic.Uint32 // per dictionary block: 0 unchecked, 1 good, 2 bad
	bad    atomic.Bool     // a part failed its check: the segment is not used again
}

// maxPathLen bounds a stored path (PATH_MAX is 4096 on Linux).
const maxPathLen = 4096

// openSegment opens path without following a symlink and without blocking
// (a FIFO named *.seg is refused, never waited on), checks on the
// descriptor that it is a regular file of this user, reads and checks its
// header (MAC under the per-user key, version, layout against the file's
// real length and allocation), maps it and checks the parts every lookup
// reads. A segment of another version or key, or with any failed check, is
// an error wrapping errCorrupt; a file that is not a regular file of this
// user one wrapping errUntrusted (left alone: never deleted).
func openSegment(path string, k *keys, vh uint64) (*segment, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !ownRegular(fi) {
		return nil, fmt.Errorf("%w: %s: not a regular file of this user", errUntrusted, path)
	}
	if fi.Size() < headerSize || fi.Size() > 1<<40 {
		return nil, fmt.Errorf("%w: %s: size %d", errCorrupt, path, fi.Size())
	}
	s := &segment{path: path, size: fi.Size(), k: k}
	h := make([]byte, headerSize)
	if _, err := f.ReadAt(h, 0); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errCorrupt, path, err)
	}
	if err := s.checkHeader(h, vh); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errCorrupt, path, err)
	}
	// A sparse file claims bytes it does not hold: checking its sections
	// would cost a read of every claimed byte (2.4–2.8 s per GiB) at every
	// start. Ours are written whole. Ignored, not removed: a file system
	// that counts a new file's blocks late (ZFS, until its transaction
	// group is written) must not lose a fresh segment.
	if a, ok := allocated(fi); ok && fi.Size() > 1<<20 && a < fi.Size()/16 {
		return nil, fmt.Errorf("%w: %s: sparse (%d bytes allocated of %d)", errSparse, path, a, fi.Size())
	}
	data, release, err := mapFile(f, int(fi.Size()))
	if err != nil {
		return nil, fmt.Errorf("index: map %s: %w", path, err)
	}
	s.data, s.release = data, release
	if err := s.checkSections(h); err != nil {
		release()
		return nil, fmt.Errorf("%w: %s: %v", errCorrupt, path, err)
	}
	// The check read every page: leave them to the page cache rather than
	// the process's memory (a first pack opens every segment it spills,
	// ~100 MB for 100,000 files); lookups map back the few they touch.
	dropPages(s.data)
	s.blocks = make([]atomic.Uint32, s.nBlocks)
	return s, nil
}

// checkHeader checks the header h: its MAC, version and counts, and that
// its sections lie as the writer lays them out, ending at the file's end.
func (s *segment) checkHeader(h []byte, vh uint64) error {
	if err := s.checkIdentity(h, vh); err != nil {
		return err
	}
	s.nFiles = int(le.Uint32(h[32:]))
	s.nTerms = int(le.Uint32(h[36:]))
	s.nBlocks = int(le.Uint32(h[40:]))
	s.tsize = int(le.Uint32(h[44:]))
	s.created = int64(le.Uint64(h[48:]))
	s.nonce = le.Uint64(h[nonceOff:])
	end, err := s.readSections(h)
	if err != nil {
		return err
	}
	return s.checkSizes(end)
}

// checkIdentity checks that header h is one of this format, intact,
// written under this key (its MAC) and for term splitter and chunker
// version vh.
func (s *segment) checkIdentity(h []byte, vh uint64) error {
	switch {
	case string(h[:8]) != magic:
		return errors.New("bad magic")
	case checksum(h[:headerSize-4]) != le.Uint32(h[headerSize-4:]):
		return errors.New("header checksum")
	case le.Uint32(h[8:]) != FormatVersion:
		return errors.New("other format version")
	case le.Uint64(h[24:]) != s.k.id:
		return errors.New("written under another key")
	case !hmac.Equal(s.k.headerMAC(h), h[macOff:macOff+macSize]):
		return errors.New("header MAC")
	case le.Uint64(h[16:]) != vh:
		return errors.New("other term splitter or chunker version")
	}
	return nil
}

// readSections sets s.sec from header h, each section within the file and
// all in the writer's order one after the other from the header's end,
// and returns where the last ends.
func (s *segment) readSections(h []byte) (end int, err error) {
	for i := range s.sec {
		o := 64 + 24*i
		off, n := le.Uint64(h[o:]), le.Uint64(h[o+8:])
		if off < headerSize || off > uint64(s.size) || n > uint64(s.size)-off {
			return 0, fmt.Errorf("section %d out of bounds", i)
		}
		s.sec[i] = [2]int{int(off), int(n)}
	}
	end = headerSize
	for _, i := range []int{secPostings, secChunks, secFiles, secPaths, secTable, secDict, secFences} {
		if s.sec[i][0] != end {
			return 0, fmt.Errorf("section %d not where the writer puts it", i)
		}
		end += s.sec[i][1]
	}
	return end, nil
}

// checkSizes checks that the sections, ending at end, end at the file's
// end and have the sizes the header's counts give them.
func (s *segment) checkSizes(end int) error {
	tsize := 1
	for tsize < 2*s.nFiles {
		tsize <<= 1
	}
	switch {
	case int64(end) != s.size:
		return fmt.Errorf("sections end at %d, the file at %d", end, s.size)
	case s.sec[secFiles][1] != s.nFiles*recSize:
		return errors.New("files size")
	case s.sec[secPaths][1] > s.nFiles*maxPathLen:
		return errors.New("paths size")
	case s.tsize != tsize || s.sec[secTable][1] != 4*s.tsize:
		return errors.New("table size")
	case s.nBlocks != (s.nTerms+blockTerms-1)/blockTerms || s.sec[secFences][1] != s.nBlocks*fenceSize:
		return errors.New("fences size")
	case s.sec[secDict][1] != 16*s.nTerms:
		return errors.New("dictionary size")
	}
	return nil
}

// checkSections checks the CRCs of the parts every lookup reads.
func (s *segment) checkSections(h []byte) error {
	for _, i := range []int{secFiles, secPaths, secTable, secFences} {
		if checksum(s.part(i)) != le.Uint32(h[64+24*i+16:]) {
			return fmt.Errorf("section %d checksum", i)
		}
	}
	return nil
}

func (s *segment) close() error {
	if s.release == nil {
		return nil
	}
	err := s.release()
	s.release, s.data = nil, nil
	return err
}

func (s *segment) part(i int) []byte {
	return s.data[s.sec[i][0] : s.sec[i][0]+s.sec[i][1]]
}

// record is the i-th file record.
type record struct {
	st           stat
	flags        uint32
	length, uniq uint32
	hash         [16]byte
	chunkOff     uint64
	chunkLen     uint32
	put          int64
}

func (s *segment) rec(i int) record {
	r := s.part(secFiles)[i*recSize : (i+1)*recSize]
	var x record
	x.st = stat{size: int64(le.Uint64(r[0:])), mtime: int64(le.Uint64(r[8:])), ctime: int64(le.Uint64(r[16:])), ino: le.Uint64(r[24:]), mode: le.Uint32(r[32:])}
	x.flags = le.Uint32(r[36:])
	x.length = le.Uint32(r[40:])
	x.uniq = le.Uint32(r[44:])
	copy(x.hash[:], r[48:64])
	x.chunkOff = le.Uint64(r[72:])
	x.chunkLen = le.Uint32(r[80:])
	x.put = int64(le.Uint32(r[84:]))
	return x
}

// pathBytes is the path of record i (decrypted), nil when out of bounds.
func (s *segment) pathBytes(i int) []byte {
	r := s.part(secFiles)[i*recSize:]
	off, n := int(le.Uint32(r[64:])), int(le.Uint32(r[68:]))
	p := s.part(secPaths)
	if off > len(p) || n > len(p)-off || n > maxPathLen {
		return nil
	}
	b := slices.Clone(p[off : off+n])
	s.k.crypt(s.nonce, i, partPath, b)
	return b
}

// pathIs reports whether the path of record i is p: string(pathBytes(i))
// == p, with a short path decrypted on the stack (find runs once per file
// of a warm pack).
func (s *segment) pathIs(i int, p string) bool {
	r := s.part(secFiles)[i*recSize:]
	off, n := int(le.Uint32(r[64:])), int(le.Uint32(r[68:]))
	paths := s.part(secPaths)
	switch {
	case off > len(paths) || n > len(paths)-off || n > maxPathLen:
		return p == "" // pathBytes is nil
	case n != len(p):
		return false
	case n > smallCTR:
		return string(s.pathBytes(i)) == p
	}
	var buf [smallCTR]byte
	b := buf[:n]
	copy(b, paths[off:off+n])
	sc := ctrScratches.Get().(*ctrScratch)
	sc.counter(s.nonce, i, partPath)
	sc.xor(s.k.enc, b)
	ctrScratches.Put(sc)
	return string(b) == p
}

// find returns the record index of path p, or -1.
func (s *segment) find(p string, ph uint64) int {
	if s.nFiles == 0 {
		return -1
	}
	t := s.part(secTable)
	files := s.part(secFiles)
	mask := uint64(s.tsize - 1)
	for n, slot := 0, ph&mask; n < s.tsize; n, slot = n+1, (slot+1)&mask {
		v := int(le.Uint32(t[4*slot:]))
		if v == 0 {
			return -1
		}
		i := v - 1
		if i >= s.nFiles {
			return -1
		}
		if le.Uint64(files[i*recSize+88:]) == ph && s.pathIs(i, p) { // a keyed hash, then the path itself
			return i
		}
	}
	return -1
}

// block returns dictionary block b (hashes and offsets), checked once.
func (s *segment) block(b int) (hashes, offs []byte, err error) {
	f := s.part(secFences)[b*fenceSize:]
	cnt := int(le.Uint32(f[12:]))
	if cnt < 1 || cnt > blockTerms || b*blockTerms+cnt > s.nTerms {
		s.bad.Store(true)
		return nil, nil, errCorrupt
	}
	d := s.part(secDict)
	blk := d[b*blockTerms*16 : b*blockTerms*16+cnt*16]
	switch s.blocks[b].Load() {
	case 0:
		if checksum(blk) != le.Uint32(f[8:]) {
			s.blocks[b].Store(2)
			s.bad.Store(true)
			return nil, nil, errCorrupt
		}
		s.blocks[b].Store(1)
	case 2:
		return nil, nil, errCorrupt
	}
	return blk[:8*cnt], blk[8*cnt:], nil
}

// term returns the files holding term hash h, nil when none.
func (s *segment) term(h uint64) ([]fileCount, error) {
	if s.nBlocks == 0 {
		return nil, nil
	}
	fences := s.part(secFences)
	b := sort.Search(s.nBlocks, func(i int) bool { return le.Uint64(fences[i*fenceSize:]) > h }) - 1
	if b < 0 {
		return nil, nil
	}
	hashes, offs, err := s.block(b)
	if err != nil {
		return nil, err
	}
	n := len(hashes) / 8
	i := sort.Search(n, func(i int) bool { return le.Uint64(hashes[8*i:]) >= h })
	if i == n || le.Uint64(hashes[8*i:]) != h {
		return nil, nil
	}
	return s.postings(le.Uint64(offs[8*i:]))
}

// blobAt returns the checked blob at off in section sec.
func (s *segment) blobAt(sec int, off uint64) ([]byte, error) {
	p := s.part(sec)
	if off > uint64(len(p)) || uint64(len(p))-off < 8 {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	n := uint64(le.Uint32(p[off:]))
	if n > uint64(len(p))-off-8 {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	b := p[off+8 : off+8+n]
	if checksum(b) != le.Uint32(p[off+4:]) {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	return b, nil
}

func (s *segment) postings(off uint64) ([]fileCount, error) {
	b, err := s.blobAt(secPostings, off)
	if err != nil {
		return nil, err
	}
	r := reader{b: b}
	n := r.uvarint()
	if n > uint64(s.nFiles) {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	out := make([]fileCount, n)
	f := uint64(0)
	for i := range out {
		f += r.uvarint()
		out[i] = fileCount{uint32(f), uint32(r.uvarint())}
		if f >= uint64(s.nFiles) {
			r.err = true
		}
	}
	if r.err {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	return out, nil
}

// sets decodes the chunk sets of record i; with want set, only the set of
// that key and content (decoding stops there).
func (s *segment) sets(i int, want *chunkSet) ([]chunkSet, error) {
	if want == nil {
		return s.setsMatching(i, nil, false)
	}
	return s.setsMatching(i, func(key uint64, hash [16]byte) bool {
		return key == want.key && hash == want.hash
	}, true)
}

// setsMatching decodes the chunk sets of record i that match (every set
// when match is nil; the others are read past, their chunks not made),
// only the first match when first.
func (s *segment) setsMatching(i int, match func(key uint64, hash [16]byte) bool, first bool) ([]chunkSet, error) {
	x := s.rec(i)
	if x.chunkLen == 0 {
		return nil, nil
	}
	b, err := s.blobAt(secChunks, x.chunkOff)
	if err != nil {
		return nil, err
	}
	if uint64(len(b))+8 != uint64(x.chunkLen) {
		s.bad.Store(true)
		return nil, errCorrupt
	}
	b = slices.Clone(b)
	s.k.crypt(s.nonce, i, partChunks, b)
	sets, err := decodeSets(b, match, first)
	if err != nil {
		s.bad.Store(true)
	}
	return sets, err
}

// decodeSets decodes the sets of b that match (all: nil match), only the
// first such when first.
func decodeSets(b []byte, match func(key uint64, hash [16]byte) bool, first bool) ([]chunkSet, error) {
	r := reader{b: b}
	n := r.uvarint()
	var out []chunkSet
	d := decoders.Get().(*setDecoder)
	defer decoders.Put(d)
	for k := uint64(0); k < n && !r.err; k++ {
		var cs chunkSet
		cs.key = r.u64()
		copy(cs.hash[:], r.bytes(16))
		nc := r.uvarint()
		if nc > uint64(len(b)) {
			return nil, errCorrupt
		}
		keep := match == nil || match(cs.key, cs.hash)
		cs.chunks = d.chunks(&r, int(nc), keep)
		if r.err {
			return nil, errCorrupt
		}
		if keep {
			out = append(out, cs)
			if first {
				return out, nil
			}
		}
	}
	if r.err {
		return nil, errCorrupt
	}
	return out, nil
}

// decoders are setDecoders to reuse (their buffers).
var decoders = sync.Pool{New: func() any { return new(setDecoder) }}

// setDecoder decodes the chunks of sets, reusing its buffers between
// sets: a set's kinds and names share one string (one allocation a set,
// not two a chunk — a map after an edit decodes every file's sets).
type setDecoder struct {
	text []byte
	lens []int32 // per chunk: its kind's length, its name's
}

// chunks decodes n chunks from r: nil when !keep (read past) or n is 0.
func (d *setDecoder) chunks(r *reader, n int, keep bool) []chunker.Chunk {
	var out []chunker.Chunk
	if keep && n > 0 {
		out = make([]chunker.Chunk, 0, min(n, len(r.b)/7+1)) // a chunk takes 7 bytes at least
	}
	d.text, d.lens = d.text[:0], d.lens[:0]
	for j := 0; j < n && !r.err; j++ {
		var c chunker.Chunk
		c.StartLine = int(r.uvarint())
		c.EndLine = c.StartLine + int(r.uvarint())
		c.StartByte = int(r.uvarint())
		c.EndByte = c.StartByte + int(r.uvarint())
		c.Tokens = int(r.uvarint())
		fl := r.bytes(1)
		if len(fl) == 1 {
			c.TopLevel, c.Oversize = fl[0]&1 != 0, fl[0]&2 != 0
		}
		kind := r.bytes(int(r.uvarint()))
		name := r.bytes(int(r.uvarint()))
		if keep {
			nl := int32(len(name))
			if len(name) > maxSharedName {
				// A long name (a map's facts, mapfacts) is its own
				// string: not copied twice.
				c.Name, nl = string(name), -1
			} else {
				d.text = append(d.text, name...)
			}
			d.text = append(d.text, kind...)
			d.lens = append(d.lens, int32(len(kind)), nl)
			out = append(out, c)
		}
	}
	if r.err || len(d.text) == 0 {
		return out
	}
	all, at := string(d.text), 0
	for j := range out {
		if nl := int(d.lens[2*j+1]); nl >= 0 {
			out[j].Name = all[at : at+nl]
			at += nl
		}
		kl := int(d.lens[2*j])
		out[j].Kind = all[at : at+kl]
		at += kl
	}
	return out
}

// maxSharedName is the longest chunk name setDecoder puts in the string
// a set's kinds and names share.
const maxSharedName = 256

// reader decodes a checked blob; any overrun sets err.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = true
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) u64() uint64 {
	b := r.bytes(8)
	if len(b) < 8 {
		return 0
	}
	return le.Uint64(b)
}

func (r *reader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.err = true
		r.b = nil
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}
