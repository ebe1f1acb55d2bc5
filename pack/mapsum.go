package pack

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// Map summaries (docs/index.md "Map summaries"; issue 24): a map after an
// edit (its listing changed, so no plan holds, mapplan.go) used to answer
// every file's facts from the index — decrypt and decode its chunk sets,
// intern its identifiers — and rebuild the reference graph from them, to
// rank the same files again. A summary keeps, per file the map ranked,
// what the map needs of it before it knows which files it packs: its
// number of chunks and tokens, the words its symbol names define and the
// identifiers it uses (ids into one table of keyed word hashes, the
// hashes of mapredacted.go), and its centrality; found by a keyed stamp of
// the file's paths and stat. A map with a summary takes each unchanged
// file from it (no decode), re-derives only the changed files, reuses the
// ranks when every file's words are the same (else PageRank runs again on
// the summary's compact arrays), then decodes the facts of only the files
// its cut keeps (mapCutAhead), and writes the summary of what it ranked.
//
// Words are compared by their keyed 64-bit hash (as the facts of
// redacted files already are): the graph is the one of the words
// themselves unless two words of a tree share a hash, which a tree
// cannot aim at without the key.

// MapSumStore keeps the map summary of one root (package index
// implements it, index/mapsum.go). A summary holds no path, text or
// word: files by keyed stamps and path hashes, words by keyed hashes.
type MapSumStore interface {
	// Stamp is a keyed hash of f's paths and stat; false when the stat
	// cannot vouch for its text (no regular file, or changed too
	// recently to tell the next change).
	Stamp(f collector.FileRef) (uint64, bool)
	// PathHash is a keyed hash of a path.
	PathHash(path string) uint64
	// Sum returns the summary stored under key.
	Sum(key [32]byte) ([]byte, bool)
	// PutSum stores the body of size bytes write writes (once) under
	// key, replacing the root's summary; nothing is stored when write
	// fails or writes another size.
	PutSum(key [32]byte, size int, write func(io.Writer) error)
}

// MapSums is what a [FileIndex] may also keep: a map summary per root.
type MapSums interface {
	// MapSums returns the summary store of the root holding abs; nil
	// when none.
	MapSums(abs string) MapSumStore
}

// mapSumVersion names the summary's encoding and what its key covers.
const mapSumVersion = "acode map summary v2"

// errSumMiss ends a round whose summary turned out not to hold (a kept
// file's facts gone from the index, a graph that scans further than the
// summary kept): the map runs again without it.
var errSumMiss = errors.New("pack: map summary does not hold")

// sumEntry is one file of a summary: its stamp and path hash, its
// chunks, tokens and redactions, whether its uses are all it has
// (reach 0) or those before reach, its centrality, and its definitions
// and uses as word ids (uses in order of offset, with their offsets):
// words for an entry derived by this map, else encoded in the body of
// the summary read at raw:rawEnd (nd definitions, nu uses; sumWordsOf).
type sumEntry struct {
	path, stamp                uint64
	chunks, tokens, redactions int
	reach                      int
	central                    float64
	words                      *sumWords
	raw, rawEnd, nd, nu        uint32
}

// sumWords are the definitions and uses of a summary's entry.
type sumWords struct {
	defs, uses []uint32
	at         []int32
}

// mapSum is a summary read: the scan limit its uses were cut at, its
// word table (keyed hashes; perm the ids in order of hash), its files
// in map-file order and their index by stamp, and its bytes (body: the
// files' definitions and uses stay encoded there).
type mapSum struct {
	limit   int
	words   []uint64
	perm    []uint32
	files   []sumEntry
	byStamp map[uint64]int32
	body    []byte
}

// sumReport, when set (by tests), is told what each map with a summary
// took from it: whether one was read, the files ranked, how many were
// derived again, whether the ranks were the summary's.
var sumReport func(read bool, files, derived int, same bool)

// sumState is a map's summary across its rounds: the store, the key, the
// word hash, the summary read (nil: none), the words added since (ids
// past the summary's), the refs of the files re-derived (for their
// stamps), and whether the summary failed (the map runs again without).
type sumState struct {
	st    MapSumStore
	key   [32]byte
	hash  func(string) uint64
	old   *mapSum
	words []uint64
	extra map[uint64]uint32
	refOf map[string]refNote
	// tabHash caches the hash of each id of the walk's wordTab (ok marks
	// the ones computed).
	tabHash []uint64
	tabOK   []bool
}

