package pack

import (
	"cmp"

	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// SetIndex is what a [FileIndex] may also keep (package index implements
// it): lists of a file's facts stored as chunks under a key, beside its
// chunkings — its outline ranges (outline.go) and what a map needs of it
// without its text (repomap.go).
type SetIndex interface {
	// PutSet stores set, computed from content (the text of f), for key.
	PutSet(f collector.FileRef, content []byte, key string, set []chunker.Chunk)
	// Set returns the set stored for key and this content; false on a
	// miss. The caller checks it against the text.
	Set(f collector.FileRef, content []byte, key string) ([]chunker.Chunk, bool)
	// StatSets returns the sets of keys stored for the text f's stat
	// vouches for, without that text; false unless every key has one.
	StatSets(f collector.FileRef, keys []string) ([][]chunker.Chunk, bool)
}

// outlineKey names the outline ranges of a file in the index (the
// index's version covers what chunker.Outline makes of its probe).
const outlineKey = "outline\x00v1"

// setIndex returns the engine's index as a SetIndex, nil when it has none
// or the index keeps no sets.
func (p *pipeline) setIndex() SetIndex {
	if p.e.Index == nil {
		return nil
	}
	si, _ := p.e.Index.(SetIndex)
	return si
}

// indexedOutline returns the outline ranges of text (the file f) stored in
// the index, checked against the text: in line order, apart, within its
// lines. false on a miss or a set that fails the check.
func indexedOutline(si SetIndex, f collector.FileRef, text *budget.Text) ([]chunker.LineRange, bool) {
	set, ok := si.Set(f, []byte(text.String()), outlineKey)
	if !ok {
		return nil, false
	}
	return outlineRanges(set, text.Lines())
}

// outlineRanges turns a stored set back into outline ranges, checked
// against a text of n lines.
func outlineRanges(set []chunker.Chunk, n int) ([]chunker.LineRange, bool) {
	if len(set) == 0 {
		return nil, true // a file without an outline
	}
	rs := make([]chunker.LineRange, len(set))
	prev := 0
	for i, c := range set {
		if c.StartLine <= prev || c.EndLine < c.StartLine || c.EndLine > n {
			return nil, false
		}
		rs[i] = chunker.LineRange{Start: c.StartLine, End: c.EndLine}
		prev = c.EndLine
	}
	return rs, true
}

// outlineSet is rs as a set to store.
func outlineSet(rs []chunker.LineRange) []chunker.Chunk {
	set := make([]chunker.Chunk, len(rs))
	for i, r := range rs {
		set[i] = chunker.Chunk{StartLine: r.Start, EndLine: r.End}
	}
	return set
}

// A map answered from the index (docs/index.md "A map without reading"):
// a pack without a query ranks files by their place in the reference
// graph and packs the outlines and chunks of the central ones, so it
// needs of most files only their chunks (boundaries, kinds, names, token
// counts), the identifiers they use and a hash of each chunk (for dedup)
// — which the index keeps per file — and reads only the files whose text
// reaches the pack. Such a file is not known before the map is computed,
// so a pack runs in rounds: each round packs with the texts it has and
// the index's facts for the rest; the files whose text it turned out to
// need (packed, outlined, or a duplicate to check) are read, and the
// pack runs again, until a round needs no text it lacks. That round's
// output is the output of reading every file: every decision about a
// file whose text was not read (rank, dedup, selection's arithmetic)
// used facts the index keeps of that very text.
// maxLeanRounds bounds the rounds of a map; then every file is read.
const maxLeanRounds = 6

// mapFactsKey names, for the chunking ikey, a file's facts beyond its
// chunks as one set of one entry whose Name packs them (encodeFacts): per
// chunk its hash mark (the first markLen bytes of its
// budget.NormalizedHash) and whether XML must split its CDATA section;
// the identifiers the file uses, each with the offset of its first start.
func mapFactsKey(ikey string) string { return "mapfacts\x00v1\x00" + ikey }

// markLen is the length of a chunk's hash mark: 128 bits of SHA-256, so
// that two chunks with one mark are copies (a collision among a tree's
// chunks is beyond reach) and dedup may decide on marks alone.
const markLen = 16

// fileFacts is what a map knows of a file whose text it has not read:
// its chunks (without their text), a hash mark and a split flag per
// chunk, either as the index gave them (chunks, marks, split) or packed
// in one string (packed, mapfactpack.go: facts of a text at hand); read
// them through count, mark, splits, all and chunkList.
type fileFacts struct {
	chunks []chunker.Chunk
	marks  []string // per chunk, markLen bytes
	split  []bool   // per chunk: XML splits its CDATA section
	packed string   // packChunks': chunks, marks and split nil
	ids    []mapIdent
	// raw, for facts decoded from the index, is their encoding until
	// trimIdents decodes the identifiers a graph can use (ids is empty
	// till then); idsAt is where the identifiers start in it.
	raw   string
	idsAt int
	// words and wordsAt are those identifiers once trimIdents decoded
	// them: their ids in the walk's wordTab and their offsets (non-nil
	// once decoded; ids stays empty).
	words   []uint32
	wordsAt []int32
	// trimmed is the limit trimIdents left identifiers out past (0: it
	// kept them all).
	trimmed int
	// red, for the facts of a redacted file from the index
	// (mapredacted.go), is the store whose keys hashed them: its chunks'
	// names are hashed, its marks keyed.
	red RedactedFacts
	// sum, for a file a map summary holds at its stat (mapsum.go), is
	// its entry there: the facts are that alone (no chunks) until the
	// map keeps the file (loadStubs).
	sum *sumEntry
}

// encodeFacts packs the marks, split flags and identifiers of f:
// uvarint n, n marks, n flag bytes, uvarint m, then per identifier
// uvarint offset delta, uvarint length, its bytes.
func encodeFacts(f *fileFacts) string {
	n := f.count()
	b := binary.AppendUvarint(nil, uint64(n))
	for i := range n {
		b = append(b, f.mark(i)...)
	}
	for i := range n {
		b = append(b, boolByte(f.splits(i)))
	}
	b = binary.AppendUvarint(b, uint64(len(f.ids)))
	prev := 0
	for _, id := range f.ids {
		b = binary.AppendUvarint(b, uint64(id.at-prev))
		b = binary.AppendUvarint(b, uint64(len(id.w)))
		b = append(b, id.w...)
		prev = id.at
	}
	return string(b)
}

// decodeFacts unpacks the marks and split flags encodeFacts packed into f
// (the marks share s) and checks its identifiers without keeping them:
// well formed, in rising offsets below size, each at least graphMinName
// long; trimIdents decodes those a graph reaches. false when s is
// malformed or an identifier fails its check.
func decodeFacts(s string, f *fileFacts, size int64) bool {
	n, pos, ok := uvarintAt(s, 0, uint64(len(s)))
	if !ok || len(s)-pos < n*(markLen+1) {
		return false
	}
	f.marks, f.split = make([]string, n), make([]bool, n)
	for i := range f.marks {
		f.marks[i] = s[pos : pos+markLen]
		pos += markLen
	}
	for i := range f.split {
		f.split[i] = s[pos] == 1
		pos++
	}
	f.raw, f.idsAt = s, pos
	return walkIdents(s, pos, func(mapIdent, int, int) bool { return true }, size)
}

// uvarintAt reads a uvarint of s at pos: its value, the position after
// it, false when malformed or above bound.
func uvarintAt(s string, pos int, bound uint64) (int, int, bool) {
	var v uint64
	for shift, i := uint(0), pos; i < len(s) && shift < 64; shift, i = shift+7, i+1 {
		c := s[i]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			if v > bound {
				return 0, 0, false
			}
			return int(v), i + 1, true
		}
	}
	return 0, 0, false
}

