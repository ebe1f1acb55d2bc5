package pack

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/internal/textid"
)

// graphMemo keeps the last reference graph graphFactors built and the
// fingerprint of the chunks it was built from: a running server's warm
// packs of the same candidates (the same files' chunks: the same query,
// or any query of a tree small enough that every file is a candidate)
// built the same graph again on every pack (issue 24: a quarter of a warm
// MCP pack of net/http). The graph is a function of its chunks' paths,
// symbol names and texts in order, and nothing else (buildGraph), so a
// graph found under the same fingerprint is the graph buildGraph would
// make. One graph is kept; it is only read once built.
var graphMemo struct {
	sync.Mutex
	key graphKey
	g   *refGraph
	ok  bool
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

// memoGraph returns buildGraph(items, 0), the graph kept from the last
// call when its chunks are the same.
func memoGraph(items []*budget.Item) *refGraph {
	k := graphKeyOf(items)
	graphMemo.Lock()
	if graphMemo.ok && graphMemo.key == k {
		g := graphMemo.g
		graphMemo.Unlock()
		return g
	}
	graphMemo.Unlock()
	g := buildGraph(items, 0)
	graphMemo.Lock()
	graphMemo.key, graphMemo.g, graphMemo.ok = k, g, true
	graphMemo.Unlock()
	return g
}