// summed returns the summary state of a map when the request may use
// one (as a plan: a map of the walk alone, its text read alone) and the
// index keeps summaries and keyed word hashes; nil otherwise.
func (e *Engine) summed(p *pipeline, lean *leanMap, open []OpenDoc) *sumState {
	if lean == nil || lean.red == nil || !e.plannable(p.req, open) {
		return nil
	}
	ms, ok := IndexAs[MapSums](e.Index)
	if !ok || p.resolve() != nil || !p.tok.Exact() {
		return nil
	}
	if !lean.listed || len(lean.refs) == 0 {
		return nil
	}
	st := ms.MapSums(lean.refs[0].Abs)
	if st == nil {
		return nil
	}
	key, ok := p.sumKey()
	if !ok {
		return nil
	}
	ss := &sumState{st: st, key: key, hash: lean.red.MapWordHash, extra: map[uint64]uint32{}, refOf: map[string]refNote{}}
	if body, ok := st.Sum(key); ok {
		ss.old = decodeSum(body)
	}
	if ss.old != nil {
		ss.words = ss.old.words
	}
	return ss
}

// boundHeap sets a soft limit of the process's memory, sumHeapLimit, for
// the rest of a map of files files whose summary stood for all but a few
// (sumStale) of them, in a process that makes one pack (OneOff) and has
// no limit of its own (GOMEMLIMIT): such a map's live heap (≈ 200 MB at
// its peak, the graph's rows, for a 100K-file tree; docs/benchmarks.md)
// stays below it, and the one-shot pacing (cmd/acode-lsp/gctune.go: the
// heap grows by as much as is live) let the heap reach twice that. Trees
// of more than sumBoundFiles files are left alone (their live heap may
// pass the limit: the collector would run without end). unboundHeap
// lifts the limit: a map that runs again without its summary has the
// whole map's live heap.
func boundHeap(files int) {
	if !oneOff.Load() || files > sumBoundFiles || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return
	}
	debug.SetMemoryLimit(sumHeapLimit)
	heapBound.Store(true)
}

