package pack

import (
	"sync/atomic"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// trimEvery is how many bytes of source cutAll's workers cut between two
// returns of the C heap (cTrim).
const trimEvery = 512 << 10

// cTrim returns to the system, while a pack chunks, the C heap glibc
// keeps after tree-sitter frees its trees (chunker.TrimC), once every
// trimEvery bytes of source cut. Freed trees are not reused whole: on Go's
// src first query pack (169 files, 4.4 MB) the kept heap grew to ~25 MB
// over the chunking, on top of the Go heap, and made the pack's peak.
// Its zero value trims with chunker.TrimC.
type cTrim struct {
	since atomic.Int64
	trim  func() // nil: chunker.TrimC (tests count the calls)
}

// cut counts n bytes of source cut and trims when trimEvery is reached;
// it is safe for concurrent use (two workers may both trim: harmless).
func (t *cTrim) cut(n int) {
	if v := t.since.Add(int64(n)); v >= trimEvery && t.since.CompareAndSwap(v, 0) {
		if t.trim != nil {
			t.trim()
			return
		}
		chunker.TrimC()
	}
}
