package index

import (
	"unsafe"

	"github.com/acode-lsp/acode-lsp/chunker"
)

// A first pack of a tree puts the chunk sets of every file it reads
// (its chunking, a map's facts, its outline: PutSet). Held until the
// pack's end they were the largest part of a first map's heap (268 MB of
// a 100,000-file tree, issue 24), so pending sets count towards a spill
// as pending postings do: past setSpillBytes, the pending entries are
// written as a segment in the background (spillLocked) and merged with
// the others at the flush (compact.go). A put waits while more than
// maxFlyingSpills spills' worth of sets are still being written, so the
// sets held stay bounded however fast the walk puts them.
const (
	setSpillBytes   = 16 << 20
	maxFlyingSpills = 2
)

// chunkBytes is what a chunk of a set holds in memory, its strings aside.
const chunkBytes = int(unsafe.Sizeof(chunker.Chunk{}))

// setBytes estimates the memory sets hold: their chunks and names (a
// map's facts are one chunk whose name is the encoded facts).
func setBytes(sets []chunkSet) int {
	n := 0
	for _, cs := range sets {
		n += int(unsafe.Sizeof(cs)) + len(cs.chunks)*chunkBytes
		for _, c := range cs.chunks {
			n += len(c.Name)
		}
	}
	return n
}

// withSet is sets with cs in place of the set of its key, or added.
func withSet(sets []chunkSet, cs chunkSet) []chunkSet {
	for i := range sets {
		if sets[i].key == cs.key {
			sets[i] = cs
			return sets
		}
	}
	return append(sets, cs)
}

// unpendLocked takes pending entry e (about to be dropped) out of the
// pending counts. The caller holds x.mu.
func (x *Index) unpendLocked(e *entry) {
	x.npend -= len(e.terms)
	x.pbytes -= setBytes(e.sets)
}

// spillDueLocked reports whether the pending entries are to be written:
// past the postings or the set bytes a spill holds. The caller holds x.mu.
func (x *Index) spillDueLocked() bool {
	return x.npend >= x.spill || x.pbytes >= x.setSpill
}

// spillSetsLocked spills the pending entries when due, then waits while
// the batches being written hold more than maxFlyingSpills spills' worth
// of sets (the wait lets go of x.mu, which the spills take to finish).
// The caller holds x.mu for writing.
func (x *Index) spillSetsLocked() {
	if x.spillDueLocked() {
		x.spillLocked()
	}
	for x.flyBytes > maxFlyingSpills*x.setSpill && !x.closed {
		x.flyCond.Wait()
	}
}
