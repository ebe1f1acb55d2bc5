package index

import (
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
)

// FormatVersion is the version of the segment layout below; a segment of
// another version is ignored (and removed by the next compaction).
const FormatVersion = 1

// Segment layout (little-endian). A segment is one immutable file:
//
//	header   256 bytes: magic, FormatVersion, the hash of the caller's
//	         version string (term splitter, chunker), the term-hash seed,
//	         counts, and per section its offset, length and CRC-32C; the
//	         header's own CRC in its last 4 bytes
//	files    one fixed-size record per file, sorted by path (recSize)
//	paths    the paths of the records
//	table    open-addressing table: path hash → record index + 1
//	fences   per dictionary block: its first term hash, CRC, entry count
//	dict     blocks of blockTerms term hashes then their postings offsets
//	postings per term: length, CRC, then uvarint n and n (file delta, count)
//	chunks   per file: length, CRC, then its chunk sets
//
// files, paths, table and fences are checked when the segment is opened;
// a dictionary block, a postings list and a chunk blob when first read. So
// a lookup reads the few pages of the asked terms, never every file's table.
const (
	magic      = "ACIDXSEG"
	headerSize = 256
	recSize    = 96
	fenceSize  = 16
	blockTerms = 1024
	seed       = 0x9e3779b97f4a7c15 // term-hash seed, persisted in every header
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

// termHash is the 64-bit hash under which a term is stored; the index never
// holds term strings.
func termHash(t string) uint64 { return fnv64(fnvBasis^seed, t) }

// pathHash keys the record table.
func pathHash(p string) uint64 { return fnv64(fnvBasis, p) }

// keyHash names a chunking key (options and encoding).
func keyHash(k string) uint64 { return fnv64(fnvBasis^(seed>>1), k) }

// contentHash is the first 16 bytes of the SHA-256 of content.
func contentHash(content []byte) (h [16]byte) {
	s := sha256.Sum256(content)
	copy(h[:], s[:16])
	return h
}

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
