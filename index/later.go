package index

import (
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/pack"
)

// LaterSet is a [Set] that takes the terms of the files a pack scanned
// after the pack has answered ([pack.LaterIndex]): the pack counts only
// its query's terms on a miss, as a pack without an index does, and
// leaves a job that reads those files again and stores their terms; Close
// runs the jobs, then flushes. The CLI uses it (its first pack of a tree
// prints the answer and closes its output before the index is written);
// a server, whose index must answer its next request, keeps a plain Set.
//
// Only the first pack of a tree takes its terms later: a set that holds
// no term when it is wrapped (chunk sets alone, left by a first pack
// cancelled before its job, do not count) (a warm pack misses few files — changed ones,
// redacted ones — and storing them as it goes costs less than reading them
// twice). A process killed while the jobs run leaves the segments written so far,
// each complete (segments are written aside and renamed into place,
// write.go), and nothing of the files not yet reached: the next pack
// misses them and puts them again.
type LaterSet struct {
	*laterOf // a field named Set would hide the method Set (pack.SetIndex)

	first bool // the set held no term when wrapped: terms go later

	mu   sync.Mutex
	jobs []func()
}

// laterOf is the Set a LaterSet wraps.
type laterOf = Set

var (
	_ pack.LaterIndex = (*LaterSet)(nil)
	_ pack.SetIndex   = (*LaterSet)(nil)
)

// Later wraps s; a nil or unusable s stays without an index (nil).
func Later(s *Set) *LaterSet {
	if !s.Usable() {
		return nil
	}
	return &LaterSet{laterOf: s, first: s.Stats().Terms == 0}
}

// TermsLater implements [pack.LaterIndex]: true for the first pack of a
// tree (an index without terms).
func (l *LaterSet) TermsLater() bool { return l != nil && l.first }

// Later implements [pack.LaterIndex]: fill runs at Close.
func (l *LaterSet) Later(fill func()) {
	l.mu.Lock()
	l.jobs = append(l.jobs, fill)
	l.mu.Unlock()
}

// Run runs the jobs left so far, in the order they were left.
func (l *LaterSet) Run() {
	if l == nil {
		return
	}
	for {
		l.mu.Lock()
		jobs := l.jobs
		l.jobs = nil
		l.mu.Unlock()
		if len(jobs) == 0 {
			return
		}
		for _, fill := range jobs {
			fill()
		}
	}
}

// Close runs the jobs left, then flushes and releases the index.
func (l *LaterSet) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	some := len(l.jobs) > 0
	l.mu.Unlock()
	if some {
		defer boundFill()() // the jobs, the last spill and the merge
	}
	l.Run()
	return l.laterOf.Close()
}

// fillHeadroom is what the jobs (the pending entries and a spill's sorted
// postings, up to ~3 × 16 MB live, and their garbage: each file's text read
// again, its redaction check, its terms) may add at least to the memory in
// use when they start before the collector runs. 64 MB keeps the jobs'
// peak at the answer's on Go's src (96 MB put it 35–45 MB above:
// docs/benchmarks.md, "The first pack's memory and work (sixth pass,
// first7)").
const fillHeadroom = 64 << 20

// boundFill bounds the memory of the jobs: what the pack freed goes back
// to the system first (the process's peak is then the larger of the pack
// and the jobs, not their sum), and a soft memory limit keeps their
// garbage within the larger of fillHeadroom over what is in use then and
// the pack's own memory before it was freed (a pack that held more lets the
// jobs collect less often without raising the peak; the pending entries
// are themselves bounded by the spill size). It returns the function that
// restores the limit.
func boundFill() func() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	held := int64(ms.Sys - ms.HeapReleased)
	debug.FreeOSMemory()
	chunker.TrimC() // tree-sitter's freed C heap, which FreeOSMemory does not reach
	runtime.ReadMemStats(&ms)
	old := debug.SetMemoryLimit(max(held, int64(ms.Sys-ms.HeapReleased)+fillHeadroom))
	return func() { debug.SetMemoryLimit(old) }
}