// walkIdents walks the identifiers encoded in s from pos (their count
// first), calling fn with each, where its name starts in s and the
// position after it, until fn says stop; false when the encoding is
// malformed or an identifier fails idsValid's checks (within a file of
// size bytes) before then.
func walkIdents(s string, pos int, fn func(id mapIdent, start, end int) bool, size int64) bool {
	m, pos, ok := uvarintAt(s, pos, uint64(len(s)))
	if !ok {
		return false
	}
	at, prev := 0, -1
	for k := 0; k < m; k++ {
		d, p1, ok1 := uvarintAt(s, pos, uint64(max(size, 0))) // an offset delta: within the file
		if !ok1 {
			return false
		}
		l, p2, ok2 := uvarintAt(s, p1, uint64(len(s)))
		if !ok2 || len(s)-p2 < l {
			return false
		}
		at += d
		id := mapIdent{w: s[p2 : p2+l], at: at}
		pos = p2 + l
		if id.at <= prev || int64(id.at) >= size || len(id.w) < graphMinName {
			return false
		}
		prev = id.at
		if !fn(id, p2, pos) {
			return true
		}
	}
	return pos == len(s)
}

// cutIdents lets go of the identifiers of facts of a text at hand
// (factsOf) that start at or past limit, recording the cut (trimmed) so
// that retrim fetches them again when a graph reaches further.
func cutIdents(f *fileFacts, limit int) {
	k := sort.Search(len(f.ids), func(i int) bool { return f.ids[i].at >= limit })
	if k < len(f.ids) {
		f.ids, f.trimmed = slices.Clone(f.ids[:k]), limit
	}
}

