// Package index is acode-lsp's persistent workspace index: per file, the
// term statistics of the file-level score (as 64-bit term hashes, never term
// strings) and the chunk boundaries and token counts cut for each chunking
// key, kept in the user's cache directory so that a warm pack reads only the
// files it packs and the files that changed.
//
// Start at [Open] (one root) or [OpenSet] (the roots of a workspace). An
// [Index] is a set of immutable segment files (segment.go) plus the entries
// put since the last [Index.Flush]. Every entry is keyed by the file's
// absolute path and validated by its stat (size, modification and change
// time in nanoseconds, inode, mode); chunk entries are also keyed by a hash
// of the content they were cut from. Entries written while their file was
// changing ("racy", as in git's index) are not trusted on stat alone.
//
// Segments are written to a temporary file and renamed into place, carry a
// version header and CRC-32C checksums over every part a lookup reads, and
// are verified before any part is used: a torn or corrupt segment is
// ignored (its entries miss and are rebuilt), never trusted. Concurrent
// processes only ever add segments and remove the ones they merged, so no
// lock is needed.
//
// The index trusts nothing it did not make (trust.go, key.go; DESIGN rule
// 10): its directories must be this user's and writable by no one else,
// files are opened without following links or blocking and checked on the
// descriptor, a segment's header carries a MAC under a per-user key, and
// only its own regular files are ever deleted. Every stored hash is keyed
// with that key (SipHash-2-4, HMAC-SHA256), paths and chunk sets are
// encrypted under it, and files that redaction touches are not stored. The
// on-disk layout, what is trusted and the measurements are in
// docs/index.md.
package index
