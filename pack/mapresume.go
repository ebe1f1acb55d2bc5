package pack

import (
	"maps"
	"slices"
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
)

// Rounds that do not redo the work (issue 24, docs/index.md "A map
// without reading"): the rounds of a map differ only in which files'
// texts they hold. Everything up to selection — the chunks, their rank
// (the first round's map), dedup — is decided from facts the index keeps
// of those very texts, so reading a file changes none of it: a chunk of a
// file not read compares by its hash mark, and a mark met by a text at
// hand made the first round read that file already (checkCopies). So the
// first round's candidates are kept, and a later round reads the files
// the one before it needed, puts their texts into the candidates of
// those files (the same chunks, now with their text) and selects again;
// only when a text does not match its facts (changed since the listing)
// does a round start over from the walk.

// roundSnap is what the first round of a map decided up to selection.
type roundSnap struct {
	cands     []*budget.Item
	dstats    budget.DedupStats
	excluded  []Entry
	warnings  []string
	stats     Stats
	srcOf     []int
	repoMap   *repoMap
	phantoms  map[*budget.Text]string // texts not read yet, to their files
	refs      map[*budget.Text]collector.FileRef
	unread    map[string]unreadFile // files not read yet, by absolute path
	held      int64                 // bytes of the walked texts held
	bytesRead int64
	charged   map[textKey]bool
	// cacheBefore is the count cache when the pack started: the result
	// reports the whole pack's use of it.
	cacheBefore tokenizer.CacheStats
	factors     map[int]factors // when logging at debug
}

// unreadFile is a walked file of a map answered from the index.
type unreadFile struct {
	text  *budget.Text
	ref   *collector.FileRef
	facts *fileFacts
}

// snapshot keeps what this round decided up to selection, for the rounds
// after it (resume); srcs are its sources. Only a round that answered
// files from the index keeps one.
func (p *pipeline) snapshot(cands []*budget.Item, dstats budget.DedupStats, srcs []source) {
	if p.lean == nil || p.leanWalk() == nil || len(p.phantoms) == 0 {
		return
	}
	sn := &roundSnap{cands: slices.Clone(cands), dstats: dstats, excluded: slices.Clone(p.excluded), warnings: slices.Clone(p.warnings),
		stats: p.stats, srcOf: p.srcOf, repoMap: p.repoMap, phantoms: p.phantoms, refs: p.refs, unread: map[string]unreadFile{},
		bytesRead: p.bytesRead, charged: p.charged, cacheBefore: p.cacheBefore, factors: p.factors}
	sn.stats.Timings = slices.Clone(p.stats.Timings)
	textOf := make(map[string]*budget.Text, len(p.phantoms))
	for t, abs := range p.phantoms {
		textOf[abs] = t
	}
	for _, s := range srcs {
		switch {
		case s.facts != nil:
			sn.unread[s.AbsPath] = unreadFile{text: textOf[s.AbsPath], ref: s.ref, facts: s.facts}
		case s.ref != nil:
			sn.held += int64(len(s.Content))
		}
	}
	p.lean.snap = sn
}

// resume is a later round of a map: the first round's candidates with
// the texts of the files the rounds before needed put in. ok is false
// when a text does not match its facts, or a limit would be passed: then
// the round starts over from the walk (which reports any limit).
func (p *pipeline) resume(sn *roundSnap) (cands []*budget.Item, dstats budget.DedupStats, ok bool, err error) {
	if err := p.resolve(); err != nil {
		return nil, budget.DedupStats{}, false, err
	}
	abs := slices.Sorted(maps.Keys(p.lean.pending))
	filled := map[*budget.Text][]chunker.Chunk{}
	opts := p.chunkOptions()
	for _, a := range abs {
		u, found := sn.unread[a]
		if !found {
			continue // not a file answered from the index: nothing to put in
		}
		s, x := p.e.ws.ReadRef(p.ctx, collector.OpenFile, *u.ref)
		if x != nil {
			return nil, budget.DedupStats{}, false, p.ctx.Err()
		}
		sn.held += int64(len(s.Content))
		if sn.held > collector.MaxWalkBytes {
			return nil, budget.DedupStats{}, false, nil
		}
		// Cut as a round that reads the file cuts it (through the
		// engine's cache and the index): the chunks must be the facts'.
		text := budget.NewText(s.Content)
		p.reuseCut(u.ref, s) // leanmem.go
		chunks := p.cutSource(source{Source: s, ref: u.ref, origin: OriginWorkspace}, []byte(s.Content), text.Lines(), opts)
		if err := p.ctx.Err(); err != nil {
			return nil, budget.DedupStats{}, false, err
		}
		if !u.facts.matches(chunks) {
			return nil, budget.DedupStats{}, false, nil
		}
		*u.text = *text
		filled[u.text] = chunks
		delete(sn.unread, a)
		delete(sn.phantoms, u.text)
		if sn.refs == nil {
			sn.refs = map[*budget.Text]collector.FileRef{}
		}
		sn.refs[u.text] = *u.ref
		p.charged, p.bytesRead = sn.charged, sn.bytesRead
		if err := p.chargeBytes([]source{{Source: s}}); err != nil {
			return nil, budget.DedupStats{}, false, err
		}
		sn.charged, sn.bytesRead = p.charged, p.bytesRead
	}
	for _, it := range sn.cands {
		if chunks, ok := filled[it.Source]; ok {
			// A candidate of a file not read is one of its chunks, unmerged.
			k := sort.Search(len(chunks), func(i int) bool { return chunks[i].StartLine >= it.StartLine })
			it.Content = chunks[k].Content
		}
	}
	p.warnings, p.excluded = slices.Clone(sn.warnings), slices.Clone(sn.excluded)
	p.stats = sn.stats
	p.stats.Timings = slices.Clone(sn.stats.Timings)
	p.srcOf, p.phantoms, p.refs, p.repoMap = sn.srcOf, sn.phantoms, sn.refs, sn.repoMap
	p.charged, p.bytesRead, p.cacheBefore, p.factors = sn.charged, sn.bytesRead, sn.cacheBefore, sn.factors
	return slices.Clone(sn.cands), sn.dstats, true, nil
}

// matches reports whether chunks, cut from a file's text, are the chunks
// these facts were taken of: the same boundaries, kinds, names and
// counts, each with its hash mark.
func (f *fileFacts) matches(chunks []chunker.Chunk) bool {
	if len(chunks) != f.count() {
		return false
	}
	for i, w := range f.all() {
		c := chunks[i]
		h := budget.NormalizedHash(c.Content)
		name, mark := c.Name, string(h[:markLen])
		if f.red != nil {
			// Facts of a redacted file: names hashed, marks keyed.
			name, mark = hashedName(name, f.red.MapWordHash), f.red.MapMark(mark)
		}
		if c.StartLine != w.StartLine || c.EndLine != w.EndLine || c.StartByte != w.StartByte || c.EndByte != w.EndByte ||
			c.Tokens != w.Tokens || c.Kind != w.Kind || name != w.Name || mark != f.mark(i) {
			return false
		}
	}
	return true
}

// resumable returns the first round's snapshot when this round is a later
// round of a map that may start from it.
func (p *pipeline) resumable() *roundSnap {
	if p.lean == nil || p.lean.all || p.lean.snap == nil {
		return nil
	}
	return p.lean.snap
}