// trimIdents decodes the identifiers of facts from the index that start
// before limit (those a map's graph can reach, mapGraph) into tab (their
// ids in words, their offsets in wordsAt) and lets the encoding go: the
// marks keep a copy of only their part of it. Facts decoded already are
// left as they are.
func trimIdents(f *fileFacts, limit int, tab *wordTab) {
	if f.raw == "" {
		// Facts of a text at hand (factsOf): cut to the same limit.
		k := sort.Search(len(f.ids), func(i int) bool { return f.ids[i].at >= limit })
		if k < len(f.ids) {
			f.ids = slices.Clone(f.ids[:k])
		}
		return
	}
	// One walk into the table's scratch, then copied at their size: the
	// facts of every file are held at once.
	words, at := tab.scratch[:0], tab.scratchAt[:0]
	walkIdents(f.raw, f.idsAt, func(id mapIdent, _, _ int) bool {
		if id.at >= limit {
			f.trimmed = limit
			return false
		}
		words, at = append(words, tab.id(id.w)), append(at, int32(id.at))
		return true
	}, math.MaxInt64)
	f.words, f.wordsAt = make([]uint32, len(words)), make([]int32, len(at))
	copy(f.words, words)
	copy(f.wordsAt, at)
	tab.scratch, tab.scratchAt = words, at
	marksAt := f.idsAt - len(f.split) - len(f.marks)*markLen
	marks := strings.Clone(f.raw[marksAt : marksAt+len(f.marks)*markLen])
	for i := range f.marks {
		f.marks[i] = marks[i*markLen : (i+1)*markLen]
	}
	f.raw, f.idsAt = "", 0
}

// leanMap is the state of a map answered from the index, across the
// rounds of one Pack.
type leanMap struct {
	si  SetIndex
	red RedactedFacts // nil: the index keeps no facts of redacted files
	// keyed: this map has facts of a redacted file, so it compares hash
	// marks keyed (markOf).
	keyed  bool
	listed bool
	refs   []collector.FileRef
	excls  []collector.Exclusion
	read   map[string]bool // files (absolute) earlier rounds needed the text of
	all    bool            // read every file
	need   map[string]bool // files this round needs the text of
	// pending are the files the round before needed the text of (a
	// resumed round reads them, mapresume.go).
	pending map[string]bool
	rounds  int
	hits    int // files of the last round answered from the index

	mu  sync.Mutex
	mem map[string]memFacts // facts of the files read and let go of, by absolute path

	// repoMap is the first round's map: every round ranks the same files
	// from the same facts (a text read later holds what its facts said).
	repoMap *repoMap
	// snap is the first round's candidates, for the rounds after it
	// (mapresume.go); nil: a round starts from the walk.
	snap *roundSnap
	// words interns the identifiers of the files the first round's walk
	// answered from the index, until the first round has its map; eager
	// is how far into each file the walk keeps them (walkLean).
	words *wordTab
	eager int
	// sum is the map summary this map reads and writes (mapsum.go); nil:
	// none. sumMiss: it did not hold, the map runs again without it.
	sum     *sumState
	sumMiss bool
	// enc is the encoding the first round counted with (countsWith).
	enc string
	// outlines are those of the files the rounds' cuts parsed
	// (outline_ahead.go), for the outlines of the files a later round
	// reads again.
	outlines *aheadOutlines
}

// leanFor returns the state of a map answered from the index for req, or
// nil when the engine's index keeps no sets or req is not a map
// (wantsMap): a query or a search, nothing walked, a source with a
// relevance of its own, or the map ablated; nil too with a tool result.
func (e *Engine) leanFor(req Request) *leanMap {
	if e.ws == nil || mapReadsAll || len(queryTerms(req.Query)) > 0 || req.Search != nil || (len(req.Paths) == 0 && len(req.Include) == 0) {
		return nil
	}
	for _, a := range e.Ablate {
		if a == featMap {
			return nil
		}
	}
	for _, s := range req.Sources {
		if s.Relevance != nil || s.Type == "tool_result" {
			// Not a map; or a tool result, which dedup compares with
			// whole file texts (budget's toolCopies).
			return nil
		}
	}
	si, red := mapStores(e.Index) // without an index, the pack keeps the facts (leanmem.go)
	return &leanMap{si: si, red: red, read: map[string]bool{}, need: map[string]bool{}}
}

