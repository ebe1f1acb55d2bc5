package index

import (
	"encoding/binary"
	"hash/crc32"
	"io/fs"
)

// FormatVersion is the version of the segment layout below; a segment of
// another version is ignored (and removed by the next compaction).
const FormatVersion = 2

// Segment layout (little-endian). A segment is one immutable file:
//
//	header   256 bytes: magic, FormatVersion, the hash of the caller's
//	         version string (term splitter, chunker), the id of the
//	         per-user key (key.go), counts, the creation time, a random
//	         nonce, per section its offset, length and CRC-32C, then at
//	         macOff a MAC of all that under the per-user key; the
//	         header's own CRC in its last 4 bytes
//	files    one fixed-size record per file, sorted by path (recSize)
//	paths    the paths of the records, encrypted (key.go)
//	table    open-addressing table: path hash → record index + 1
//	fences   per dictionary block: its first term hash, CRC, entry count
//	dict     blocks of blockTerms term hashes then their postings offsets
//	postings per term: length, CRC, then uvarint n and n (file delta, count)
//	chunks   per file: length, CRC, then its chunk sets, encrypted
//
// files, paths, table and fences are checked when the segment is opened;
// a dictionary block, a postings list and a chunk blob when first read. So
// a lookup reads the few pages of the asked terms, never every file's table.
// The sections lie in the order postings, chunks, files, paths, table,
// dict, fences, each right after the one before, the last ending at the
// end of the file; a header that says otherwise is refused.
const (
	magic      = "ACIDXSEG"
	headerSize = 256
	recSize    = 96
	fenceSize  = 16
	blockTerms = 1024
	nonceOff   = 56  // 8 random bytes, per segment: the encryption's nonce
	macOff     = 232 // the header MAC covers the bytes before it
	macSize    = 16
)

// Sections, in header order.
const (
	secFiles = iota
	secPaths
	secTable
	secFences
	secDict
	secPostings
	secChunks
	numSections
)

// Record flags.
const (
	flagTerms = 1 << iota // the record holds term statistics
	flagRacy              // written while the file was changing: stat alone does not vouch for it
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// fnv64 is FNV-1a over s, started from basis.
func fnv64(basis uint64, s string) uint64 {
	h := basis
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

const fnvBasis = 14695981039346656037

// stat is what validates an entry against the file on disk.
type stat struct {
	size, mtime, ctime int64
	ino                uint64
	mode               uint32
}

// statOf returns fi's stat key and whether fi is a regular file (only those
// are indexed: a symlink's own stat says nothing of its target's content).
func statOf(fi fs.FileInfo) (stat, bool) {
	if fi == nil || !fi.Mode().IsRegular() {
		return stat{}, false
	}
	ino, ctime := sysStat(fi)
	return stat{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, ino: ino, mode: uint32(fi.Mode())}, true
}

var le = binary.LittleEndian
