package pack

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// graphMemo keeps the last graphs graphFactors built (graphMemoSize, the
// most recently used first) with the fingerprints of the chunks they were
// built from: a running server's warm packs of the same candidates (the
// same query, or any query of a tree small enough that every file is a
// candidate) built the same graph again on every pack (issue 24: a quarter
// of a warm MCP pack of net/http). The graph is a function of its chunks'
// paths, symbol names and texts in order, and nothing else (buildGraph),
// so a graph found under the same fingerprint is the graph buildGraph
// would make. A kept graph is only read.
var graphMemo struct {
	sync.Mutex
	kept []keptGraph
}

// graphMemoSize is how many graphs graphMemo keeps: an agent going back
// and forth between a few tasks finds each one's.
const graphMemoSize = 4

// keptGraph is a graph graphMemo keeps and its chunks' fingerprint.
type keptGraph struct {
	key graphKey
	g   *refGraph
}

// graphKey fingerprints a graph's chunks: two seeded 64-bit hashes over
// each chunk's path, symbol name and text key (textid, 128 bits).
type graphKey [2]uint64

var graphKeySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// graphKeyOf fingerprints what buildGraph reads of items: every chunk
// with a path, its path, name and text (by its textid key, which a kept
// chunk answers without hashing its text again).
func graphKeyOf(items []*budget.Item) graphKey {
	var h [2]maphash.Hash
	h[0].SetSeed(graphKeySeeds[0])
	h[1].SetSeed(graphKeySeeds[1])
	var buf [8 + 8 + 16]byte
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		k := textid.Of(it.Content)
		binary.LittleEndian.PutUint64(buf[0:], uint64(len(it.Path)))
		binary.LittleEndian.PutUint64(buf[8:], uint64(len(it.Name)))
		binary.LittleEndian.PutUint64(buf[16:], k[0])
		binary.LittleEndian.PutUint64(buf[24:], k[1])
		for i := range h {
			h[i].Write(buf[:])
			h[i].WriteString(it.Path)
			h[i].WriteString(it.Name)
		}
	}
	return graphKey{h[0].Sum64(), h[1].Sum64()}
}

// memoGraph returns buildGraph(items, 0), a kept graph when its chunks
// are the same.
func memoGraph(items []*budget.Item) *refGraph {
	if oneOff.Load() {
		return buildGraph(items, 0) // nothing kept (oneoff.go)
	}
	k := graphKeyOf(items)
	m := &graphMemo
	m.Lock()
	for i, e := range m.kept {
		if e.key == k {
			copy(m.kept[1:i+1], m.kept[:i]) // most recently used first
			m.kept[0] = e
			m.Unlock()
			return e.g
		}
	}
	m.Unlock()
	g := buildGraph(items, 0)
	m.Lock()
	if len(m.kept) < graphMemoSize {
		m.kept = append(m.kept, keptGraph{})
	}
	copy(m.kept[1:], m.kept[:len(m.kept)-1])
	m.kept[0] = keptGraph{k, g}
	m.Unlock()
	return g
}