// pack runs the rounds of a Pack (one when lean is nil).
func (e *Engine) packRounds(ctx context.Context, req Request, open []OpenDoc, progress func(string, int)) (*Result, error) {
	lean := e.leanFor(req)
	if lean != nil {
		progress = monotone(progress) // the rounds run the stages again (leanmem.go)
	}
	start := time.Now()
	pl, res := e.planned(&pipeline{e: e, req: req, ctx: ctx, progress: progress, start: start, lean: lean}, lean, open) // mapplan.go
	if res != nil {
		return res, nil
	}
	if lean != nil {
		lean.sum = e.summed(&pipeline{e: e, req: req, ctx: ctx, progress: progress, start: start, lean: lean}, lean, open) // mapsum.go
	}
	for {
		p := &pipeline{e: e, req: req, ctx: ctx, progress: progress, start: start, lean: lean}
		res, err := p.pack(open)
		if again := lean.retry(ctx, err); again != nil {
			lean = again // the summary did not hold (mapsum.go)
			continue
		}
		if lean == nil || len(lean.need) == 0 || ctx.Err() != nil {
			if pl != nil && err == nil && ctx.Err() == nil {
				pl.put(res)
			}
			return res, err
		}
		lean.rounds++
		for abs := range lean.need {
			lean.read[abs] = true
		}
		lean.pending, lean.need = lean.need, map[string]bool{}
		if lean.rounds >= maxLeanRounds {
			lean.all, lean.snap = true, nil
		}
		Logger(ctx).Debug("map round needs more texts", zap.Int("round", lean.rounds), zap.Int("read", len(lean.read)), zap.Bool("all", lean.all))
	}
}

// leanWalk returns p's lean state when this round may answer files from
// facts: the rounds not given up, counting as the first did (countsWith:
// with a tokenizer that estimates, facts of this pack alone, as without
// an index, leanmem.go).
func (p *pipeline) leanWalk() *leanMap {
	if p.lean == nil || p.lean.all || !p.lean.countsWith(p.tok) {
		return nil
	}
	return p.lean
}

// phantom returns the source of the listed file f answered from the
// index, without its text: what ReadRef would make of it but Content, and
// the facts of the text its stat vouches for. false when the file must be
// read (no such facts, facts that fail their checks, an open document).
func (p *pipeline) phantom(lean *leanMap, f *collector.FileRef, ikey string) (source, *collector.Exclusion, bool) {
	s, ok, x := p.e.ws.Admitted(collector.OpenFile, *f)
	if x != nil || !ok {
		return source{}, x, x != nil
	}
	sets, ok := lean.si.StatSets(*f, []string{ikey, mapFactsKey(ikey)})
	if !ok || len(sets[1]) != 1 {
		if facts, n, ok := lean.redactedPhantom(f, ikey); ok {
			lean.hits++
			s.Redactions = n
			return source{Source: s, ref: f, facts: facts, origin: OriginWorkspace}, nil, true
		}
		return source{}, nil, false
	}
	facts := &fileFacts{chunks: sets[0]}
	if !decodeFacts(sets[1][0].Name, facts, f.Info.Size()) {
		return source{}, nil, false
	}
	if !factsValid(facts, f.Info.Size()) {
		return source{}, nil, false
	}
	if lean.words != nil {
		// The identifiers past what a graph of this walk can reach go
		// now, not once every file is decoded (walkLean, retrim).
		trimIdents(facts, lean.eager, lean.words)
	}
	lean.hits++
	return source{Source: s, ref: f, facts: facts, origin: OriginWorkspace}, nil, true
}

// factsValid checks facts from the index against what is known of the
// file without its text: chunks in order, covering size bytes whole, of
// consecutive lines; a mark per chunk (decodeFacts checked the
// identifiers). A file without chunks (empty) is read.
func factsValid(f *fileFacts, size int64) bool {
	return chunksValid(f.chunks, size) && len(f.marks) == len(f.chunks) && marksValid(f.marks)
}

