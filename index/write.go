package index

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/pack"
)

// entry is one file's data on its way into a segment.
type entry struct {
	path         string
	st           stat
	flags        uint32
	length, uniq uint32
	hash         [16]byte // content hash of the text the terms were counted in
	put          int64    // unix seconds when it was put
	terms        []posting
	sets         []chunkSet
	setsFn       func() ([]chunkSet, error) // loads sets when merging
}

// posting is one term of a file: its hash and count. It is the pack's
// [pack.TermHash], so that the slice a pack hands [Index.PutTermHashes]
// becomes the entry's own without a copy.
type posting = pack.TermHash

// chunkSet is the chunks of one content cut for one key (Content empty).
type chunkSet struct {
	key    uint64
	hash   [16]byte
	chunks []chunker.Chunk
}

// fileCount is one file of a postings list: record index and count.
type fileCount struct{ f, c uint32 }

// termSource calls yield with every term of a segment to be written, in
// increasing hash order, and its files in increasing record order.
type termSource func(yield func(h uint64, files []fileCount) error) error

// writeSegment writes entries (sorted by path, unique) and the postings of
// terms as a new segment in dir: a temporary file renamed into place, so a
// reader never sees a part of it. It returns the segment's path.
func writeSegment(dir string, k *keys, vh uint64, entries []*entry, terms termSource) (string, error) {
	nonce := rand.Uint64()
	tmp, err := os.CreateTemp(dir, ".tmp-*.seg")
	if err != nil {
		return "", fmt.Errorf("index: write segment: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := &segWriter{bw: bufio.NewWriterSize(tmp, 1<<20)}
	w.write(make([]byte, headerSize))
	var sec [numSections][3]uint64 // off, len, crc

	// postings; the dictionary goes block by block to a second temporary
	// file (so a merge of a big index does not hold it), appended below
	dtmp, err := os.CreateTemp(dir, ".tmp-*.dict")
	if err != nil {
		return "", fmt.Errorf("index: write segment: %w", err)
	}
	defer func() {
		dtmp.Close()
		os.Remove(dtmp.Name())
	}()
	dw := &segWriter{bw: bufio.NewWriterSize(dtmp, 1<<16)}
	start := w.off
	var fences []byte
	var blkH, blkO []uint64
	nTerms := 0
	var blk []byte
	endBlock := func() {
		if len(blkH) == 0 {
			return
		}
		blk = blk[:0]
		for _, h := range blkH {
			blk = le.AppendUint64(blk, h)
		}
		for _, o := range blkO {
			blk = le.AppendUint64(blk, o)
		}
		fences = le.AppendUint64(fences, blkH[0])
		fences = le.AppendUint32(fences, checksum(blk))
		fences = le.AppendUint32(fences, uint32(len(blkH)))
		dw.write(blk)
		blkH, blkO = blkH[:0], blkO[:0]
	}
	var buf []byte
	last := uint64(0)
	err = terms(func(h uint64, files []fileCount) error {
		if nTerms > 0 && h <= last {
			return fmt.Errorf("index: terms out of order")
		}
		last = h
		buf = binary.AppendUvarint(buf[:0], uint64(len(files)))
		prev := uint32(0)
		for i, fc := range files {
			if i > 0 && fc.f <= prev || int(fc.f) >= len(entries) {
				return fmt.Errorf("index: postings out of order")
			}
			d := fc.f - prev
			if i == 0 {
				d = fc.f
			}
			buf = binary.AppendUvarint(buf, uint64(d))
			buf = binary.AppendUvarint(buf, uint64(fc.c))
			prev = fc.f
		}
		blkH = append(blkH, h)
		blkO = append(blkO, w.off-start)
		nTerms++
		if len(blkH) == blockTerms {
			endBlock()
		}
		w.blob(buf)
		return nil
	})
	if err != nil {
		return "", err
	}
	endBlock()
	sec[secPostings] = [3]uint64{start, w.off - start, 0}

	// chunk blobs
	start = w.off
	chunkOff := make([]uint64, len(entries))
	chunkLen := make([]uint32, len(entries))
	for i, e := range entries {
		sets := e.sets
		if e.setsFn != nil {
			if sets, err = e.setsFn(); err != nil {
				return "", err
			}
		}
		if len(sets) == 0 {
			continue
		}
		buf = encodeSets(buf[:0], sets)
		k.crypt(nonce, i, partChunks, buf)
		chunkOff[i] = w.off - start
		chunkLen[i] = uint32(8 + len(buf))
		w.blob(buf)
	}
	sec[secChunks] = [3]uint64{start, w.off - start, 0}

	// records, paths, table
	recs := make([]byte, len(entries)*recSize)
	var paths []byte
	tsize := 1
	for tsize < 2*len(entries) {
		tsize <<= 1
	}
	table := make([]byte, 4*tsize)
	for i, e := range entries {
		r := recs[i*recSize : (i+1)*recSize]
		le.PutUint64(r[0:], uint64(e.st.size))
		le.PutUint64(r[8:], uint64(e.st.mtime))
		le.PutUint64(r[16:], uint64(e.st.ctime))
		le.PutUint64(r[24:], e.st.ino)
		le.PutUint32(r[32:], e.st.mode)
		le.PutUint32(r[36:], e.flags)
		le.PutUint32(r[40:], e.length)
		le.PutUint32(r[44:], e.uniq)
		copy(r[48:64], e.hash[:])
		le.PutUint32(r[64:], uint32(len(paths)))
		le.PutUint32(r[68:], uint32(len(e.path)))
		le.PutUint64(r[72:], chunkOff[i])
		le.PutUint32(r[80:], chunkLen[i])
		le.PutUint32(r[84:], uint32(e.put))
		ph := k.pathHash(e.path)
		le.PutUint64(r[88:], ph)
		n := len(paths)
		paths = append(paths, e.path...)
		k.crypt(nonce, i, partPath, paths[n:])
		for s := ph & uint64(tsize-1); ; s = (s + 1) & uint64(tsize-1) {
			if le.Uint32(table[4*s:]) == 0 {
				le.PutUint32(table[4*s:], uint32(i+1))
				break
			}
		}
	}
	for _, s := range []struct {
		id int
		b  []byte
	}{{secFiles, recs}, {secPaths, paths}, {secTable, table}} {
		sec[s.id] = [3]uint64{w.off, uint64(len(s.b)), uint64(checksum(s.b))}
		w.write(s.b)
	}

	// dictionary blocks and their fences
	if dw.err == nil {
		dw.err = dw.bw.Flush()
	}
	if dw.err == nil {
		_, dw.err = dtmp.Seek(0, io.SeekStart)
	}
	if dw.err != nil {
		return "", fmt.Errorf("index: write segment: %w", dw.err)
	}
	start = w.off
	if w.err == nil {
		var n int64
		n, w.err = io.Copy(w.bw, dtmp)
		w.off += uint64(n)
	}
	nb := len(fences) / fenceSize
	sec[secDict] = [3]uint64{start, w.off - start, 0}
	sec[secFences] = [3]uint64{w.off, uint64(len(fences)), uint64(checksum(fences))}
	w.write(fences)
	if w.err == nil {
		w.err = w.bw.Flush()
	}
	if w.err != nil {
		return "", fmt.Errorf("index: write segment: %w", w.err)
	}

	h := make([]byte, headerSize)
	copy(h, magic)
	le.PutUint32(h[8:], FormatVersion)
	le.PutUint64(h[16:], vh)
	le.PutUint64(h[24:], k.id)
	le.PutUint32(h[32:], uint32(len(entries)))
	le.PutUint32(h[36:], uint32(nTerms))
	le.PutUint32(h[40:], uint32(nb))
	le.PutUint32(h[44:], uint32(tsize))
	le.PutUint64(h[48:], uint64(time.Now().Unix()))
	le.PutUint64(h[nonceOff:], nonce)
	for i, s := range sec {
		o := 64 + 24*i
		le.PutUint64(h[o:], s[0])
		le.PutUint64(h[o+8:], s[1])
		le.PutUint32(h[o+16:], uint32(s[2]))
	}
	copy(h[macOff:], k.headerMAC(h))
	le.PutUint32(h[headerSize-4:], checksum(h[:headerSize-4]))
	if _, err := tmp.WriteAt(h, 0); err != nil {
		return "", fmt.Errorf("index: write segment: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("index: write segment: %w", err)
	}
	name := filepath.Join(dir, segmentName())
	if err := os.Rename(tmp.Name(), name); err != nil {
		return "", fmt.Errorf("index: write segment: %w", err)
	}
	ok = true
	return name, nil
}

// segmentName is unique across processes and sorts by creation time.
func segmentName() string {
	return fmt.Sprintf("%016x-%d-%08x.seg", time.Now().UnixNano(), os.Getpid(), rand.Uint32())
}

type segWriter struct {
	bw  *bufio.Writer
	off uint64
	err error
}

func (w *segWriter) write(b []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.bw.Write(b)
	w.off += uint64(len(b))
}

// blob writes b behind its length and CRC.
func (w *segWriter) blob(b []byte) {
	var h [8]byte
	le.PutUint32(h[0:], uint32(len(b)))
	le.PutUint32(h[4:], checksum(b))
	w.write(h[:])
	w.write(b)
}

func encodeSets(buf []byte, sets []chunkSet) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(sets)))
	for _, s := range sets {
		buf = le.AppendUint64(buf, s.key)
		buf = append(buf, s.hash[:]...)
		buf = binary.AppendUvarint(buf, uint64(len(s.chunks)))
		for _, c := range s.chunks {
			buf = binary.AppendUvarint(buf, uint64(c.StartLine))
			buf = binary.AppendUvarint(buf, uint64(c.EndLine-c.StartLine))
			buf = binary.AppendUvarint(buf, uint64(c.StartByte))
			buf = binary.AppendUvarint(buf, uint64(c.EndByte-c.StartByte))
			buf = binary.AppendUvarint(buf, uint64(c.Tokens))
			var fl byte
			if c.TopLevel {
				fl |= 1
			}
			if c.Oversize {
				fl |= 2
			}
			buf = append(buf, fl)
			buf = binary.AppendUvarint(buf, uint64(len(c.Kind)))
			buf = append(buf, c.Kind...)
			buf = binary.AppendUvarint(buf, uint64(len(c.Name)))
			buf = append(buf, c.Name...)
		}
	}
	return buf
}