// unboundHeap lifts boundHeap's limit.
func unboundHeap() {
	if heapBound.Swap(false) {
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// heapBound: boundHeap set the limit.
var heapBound atomic.Bool

const (
	// sumHeapLimit is boundHeap's limit: with the binary and the index's
	// mapped files (≈ 43 MB) a resident set of about 300 MB.
	sumHeapLimit = 240 << 20
	// sumBoundFiles is the most files of a map boundHeap bounds.
	sumBoundFiles = 120_000
)

// sumKey is the digest of everything a file's summary depends on: the
// program, the configuration, the chunking and the tokenizer.
func (p *pipeline) sumKey() ([32]byte, bool) {
	id := exe()
	cfg, err := json.Marshal(p.e.cfg)
	if id == "" || err != nil {
		return [32]byte{}, false
	}
	return p.mapKey(mapSumVersion, id, string(cfg), p.tok.Encoding(), indexChunkKey(p.chunkOptions(), p.tok.Encoding())), true
}

// lookup returns the summary's entry of f at its very stat.
func (ss *sumState) lookup(f *collector.FileRef) (*sumEntry, bool) {
	if ss == nil || ss.old == nil {
		return nil, false
	}
	stamp, ok := ss.st.Stamp(*f)
	if !ok || stamp == 0 {
		return nil, false
	}
	i, ok := ss.old.byStamp[stamp]
	if !ok {
		return nil, false
	}
	return &ss.old.files[i], true
}

// stubSlot is walkLean's slot of a file the summary holds at its stat:
// a source whose facts are the summary's entry (stub facts: no chunks),
// decoded only if the map keeps it (loadStubs).
func (p *pipeline) stubSlot(lean *leanMap, f *collector.FileRef) (leanSlot, bool) {
	e, ok := lean.sum.lookup(f)
	if !ok {
		return leanSlot{}, false
	}
	s, ok, x := p.e.ws.Admitted(collector.OpenFile, *f)
	if x != nil {
		return leanSlot{x: x}, true
	}
	if !ok {
		return leanSlot{}, false
	}
	s.Redactions = e.redactions
	facts := &fileFacts{sum: e} // not kept in lean.mem: a walk again finds it here
	return leanSlot{s: source{Source: s, ref: f, facts: facts, origin: OriginWorkspace}, keep: true}, true
}

// stub reports whether f are a summary's entry alone (no chunks yet).
func (f *fileFacts) stub() bool { return f != nil && f.sum != nil && f.chunks == nil && f.packed == "" }

// stubChunks is the number of chunks of srcs stood for by stub facts.
func stubChunks(srcs []source) int {
	n := 0
	for _, s := range srcs {
		if s.facts.stub() {
			n += s.facts.sum.chunks
		}
	}
	return n
}

// refNote is what a summary keeps of a file's source besides its facts.
type refNote struct {
	ref        *collector.FileRef
	redactions int
}

// noteRefs records the refs of the files a walk did not take from the
// summary (their stamps go in the next one).
func (ss *sumState) noteRefs(slots []leanSlot) {
	if ss == nil {
		return
	}
	for _, sl := range slots {
		if sl.keep && sl.s.ref != nil && !sl.s.facts.stub() {
			ss.refOf[sl.s.Path] = refNote{ref: sl.s.ref, redactions: sl.s.Redactions}
		}
	}
}

// loadStubs decodes the facts of the files of srcs stood for by stub
// facts that keep holds (nil: every file): from the index, as phantom
// does, checked against the summary's numbers; errSumMiss when one is
// gone or differs.
func (p *pipeline) loadStubs(srcs []source, cut [][]chunker.Chunk, keep map[string]bool) error {
	if p.lean == nil || p.lean.sum == nil {
		return nil
	}
	ikey := indexChunkKey(p.chunkOptions(), p.tok.Encoding())
	for si := range srcs {
		s := &srcs[si]
		if !s.facts.stub() || keep != nil && !keep[s.Path] {
			continue
		}
		facts, ok := p.factsAt(s.ref, ikey)
		if !ok || !facts.agrees(s.facts.sum) {
			return errSumMiss
		}
		facts.sum = s.facts.sum
		s.facts, cut[si] = facts, facts.chunks
		p.idents[s.Path] = facts
		p.lean.keep(s.ref, facts, s.Redactions)
	}
	return nil
}

// factsAt decodes the facts the index holds for f's stat (its
// identifiers left encoded: the graph is made).
func (p *pipeline) factsAt(f *collector.FileRef, ikey string) (*fileFacts, bool) {
	sets, ok := p.lean.si.StatSets(*f, []string{ikey, mapFactsKey(ikey)})
	if !ok || len(sets[1]) != 1 {
		facts, _, ok := p.lean.redactedPhantom(f, ikey)
		return facts, ok
	}
	facts := &fileFacts{chunks: sets[0]}
	if !decodeFacts(sets[1][0].Name, facts, f.Info.Size()) || !factsValid(facts, f.Info.Size()) {
		return nil, false
	}
	return facts, true
}

// agrees reports whether facts have the chunks and tokens of e.
func (f *fileFacts) agrees(e *sumEntry) bool {
	tokens := 0
	for _, c := range f.all() {
		tokens += c.Tokens
	}
	return f.count() == e.chunks && tokens == e.tokens
}

// tallyStub adds to t the file of a source with stub facts: its chunks
// and tokens from the summary, its map file standing for its words.
func (t *mapTally) tallyStub(s source) {
	e := s.facts.sum
	t.all += int64(e.chunks)
	i, ok := t.at[s.Path]
	if !ok {
		i = len(t.files)
		t.at[s.Path] = i
		t.files = append(t.files, mapFile{path: s.Path, facts: s.facts})
		t.grow()
	}
	t.count[i] += int64(e.chunks)
	t.tokens[i] += int64(e.tokens)
}

// wordID returns the id of the word of keyed hash h, adding it when new.
func (ss *sumState) wordID(h uint64) uint32 {
	if o := ss.old; o != nil {
		k, found := slices.BinarySearchFunc(o.perm, h, func(id uint32, h uint64) int {
			switch w := o.words[id]; {
			case w < h:
				return -1
			case w > h:
				return 1
			}
			return 0
		})
		if found {
			return o.perm[k]
		}
	}
	if id, ok := ss.extra[h]; ok {
		return id
	}
	id := uint32(len(ss.words))
	ss.words = append(ss.words, h)
	ss.extra[h] = id
	return id
}

// wordHash is the keyed hash of a graph word: a hashKey's own, else the
// word's.
func (ss *sumState) wordHash(w string) uint64 {
	if rest, ok := strings.CutPrefix(w, hashedNamePrefix); ok && len(rest) == 8 {
		return binary.LittleEndian.Uint64([]byte(rest))
	}
	return ss.hash(w)
}

// tabID returns the summary's id of the word of id in the walk's table.
func (ss *sumState) tabID(tab *wordTab, id uint32) uint32 {
	if int(id) >= len(ss.tabHash) {
		n := max(len(tab.words), int(id)+1)
		ss.tabHash = append(ss.tabHash, make([]uint64, n-len(ss.tabHash))...)
		ss.tabOK = append(ss.tabOK, make([]bool, n-len(ss.tabOK))...)
	}
	if !ss.tabOK[id] {
		ss.tabHash[id], ss.tabOK[id] = ss.wordHash(tab.words[id]), true
	}
	return ss.wordID(ss.tabHash[id])
}

// derive is the summary entry of a map file not taken from the summary:
// the words of its names (each once, in order), its uses before limit
// (from its facts, or scanned from its parts) and how far they reach.
func (ss *sumState) derive(mf *mapFile, limit int, tab *wordTab) sumEntry {
	e := sumEntry{words: &sumWords{defs: ss.nameIDs(mf.names)}}
	ss.deriveUses(&e, mf, limit, tab)
	return e
}

// nameIDs are the ids of the words of names a map's graph follows (as
// mapDefiners splits them), each once, in order.
func (ss *sumState) nameIDs(names []string) []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	add := func(w string) {
		id := ss.wordID(ss.wordHash(w))
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, name := range names {
		if plainName(name) {
			if len(name) >= graphMinName {
				add(name)
			}
			continue
		}
		nameWords(name, keepWord, add)
	}
	return out
}

// deriveUses sets e's uses before limit (from mf's facts, or scanned from
// its parts) and how far they reach.
func (ss *sumState) deriveUses(e *sumEntry, mf *mapFile, limit int, tab *wordTab) {
	f := mf.facts
	switch {
	case f != nil && f.words != nil:
		for k, w := range f.words {
			if int(f.wordsAt[k]) >= limit {
				e.reach = limit
				break
			}
			e.words.uses, e.words.at = append(e.words.uses, ss.tabID(tab, w)), append(e.words.at, f.wordsAt[k])
		}
	default:
		var uses []mapIdent
		if f != nil {
			uses = f.ids
		} else {
			uses = fileIdents(mf.parts, limit)
		}
		for _, u := range uses {
			if u.at >= limit {
				e.reach = limit
				break
			}
			e.words.uses, e.words.at = append(e.words.uses, ss.wordID(ss.wordHash(u.w))), append(e.words.at, int32(u.at))
		}
		if f == nil {
			e.reach = limit // a scan stops at limit
		}
	}
	if f != nil && f.trimmed != 0 && (e.reach == 0 || f.trimmed < e.reach) {
		e.reach = f.trimmed
	}
}

// sumFiles are the entries of a map's files: the summary's for the
// files taken from it, derived for the others; false when a summary's
// entry did not keep the uses a scan to limit reads.
func (ss *sumState) sumFiles(files []mapFile, limit int, tab *wordTab) ([]*sumEntry, []bool, bool) {
	ents := make([]*sumEntry, len(files)) // the summary's own, or derived
	fresh := make([]bool, len(files))
	for i := range files {
		mf := &files[i]
		if mf.facts != nil && mf.facts.sum != nil {
			e := mf.facts.sum
			if e.reach != 0 && limit > e.reach {
				return nil, nil, false
			}
			ents[i] = e
			continue
		}
		e := ss.derive(mf, limit, tab)
		e.path = ss.st.PathHash(mf.path)
		e.chunks = max(1, len(mf.parts))
		if f := mf.facts; f != nil {
			e.chunks = f.count()
			for _, c := range f.all() {
				e.tokens += c.Tokens
			}
			// Only a file known by its facts and its stat is taken
			// from a summary (a text scanned has stamp 0: none).
			if n, ok := ss.refOf[mf.path]; ok && n.ref != nil && e.chunks > 0 {
				e.stamp, _ = ss.st.Stamp(*n.ref)
				e.redactions = n.redactions
			}
		}
		ents[i], fresh[i] = &e, true
	}
	return ents, fresh, true
}

// repoMap is newRepoMapOf for a map with a summary: the files' entries,
// the summary's ranks when every file's words are the summary's (same
// files, same order, same scan), else PageRank over the entries' arrays;
// the new summary is stored when there was none, the ranks changed or
// more than sumStale files were derived again. false when the summary
// cannot serve.
func (ss *sumState) repoMap(ctx context.Context, files []mapFile, tab *wordTab) (*repoMap, bool) {
	limit := mapScanLimit(max(len(files), 1))
	ents, fresh, ok := ss.sumFiles(files, limit, tab)
	if !ok {
		return nil, false
	}
	paths := make([]string, len(files))
	for i := range files {
		paths[i] = files[i].path
	}
	if ss.old != nil && countTrue(fresh) <= sumStale(len(files)) {
		boundHeap(len(files)) // the summary stood for the files: the rest of the map is small
	}
	central, same := ss.sameRanks(ents, fresh, paths, limit)
	Logger(ctx).Debug("map summary", zap.Bool("read", ss.old != nil), zap.Int("files", len(files)),
		zap.Int("derived", countTrue(fresh)), zap.Bool("same ranks", same))
	if sumReport != nil {
		sumReport(ss.old != nil, len(files), countTrue(fresh), same)
	}
	se := &sumEnc{limit: limit, words: ss.words, ents: ents, old: ss.old}
	if ss.old != nil {
		se.perm = ss.old.perm
	}
	if same {
		if countTrue(fresh) > sumStale(len(files)) {
			se.central = centralsOf(central, paths)
			ss.st.PutSum(ss.key, se.size(), se.writeTo)
		}
		return repoMapOf(central), true
	}
	// Ranked again: the files' records are written first, then the graph
	// is made (the summary read is let go of once the graph has what it
	// needs of it), then the centralities.
	rank := func() {
		g := sumGraph(ss.old, ents, paths, len(ss.words), limit, ss.old.release)
		central = centralOf(g, paths)
	}
	ss.st.PutSum(ss.key, se.size(), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		se.writeFiles(bw)
		rank()
		se.central = centralsOf(central, paths)
		se.writeCentral(bw)
		return bw.Flush()
	})
	if central == nil {
		rank() // not written (PutSum refused the size)
	}
	return repoMapOf(central), true
}

// centralsOf is the centrality of each of paths.
func centralsOf(central map[string]float64, paths []string) []float64 {
	cs := make([]float64, len(paths))
	for i, p := range paths {
		cs[i] = central[p]
	}
	return cs
}

// release lets go of the bytes of a summary read (nil: none) once no
// entry's words are read from them again.
func (o *mapSum) release() {
	if o != nil {
		o.body = nil
	}
}

// sumStale is how many of n files a summary whose ranks still hold may
// have at a stat of old before it is written again: each is derived again
// by every map (its facts from the index), which costs less than writing
// the summary (tens of MB for a 100K-file tree) after every edit that
// changes no file's words.
func sumStale(n int) int { return max(32, n/256) }

// countTrue counts the true values of bs.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// sameRanks returns the summary's ranks when ents are its files, in its
// order, with the same words, scanned to the same limit.
func (ss *sumState) sameRanks(ents []*sumEntry, fresh []bool, paths []string, limit int) (map[string]float64, bool) {
	o := ss.old
	if o == nil || o.limit != limit || len(o.files) != len(ents) {
		return nil, false
	}
	for i := range ents {
		if ents[i].path != o.files[i].path {
			return nil, false
		}
		if fresh[i] && !o.sameWords(ents[i], &o.files[i], limit) {
			return nil, false
		}
	}
	central := make(map[string]float64, len(paths))
	for i, p := range paths {
		central[p] = o.files[i].central
	}
	return central, true
}

// sameWords reports whether a and b (entries of o or derived) define
// the same words and use the same before limit.
func (o *mapSum) sameWords(a, b *sumEntry, limit int) bool {
	var ba, bb sumWords
	wa, wb := o.sumWordsOf(a, &ba), o.sumWordsOf(b, &bb)
	return slices.Equal(wa.defs, wb.defs) && slices.Equal(cutUses(wa, limit), cutUses(wb, limit))
}

// cutUses is w's uses before limit.
func cutUses(w *sumWords, limit int) []uint32 {
	k, _ := slices.BinarySearch(w.at, int32(min(limit, math.MaxInt32)))
	return w.uses[:k]
}

// sumGraph is mapGraph over summary entries: the same files, names
// (words by id) and uses, so the same graph.
// The entries not derived are o's (nil: none are); done is called once
// their words are read.
func sumGraph(o *mapSum, ents []*sumEntry, paths []string, words, limit int, done func()) *refGraph {
	defer done()
	n := len(ents)
	if n < 2 || n >= mapGraphMaxFiles {
		return nil
	}
	nameOf, definers := sumDefiners(o, ents, words)
	if definers.n() == 0 {
		return nil
	}
	g := &refGraph{files: paths}
	refs := sumRefs(o, ents, nameOf, limit)
	done()
	g.start, g.to, g.w = arcRows(refs, definers)
	return g
}

// sumDefiners are mapDefiners' over summary entries: each defined word's
// index among the names followed (nameOf, by word id; -1: none, or
// defined too often) and their definers (rows in order of first
// definition).
func sumDefiners(o *mapSum, ents []*sumEntry, words int) (nameOf []int32, definers rows) {
	var buf sumWords
	nameOf = make([]int32, words)
	for i := range nameOf {
		nameOf[i] = -1
	}
	names := int32(0)
	for f := range ents {
		for _, w := range o.sumWordsOf(ents[f], &buf).defs {
			if nameOf[w] < 0 {
				nameOf[w] = names
				names++
			}
		}
	}
	all := make([]nameDefs, names)
	for f := range ents {
		for _, w := range o.sumWordsOf(ents[f], &buf).defs {
			all[nameOf[w]].add(int32(f))
		}
	}
	kept := make([]int32, names)
	definers.start = []int{0}
	for k := range all {
		kept[k] = -1
		if fs := all[k].files(); fs != nil {
			kept[k] = int32(definers.n())
			definers.add(fs)
		}
	}
	for w, k := range nameOf {
		if k >= 0 {
			nameOf[w] = kept[k]
		}
	}
	return nameOf, definers
}

// sumRefs is definers.appendRefs over summary entries: per file the
// names followed it uses before limit, in order.
func sumRefs(o *mapSum, ents []*sumEntry, nameOf []int32, limit int) rows {
	refs := rows{start: make([]int, len(ents)+1)}
	var buf sumWords
	for pass := range 2 { // count, then fill one array of that size
		k := 0
		for f := range ents {
			e := o.sumWordsOf(ents[f], &buf)
			for j, w := range e.uses {
				if int(e.at[j]) >= limit {
					break
				}
				if x := nameOf[w]; x >= 0 {
					if pass == 1 {
						refs.at[k] = x
					}
					k++
				}
			}
			refs.start[f+1] = k
		}
		if pass == 0 {
			refs.at = make([]int32, k)
		}
	}
	return refs
}

// retry returns the state to run l's map again with when its summary
// did not hold (err errSumMiss, or sumMiss set); nil otherwise.
func (l *leanMap) retry(ctx context.Context, err error) *leanMap {
	if l == nil || l.sum == nil || !l.sumMiss && !errors.Is(err, errSumMiss) || ctx.Err() != nil {
		return nil
	}
	Logger(ctx).Debug("map summary not used: the map runs without it")
	unboundHeap()
	return l.without()
}

// without is a fresh state for l's map run again without its summary:
// the listing kept, everything else as a map starts.
func (l *leanMap) without() *leanMap {
	return &leanMap{si: l.si, red: l.red, read: map[string]bool{}, need: map[string]bool{},
		listed: l.listed, refs: l.refs, excls: l.excls}
}