// chunksValid reports whether chunks are non-empty and tile a file of size
// bytes: each starts where the one before ended, on the line after, with a
// non-negative token count.
func chunksValid(chunks []chunker.Chunk, size int64) bool {
	end, line := 0, 1
	for _, c := range chunks {
		if c.StartByte != end || c.EndByte <= c.StartByte || c.StartLine != line || c.EndLine < c.StartLine || c.Tokens < 0 {
			return false
		}
		end, line = c.EndByte, c.EndLine+1
	}
	return len(chunks) > 0 && int64(end) == size
}

// marksValid reports whether every hash mark has the mark length.
func marksValid(marks []string) bool {
	for _, m := range marks {
		if len(m) != markLen {
			return false
		}
	}
	return true
}

// placeholder is the Content of a chunk of a file answered from the
// index: made of the chunk's hash mark, so two placeholders are copies
// for dedup exactly when their chunks' texts are (a placeholder and a
// real text never are: checkCopies reads the file when a mark meets a
// real text's).
func placeholder(mark string) string {
	return "\x00mark:" + hex.EncodeToString([]byte(mark))
}

// needText records that this round needs the text of the file of text (a
// file answered from the index); false when the text is at hand.
func (p *pipeline) needText(text *budget.Text) bool {
	abs, ok := p.phantoms[text]
	if ok {
		p.lean.need[abs] = true
	}
	return ok
}

// mapOf returns the map of items: the one this round computed before
// its items (mapCutAhead), else the first round's, computed once.
func (p *pipeline) mapOf(items []*budget.Item) *repoMap {
	if p.repoMap != nil {
		return p.repoMap
	}
	return p.mapOfFiles(func() []mapFile { return mapFilesOf(items, p.idents) })
}

// mapOfFiles returns the map of the files files gives: the first round's,
// computed once.
func (p *pipeline) mapOfFiles(files func() []mapFile) *repoMap {
	if p.lean == nil {
		return newRepoMapOf(files(), nil)
	}
	if p.lean.repoMap == nil && p.lean.sum != nil {
		m, ok := p.lean.sum.repoMap(p.ctx, files(), p.lean.words) // mapsum.go
		p.lean.repoMap, p.lean.sumMiss = m, !ok
	}
	if p.lean.repoMap == nil && !p.lean.sumMiss {
		p.lean.repoMap = newRepoMapOf(files(), p.lean.words)
		// The rounds after this one rank by this map: the identifiers
		// (the bulk of the facts) are no longer needed.
		p.idents, p.lean.words = nil, nil
		p.lean.mu.Lock()
		for _, m := range p.lean.mem {
			m.facts.ids, m.facts.words, m.facts.wordsAt = nil, nil, nil
		}
		p.lean.mu.Unlock()
	}
	return p.lean.repoMap
}

// leanRender wraps a renderer: a round that renders a chunk of a file it
// has not read needs that file's text.
func (p *pipeline) leanRender(render func([]*budget.Item) (string, error)) func([]*budget.Item) (string, error) {
	if len(p.phantoms) == 0 {
		return render
	}
	return func(items []*budget.Item) (string, error) {
		lacks := false
		for _, it := range items {
			lacks = p.needText(it.Source) || lacks
		}
		if lacks {
			// What comes next (the exact count, re-selection) depends on
			// the texts: the round ends here, the next reads them.
			return "", errNeedText
		}
		return render(items)
	}
}

// errNeedText ends a round that would render a chunk it has not read.
var errNeedText = errors.New("pack: a map round needs texts it has not read")

// checkCopies finds where dedup would compare a chunk of a file not read
// (answered from the index) with a chunk whose text is at hand: the same
// hash mark on both sides; those files are needed (the texts decide).
// Chunks not read compare among themselves by their marks
// (placeholder). marks holds the marks of the chunks not read by Seq
// ("" for a chunk at hand).
func (p *pipeline) checkCopies(items []*budget.Item, marks []string) {
	if len(p.phantoms) == 0 || !p.e.cfg.Context.Dedup.Enabled {
		return
	}
	read := map[string]bool{} // the marks of the chunks at hand
	for _, it := range items {
		if marks[it.Seq] == "" {
			read[p.textMark(budget.NormalizedHash(it.Content))] = true
		}
	}
	if len(read) == 0 {
		return
	}
	for _, it := range items {
		if m := marks[it.Seq]; m != "" && read[m] {
			p.needText(it.Source)
		}
	}
}

// factsOf returns what a map needs of a file cut into chunks (their
// Content at hand): the chunks without their text, a hash mark per chunk,
// the identifiers the file uses.
func factsOf(chunks []chunker.Chunk) *fileFacts {
	parts := make([]string, len(chunks))
	for i, c := range chunks {
		parts[i] = c.Content
	}
	return &fileFacts{packed: packChunks(chunks), ids: fileIdents(parts, mapIdentCap)}
}

