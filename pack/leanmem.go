package pack

import (
	"hash/maphash"
	"sync"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// A map without the index's facts (docs/index.md "A map without
// reading"): a pack without a query and without an index (--no-index),
// or counting with a tokenizer that estimates (the index keeps exact
// counts only), runs the rounds of a map answered from the index with a
// set store that keeps nothing (noSets). Its walk reads every file once,
// cuts it, keeps its facts in the pack (leanMap.mem, counted by this
// pack's tokenizer) and lets its text go; a later round reads again the
// texts it needs. So it holds what a map from the index holds — facts,
// and only the texts it packs — and no walk limit is hit by a map of any
// tree the walk lists (before, it held every text: the 100K-file tree's
// 268 MB ended in maxBytesRead). Its output is the output of reading
// every file, as a map's rounds are (mapindex.go).

// mapReadsAll, set by tests, makes a map read and hold every file's text
// in one round, as every map did before its rounds: the output the
// rounds must give.
var mapReadsAll bool

// noSets is the SetIndex of a map whose facts stay in the pack: it keeps
// nothing and answers nothing.
type noSets struct{}

// PutSet implements [SetIndex]; it keeps nothing.
func (noSets) PutSet(collector.FileRef, []byte, string, []chunker.Chunk) {}

// Set implements [SetIndex]; it is always a miss.
func (noSets) Set(collector.FileRef, []byte, string) ([]chunker.Chunk, bool) { return nil, false }

// StatSets implements [SetIndex]; it is always a miss.
func (noSets) StatSets(collector.FileRef, []string) ([][]chunker.Chunk, bool) { return nil, false }

// mapStores returns where a map keeps and finds the facts of its files:
// the index when it keeps sets (and its store of redacted files' facts
// when it has one), else noSets.
func mapStores(idx FileIndex) (SetIndex, RedactedFacts) {
	si, ok := idx.(SetIndex)
	if !ok {
		return noSets{}, nil
	}
	red, _ := idx.(RedactedFacts)
	return si, red
}

// memOnly reports whether l keeps the facts of its files in the pack
// alone (noSets).
func (l *leanMap) memOnly() bool {
	_, ok := l.si.(noSets)
	return ok
}

// countsWith readies l for a round counting with tok and reports whether
// the round may answer files from facts: on the first round, a
// tokenizer that estimates turns l to facts of this pack alone (the
// index's are exact counts, and an estimate's factor may be calibrated
// between packs); a later round counting otherwise than the first (a
// factor calibrated meanwhile) may not use the facts counted before.
func (l *leanMap) countsWith(tok tokenizer.Tokenizer) bool {
	enc := tok.Encoding()
	if l.enc == "" {
		l.enc = enc
		if !tok.Exact() {
			l.si, l.red = noSets{}, nil
		}
	}
	return l.enc == enc
}

// eagerOf is how far into each file l's walk keeps identifiers
// (eagerLimit). A map from the index fetches again the identifiers of
// the files a graph of fewer files (some excluded or without chunks)
// scans further; a map whose facts stay in the pack would read those
// files again, so it keeps identifiers as far as a graph of a quarter of
// the files scans: the excess is mapScanBytes × 4 over the whole tree at
// most (nothing past the floor mapScanMin, in trees of 32K files or
// more), and trimSlots cuts it before the graph.
func (l *leanMap) eagerOf(include []string, refs []collector.FileRef) int {
	if !l.memOnly() {
		return eagerLimit(include, refs)
	}
	n := 0
	for i := range refs {
		if included(include, refs[i].Path) {
			n++
		}
	}
	return mapScanLimit(max((n+3)/4, 1))
}

// leanMeter reports the progress of a map's walk reading the files
// toRead (of refs): the first walk reads and cuts every file it has no
// facts of, which is the chunking of a map (30 to 60 %, by bytes, as
// cutAll reports it for a pack that holds its texts); a later round's
// walk reads the texts it needs.
func (p *pipeline) leanMeter(lean *leanMap, refs []collector.FileRef, toRead []int) *meter {
	var size int64
	for _, i := range toRead {
		if refs[i].Info != nil {
			size += refs[i].Info.Size()
		}
	}
	verb := "chunking"
	if lean.repoMap != nil {
		verb = "reading"
	}
	return newMeter(p.progress, verb, 30, 60, len(toRead), size)
}

// monotone returns progress with its percentage never going back: a
// map's rounds run the stages again (and LSP's work done progress asks
// for a rising percentage).
func monotone(progress func(string, int)) func(string, int) {
	var mu sync.Mutex
	top := 0
	return func(msg string, pct int) {
		mu.Lock()
		defer mu.Unlock()
		top = max(top, pct)
		progress(msg, top)
	}
}

// textSeed seeds textSum: random per process (the sums live in the
// pack), so no two texts can be made to collide in advance.
var textSeed = maphash.MakeSeed()

// textSum is the hash of a text a map whose facts stay in the pack keeps
// with them (memFacts.text).
func textSum(text string) uint64 { return maphash.String(textSeed, text) }

// noteText records, with the facts kept of f in a map whose facts stay
// in the pack, the sum of the text they were cut from.
func (l *leanMap) noteText(f *collector.FileRef, text string) {
	if !l.memOnly() {
		return
	}
	sum := textSum(text)
	l.mu.Lock()
	defer l.mu.Unlock()
	if m, ok := l.mem[f.Abs]; ok {
		m.text = sum
		l.mem[f.Abs] = m
	}
}

// reuseCut spares a round of a map whose facts stay in the pack the cut
// of a text it reads again (s, of the listed file f): when the text is
// the one its kept facts were cut from (textSum), their chunks are its
// chunks, put in the engine's chunk cache where the cut finds them. A
// map from the index finds them there; without this, a map counting
// estimates (which the engine's cache does not keep) parsed each text it
// packs twice: net/http's map took 1.4× the CPU of a map holding every
// text.
func (p *pipeline) reuseCut(f *collector.FileRef, s collector.Source) {
	if p.lean == nil || !p.lean.memOnly() {
		return
	}
	m, ok := p.lean.memOf(f)
	if !ok || m.text == 0 || m.facts.count() == 0 || m.text != textSum(s.Content) {
		return
	}
	p.e.chunks.Add(chunkKey(s.Path, s.Content, p.chunkOptions(), p.tok.Encoding()), m.facts.chunkList())
}
