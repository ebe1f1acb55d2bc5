package pack

import (
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// FileTerms is one file's term statistics for the file-level score
// (docs/ranking.md "File-first selection").
type FileTerms struct {
	// Length is the number of terms in the file as [Terms] splits it
	// (stop words and one-letter words dropped, every part of a compound
	// identifier and the compound itself counted).
	Length int
	// Counts holds the frequency of each asked query term that occurs in
	// the file (terms absent from it are absent from the map).
	Counts map[string]int
}

// FileIndex is a persistent per-file cache (package index implements it;
// nil means none). Every entry is keyed by the file's absolute path and
// validated by its stat (size, mtime ns, inode, mode); a content hash
// guards reuse after a stat change. Entries never hold file text or secret
// values: terms are stored as hashes, chunks as boundaries, kinds, names
// and counts computed from redacted content.
type FileIndex interface {
	// Terms returns the statistics of the asked terms for f, false on a miss.
	Terms(f collector.FileRef, terms []string) (FileTerms, bool)
	// PutTerms stores a file's full term table (every term it holds) after
	// it was read.
	PutTerms(f collector.FileRef, content []byte, all map[string]int)
	// Chunks returns the chunk boundaries and token counts cut for key
	// (options and encoding), false on a miss. Content fields are empty.
	Chunks(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool)
	// PutChunks stores the chunks cut from content for key.
	PutChunks(f collector.FileRef, content []byte, key string, chunks []chunker.Chunk)
	// Forget drops the entries of a path (didChangeWatchedFiles).
	Forget(abs string)
}