// putFacts stores the facts of a walked file read with data (identifiers
// and marks; its chunks went in with cutSource), so that the next map
// answers it from the index.
func (p *pipeline) putFacts(s source, data []byte, f *fileFacts, ikey string) {
	if p.lean.red != nil && strings.Contains(s.Content, redactedMark) {
		// The index keeps nothing of this text but these numbers and
		// keyed hashes (mapredacted.go).
		putRedacted(p.lean.red, s, f, ikey)
		return
	}
	p.lean.si.PutSet(*s.ref, data, mapFactsKey(ikey), []chunker.Chunk{{Name: encodeFacts(f)}})
}

// memFacts are the facts of a file a round read and let go of, for the
// rounds after it (while its stat stays).
type memFacts struct {
	facts      *fileFacts
	size, mod  int64
	redactions int
	// text, in a map whose facts stay in the pack, is textSum of the
	// text the facts were cut from (0: not known; leanmem.go).
	text uint64
}

// leanSlot is what a map's walk makes of one listed file.
type leanSlot struct {
	s    source
	x    *collector.Exclusion
	keep bool // s is a source (with or without its text)
	read bool // to read: held (a file a round needs), or let go of
}

// walkLean is walkAll for a map: each listed file the include globs let
// in becomes a source without its text when its facts are known (from
// the index by its stat, or from an earlier round), a source with its
// text when an earlier round needs it; any other file is read, cut and
// counted (through the index's chunks when it has them), its facts are
// stored and kept for the next rounds, and its text is let go of. Reads
// run in parallel (one worker per CPU); the sources come in listing order.
// Only the texts kept count against MaxWalkBytes: a map of any tree the
// walk lists holds no more than the texts it packs.
func (p *pipeline) walkLean(lean *leanMap, refs []collector.FileRef, excls []collector.Exclusion, ikey string) ([]source, error) {
	slots := make([]leanSlot, len(refs))
	var toRead []int
	if lean.outlines == nil && !p.ablated(featOutline) {
		lean.outlines = newAheadOutlines()
	}
	if lean.repoMap == nil {
		if lean.words == nil {
			// Kept across walks until the map: facts kept from an
			// earlier walk (lean.mem) hold ids of this table.
			lean.words = newWordTab()
		}
		lean.eager = lean.eagerOf(p.req.Include, refs)
	}
	for i := range refs {
		f := &refs[i]
		if !included(p.req.Include, f.Path) {
			continue
		}
		var read bool
		if slots[i], read = p.leanSlotOf(lean, f, ikey); read {
			toRead = append(toRead, i)
		}
	}
	if lean.repoMap == nil {
		toRead = p.retrim(lean, slots, toRead, ikey)
	}
	p.readLeanAll(lean, refs, slots, toRead, ikey)
	if lean.repoMap == nil && p.ctx.Err() == nil {
		// The files read kept their identifiers only up to lean.eager
		// (readLean): those a graph of fewer files reaches further are
		// fetched again, or read again.
		if again := p.retrim(lean, slots, nil, ikey); len(again) > 0 {
			lean.eager = mapScanLimit(max(withFacts(slots), 1)) // what these reads keep
			p.readLeanAll(lean, refs, slots, again, ikey)
		}
	}
	if err := p.ctx.Err(); err != nil {
		return nil, fmt.Errorf("collector: walk: %w", err)
	}
	if lean.repoMap == nil {
		trimSlots(slots, lean.words)
		lean.sum.noteRefs(slots)
	}
	return p.leanSources(slots, excls)
}

// eagerLimit is how far into each file a map's walk keeps the
// identifiers of the files it answers from the index while it walks:
// mapScanLimit of the files it may include (refs the include globs let
// in). A graph of fewer files scans further; retrim fetches again what
// that graph would miss.
func eagerLimit(include []string, refs []collector.FileRef) int {
	n := 0
	for i := range refs {
		if included(include, refs[i].Path) {
			n++
		}
	}
	return mapScanLimit(max(n, 1))
}