// batchTerms inverts the term tables of fresh entries (record i is
// entries[i]): a counting pass on the top 16 bits of the hash, then a
// sort of each small bucket by hash and record.
func batchTerms(entries []*entry) termSource {
	return func(yield func(uint64, []fileCount) error) error {
		type trip struct {
			h    uint64
			f, c uint32
		}
		const shift = 48
		counts := make([]int, 1<<16+1)
		n := 0
		for _, e := range entries {
			for _, p := range e.terms {
				counts[p.Hash>>shift+1]++
			}
			n += len(e.terms)
		}
		for i := 1; i < len(counts); i++ {
			counts[i] += counts[i-1]
		}
		pos := slices.Clone(counts)
		arr := make([]trip, n)
		for f, e := range entries {
			for _, p := range e.terms {
				b := p.Hash >> shift
				arr[pos[b]] = trip{p.Hash, uint32(f), p.Count}
				pos[b]++
			}
		}
		var files []fileCount
		for b := 0; b < 1<<16; b++ {
			seg := arr[counts[b]:counts[b+1]]
			slices.SortFunc(seg, func(x, y trip) int {
				if c := cmp.Compare(x.h, y.h); c != 0 {
					return c
				}
				return cmp.Compare(x.f, y.f)
			})
			for i := 0; i < len(seg); {
				j := i
				files = files[:0]
				for ; j < len(seg) && seg[j].h == seg[i].h; j++ {
					if n := len(files); n > 0 && files[n-1].f == seg[j].f {
						files[n-1].c += seg[j].c // two terms of a file, one hash
						continue
					}
					files = append(files, fileCount{seg[j].f, seg[j].c})
				}
				if err := yield(seg[i].h, files); err != nil {
					return err
				}
				i = j
			}
		}
		return nil
	}
}