// retrim makes sure the files a map's walk answered from the index keep
// every identifier its graph can reach: the graph has at least as many
// files as the walk answered, so it scans no further than mapScanLimit of
// that many; when that passes lean.eager, the files whose identifiers
// the walk cut there have their facts fetched and trimmed again (or are
// read, added to toRead, which it returns).
func (p *pipeline) retrim(lean *leanMap, slots []leanSlot, toRead []int, ikey string) []int {
	need := mapScanLimit(max(withFacts(slots), 1))
	if need <= lean.eager {
		return toRead
	}
	for i, sl := range slots {
		f := sl.s.facts
		if !sl.keep || f == nil || f.trimmed == 0 {
			continue
		}
		again, ok := p.refetch(lean, sl.s.ref, ikey, need)
		if !ok {
			slots[i] = leanSlot{}
			toRead = append(toRead, i)
			continue
		}
		f.words, f.wordsAt, f.trimmed = again.words, again.wordsAt, again.trimmed
	}
	sort.Ints(toRead)
	return toRead
}

// withFacts counts the slots of sources without their text (facts).
func withFacts(slots []leanSlot) int {
	n := 0
	for _, sl := range slots {
		if sl.keep && sl.s.facts != nil {
			n++
		}
	}
	return n
}

// refetch decodes again the facts the index holds for f's stat, their
// identifiers trimmed at limit; false when they are gone or fail their
// checks.
func (p *pipeline) refetch(lean *leanMap, f *collector.FileRef, ikey string, limit int) (*fileFacts, bool) {
	sets, ok := lean.si.StatSets(*f, []string{ikey, mapFactsKey(ikey)})
	if !ok || len(sets[1]) != 1 {
		facts, _, ok := lean.redactedPhantom(f, ikey) // every identifier kept
		return facts, ok
	}
	facts := &fileFacts{chunks: sets[0]}
	if !decodeFacts(sets[1][0].Name, facts, f.Info.Size()) || !factsValid(facts, f.Info.Size()) {
		return nil, false
	}
	trimIdents(facts, limit, lean.words)
	return facts, true
}

// trimSlots keeps of the identifiers of the files a map's walk answered
// without their text only those its graph can reach: each file's uses
// are scanned up to mapScanLimit of the number of files with chunks, of
// which the walk's own are a lower bound (other sources only add files,
// lowering the limit), so nothing the graph reads is lost.
func trimSlots(slots []leanSlot, tab *wordTab) {
	n := 0
	for _, sl := range slots {
		if sl.keep && (sl.s.facts != nil || sl.s.Content != "") {
			n++
		}
	}
	limit := mapScanLimit(max(n, 1))
	for _, sl := range slots {
		if sl.keep && sl.s.facts != nil {
			trimIdents(sl.s.facts, limit, tab)
		}
	}
}

// leanSlotOf is walkLean's slot for one included file f without reading
// it: held to read when a round needs its text, a source from its kept
// facts or from the index's, else to read (read reports the last two).
func (p *pipeline) leanSlotOf(lean *leanMap, f *collector.FileRef, ikey string) (slot leanSlot, read bool) {
	if lean.read[f.Abs] {
		return leanSlot{read: true}, true
	}
	if m, ok := lean.memOf(f); ok {
		s, ok, x := p.e.ws.Admitted(collector.OpenFile, *f)
		if x != nil || ok {
			s.Redactions = m.redactions
			return leanSlot{s: source{Source: s, ref: f, facts: m.facts, origin: OriginWorkspace}, x: x, keep: x == nil}, false
		}
	}
	if lean.sum != nil {
		if sl, ok := p.stubSlot(lean, f); ok {
			return sl, false
		}
	}
	if s, x, ok := p.phantom(lean, f, ikey); ok {
		if x == nil {
			lean.keep(f, s.facts, s.Redactions) // the next rounds need not decode it again
		}
		return leanSlot{s: s, x: x, keep: x == nil}, false
	}
	return leanSlot{}, true
}

// readLeanAll fills slots[i] for each i of toRead by readLean, one worker
// per CPU, reporting progress by bytes (leanMeter); it stops early when
// the context ends (the caller checks it).
func (p *pipeline) readLeanAll(lean *leanMap, refs []collector.FileRef, slots []leanSlot, toRead []int, ikey string) {
	opts := p.chunkOptions()
	boundWalk(len(toRead)) // mapheap.go
	order := largestRefsFirst(refs, toRead)
	meter := p.leanMeter(lean, refs, toRead) // leanmem.go
	var next atomic.Int64
	var wg sync.WaitGroup
	// The freed trees' C heap, which glibc keeps per thread, is returned
	// as the walk goes (cTrim, as cutAll does), so it does not add to the
	// facts the walk holds.
	var trim cTrim
	for w := 0; w < min(runtime.GOMAXPROCS(0), max(1, len(toRead))); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(order) || p.ctx.Err() != nil {
					return
				}
				i := order[k]
				slots[i] = p.readLean(lean, &refs[i], slots[i].read, opts, ikey)
				var n int64
				if refs[i].Info != nil {
					n = refs[i].Info.Size()
					trim.cut(int(n))
				}
				meter.done(n)
			}
		}()
	}
	wg.Wait()
	chunker.TrimC()
}

// largestRefsFirst returns toRead (indices of refs) the largest file
// first (ties in listing order), so that readLeanAll's workers do not
// end on one large file while the others wait (net/http's h2_bundle.go,
// listed late, is a sixth of its bytes).
func largestRefsFirst(refs []collector.FileRef, toRead []int) []int {
	size := func(i int) int64 {
		if refs[i].Info == nil {
			return 0
		}
		return refs[i].Info.Size()
	}
	order := slices.Clone(toRead)
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size(b), size(a)) })
	return order
}

// leanSources gathers walkLean's slots in listing order: the sources kept,
// the exclusions added to excls and recorded; the texts kept count
// against MaxWalkBytes.
func (p *pipeline) leanSources(slots []leanSlot, excls []collector.Exclusion) ([]source, error) {
	kept := 0
	for _, sl := range slots {
		if sl.x == nil && sl.keep {
			kept++
		}
	}
	out := make([]source, 0, kept)
	var bytes int64
	for _, sl := range slots {
		switch {
		case sl.x != nil:
			excls = append(excls, *sl.x)
		case sl.keep:
			out = append(out, sl.s)
			bytes += int64(len(sl.s.Content))
		}
	}
	if bytes > collector.MaxWalkBytes {
		return nil, &collector.WalkLimitError{Max: collector.MaxWalkBytes, Size: bytes}
	}
	p.excludeSorted(excls)
	return out, nil
}

// readLean reads one listed file for walkLean: kept whole when hold (a
// round needs its text) or when it has no chunks; else cut, its facts
// stored (index) and kept (lean.mem), and its text let go of.
func (p *pipeline) readLean(lean *leanMap, f *collector.FileRef, hold bool, opts chunker.Options, ikey string) leanSlot {
	s, x := p.e.ws.ReadRef(p.ctx, collector.OpenFile, *f)
	if x != nil {
		return leanSlot{x: x}
	}
	src := source{Source: s, ref: f, origin: OriginWorkspace}
	if hold {
		p.reuseCut(f, s) // leanmem.go
		return leanSlot{s: src, keep: true}
	}
	data := readOnlyBytes(s.Content) // the cut and the index only read it
	chunks := p.cutSource(src, data, lineCount(s.Content), opts)
	if len(chunks) == 0 || p.ctx.Err() != nil {
		return leanSlot{s: src, keep: true}
	}
	facts := factsOf(chunks)
	p.putFacts(src, data, facts, ikey)
	if lean.repoMap == nil {
		// Held for the graph: only the identifiers it can reach (the
		// index has them all; a first map of a 100K-file tree held
		// every file's, up to mapIdentCap each: most of its 2.6 GB),
		// interned in the walk's table.
		if lean.words != nil {
			lean.words.intern(facts, lean.eager)
		} else {
			cutIdents(facts, lean.eager)
		}
	}
	lean.keep(f, facts, s.Redactions)
	lean.noteText(f, s.Content) // leanmem.go
	s.Content = ""
	return leanSlot{s: source{Source: s, ref: f, facts: facts, origin: OriginWorkspace}, keep: true}
}

// memOf returns the facts an earlier round kept of f, while its stat is
// the same.
func (l *leanMap) memOf(f *collector.FileRef) (memFacts, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.mem[f.Abs]
	if !ok || f.Info == nil || m.size != f.Info.Size() || m.mod != f.Info.ModTime().UnixNano() {
		return memFacts{}, false
	}
	return m, true
}

// known reports whether the facts of f (as listed) are known already: a
// file a round needs the text of was answered without it before.
func (l *leanMap) known(f *collector.FileRef) bool {
	_, ok := l.memOf(f)
	return ok
}

// keep records the facts of a file a round read and let go of.
func (l *leanMap) keep(f *collector.FileRef, facts *fileFacts, redactions int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mem == nil {
		l.mem = map[string]memFacts{}
	}
	l.mem[f.Abs] = memFacts{facts: facts, size: f.Info.Size(), mod: f.Info.ModTime().UnixNano(), redactions: redactions}
}
