package budget

import (
	"context"
	"crypto/sha256"
	"hash"
	"hash/maphash"
	"io"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
)

// DedupOptions are the settings of docs/design.md#rule-6.
type DedupOptions struct {
	// Enabled turns on exact and overlap deduplication. Even when it is
	// off, [Select] never emits a source line twice.
	Enabled bool
	// OverlapThreshold is the share of the smaller chunk's lines that two
	// chunks of one file must share to be merged (default 0.8).
	OverlapThreshold float64
	// MergeOverlapping merges such chunks into one spanning both.
	MergeOverlapping bool
	// MaxTokens, when positive, is the largest chunk a merge may make
	// (max_chunk_tokens, docs/design.md#rule-4): two overlapping chunks
	// whose joined span would count more stay apart, and selection still
	// emits each source line once.
	MaxTokens int
}

// fits reports whether the span joining a and b (same file) stays within
// MaxTokens. A span that is one of the two adds no line and always fits.
func (o DedupOptions) fits(a, b *Item, count func(string) int) bool {
	if o.MaxTokens <= 0 {
		return true
	}
	lo, hi := min(a.StartLine, b.StartLine), max(a.EndLine, b.EndLine)
	if (lo == a.StartLine && hi == a.EndLine) || (lo == b.StartLine && hi == b.EndLine) {
		return true
	}
	return count(a.Source.Slice(lo, hi)) <= o.MaxTokens
}

// DedupStats counts what deduplication removed. The savings are reported
// apart (seed 000 AC-028, AC-037) and in total: ExactTokensSaved are the
// tokens of chunks left out because the context has their content already
// (same normalised text, a tool result holding a file's text, every line
// brought by a better-ranked chunk); OverlapTokensSaved are the tokens
// saved by merging overlapping chunks of one file and by not emitting again
// the lines a better-ranked chunk brought; TokensSaved is their sum. The
// JSON is the contract's dedup object (exactRemoved, overlapsMerged,
// tokensSaved) and nothing more; the budget report shows the split.
type DedupStats struct {
	ExactRemoved       int `json:"exactRemoved"`
	OverlapsMerged     int `json:"overlapsMerged"`
	TokensSaved        int `json:"tokensSaved"`
	ExactTokensSaved   int `json:"-"`
	OverlapTokensSaved int `json:"-"`
}

// SaveExact counts n tokens saved by leaving out content the context has.
func (s *DedupStats) SaveExact(n int) {
	s.ExactTokensSaved += n
	s.TokensSaved += n
}

// SaveOverlap counts n tokens saved by merging or trimming overlapping
// lines.
func (s *DedupStats) SaveOverlap(n int) {
	s.OverlapTokensSaved += n
	s.TokensSaved += n
}

// Add adds o's counts to s (the statistics of many packs).
func (s *DedupStats) Add(o DedupStats) {
	s.ExactRemoved += o.ExactRemoved
	s.OverlapsMerged += o.OverlapsMerged
	s.TokensSaved += o.TokensSaved
	s.ExactTokensSaved += o.ExactTokensSaved
	s.OverlapTokensSaved += o.OverlapTokensSaved
}

// Removed is an item that deduplication took out, and why.
type Removed struct {
	Item *Item
	// Reason is "duplicate" (same content as a better-ranked item) or
	// "merged" (folded into an overlapping item of the same file).
	Reason string
	// Into is the item that kept the content.
	Into *Item
}

// Dedup removes exact duplicates (same whitespace-normalised SHA-256, from
// any source or path: the best-ranked copy stays), packs a tool result that
// holds a file's text once (see [toolCopies]), and merges chunks of one
// file whose overlap reaches the threshold into one chunk spanning both
// (when that span fits [DedupOptions.MaxTokens]), re-cut from the source text and recounted, with the higher score. It
// returns the remaining items in rank order ([Less]).
func Dedup(items []*Item, opts DedupOptions, count func(string) int) ([]*Item, []Removed, DedupStats) {
	out, removed, stats, _ := DedupContext(context.Background(), items, opts, count)
	return out, removed, stats
}

// DedupContext is [Dedup], returning ctx's error when ctx is done (checked
// every 1,024 items).
func DedupContext(ctx context.Context, items []*Item, opts DedupOptions, count func(string) int) ([]*Item, []Removed, DedupStats, error) {
	sorted := append([]*Item(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return Less(sorted[i], sorted[j]) })
	var stats DedupStats
	if !opts.Enabled {
		return sorted, nil, stats, nil
	}
	var removed []Removed
	kept := sorted[:0:0]
	ex := newExactSeen(len(sorted))
	keys := shortKeys(sorted)
	for i, it := range sorted {
		if first := ex.firstKeyed(it, keys[i]); first != nil {
			removed = append(removed, Removed{Item: it, Reason: "duplicate", Into: first})
			stats.ExactRemoved++
			stats.SaveExact(it.Tokens)
			continue
		}
		kept = append(kept, it)
	}
	kept, removed = toolCopies(kept, removed, &stats, count)
	if !opts.MergeOverlapping || opts.OverlapThreshold <= 0 {
		return kept, removed, stats, nil
	}
	m := &merger{opts: opts, count: count, stats: &stats, removed: removed, files: map[string]*fileGroup{}, gone: map[*Item]bool{}}
	overlaps := overlappingFiles(kept)
	out := make([]*Item, 0, len(kept))
	for i, it := range kept {
		if i%1024 == 1023 && ctx.Err() != nil {
			return nil, nil, DedupStats{}, ctx.Err()
		}
		if !overlaps[it.fileKey()] || m.add(it) {
			out = append(out, it)
		}
	}
	if len(m.gone) > 0 {
		live := out[:0]
		for _, it := range out {
			if !m.gone[it] {
				live = append(live, it)
			}
		}
		out = live
	}
	sort.SliceStable(out, func(i, j int) bool { return Less(out[i], out[j]) })
	return out, m.removed, stats, nil
}

// overlappingFiles returns the files (by key) of which two items share a
// line. Only their chunks can merge: a merge needs a shared line, and a
// chunk grows only by a merge, so the chunks of any other file — a file
// cut into chunks that tile it, the common case — stay as they are and
// need no line index (on a map of Go's src that index was a quarter of
// the pack's allocation, issue 24). Sorting each file's spans by start
// line makes this O(n log n).
func overlappingFiles(items []*Item) map[string]bool {
	byFile := map[string][]span{}
	for _, it := range items {
		if k := it.fileKey(); k != "" {
			byFile[k] = append(byFile[k], span{it.StartLine, it.EndLine})
		}
	}
	out := map[string]bool{}
	for k, spans := range byFile {
		if len(spans) < 2 {
			continue
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		end := spans[0].end
		for _, s := range spans[1:] {
			if s.start <= end {
				out[k] = true
				break
			}
			end = max(end, s.end)
		}
	}
	return out
}

// merger merges the overlapping chunks of each file (rule 6's overlap).
type merger struct {
	opts    DedupOptions
	count   func(string) int
	stats   *DedupStats
	removed []Removed
	files   map[string]*fileGroup
	gone    map[*Item]bool // merged into another item after it was kept
}

// add keeps it (true) or merges it into the first kept chunk of its file,
// in the order kept, that it overlaps enough (false); a chunk grown by a
// merge then takes in what it now overlaps enough.
func (m *merger) add(it *Item) bool {
	key := it.fileKey()
	if key == "" {
		return true
	}
	g := m.files[key]
	if g == nil {
		g = &fileGroup{}
		m.files[key] = g
	}
	into := g.first(it.StartLine, it.EndLine, nil, -1, m.mergeable(it))
	if into == nil {
		g.add(it)
		return true
	}
	m.merge(into, it)
	g.grow(into)
	m.grow(g, into)
	return false
}

// mergeable reports whether a kept chunk k and it merge.
func (m *merger) mergeable(it *Item) func(k *Item) bool {
	return func(k *Item) bool {
		return sameText(k, it) && Overlap(k, it) >= m.opts.OverlapThreshold && m.opts.fits(k, it, m.count)
	}
}

// merge folds other into into and counts it.
func (m *merger) merge(into, other *Item) {
	before := into.Tokens + other.Tokens
	merge(into, other, m.count)
	m.stats.OverlapsMerged++
	m.stats.SaveOverlap(max(0, before-into.Tokens))
	m.removed = append(m.removed, Removed{Item: other, Reason: "merged", Into: into})
}

// grow: the grown chunk may now reach other chunks of the file. Passes over
// the file's chunks in the order kept each merge what the grown chunk
// overlaps enough, until a pass merges nothing.
func (m *merger) grow(g *fileGroup, into *Item) {
	for changed := true; changed; {
		changed = false
		pos := -1
		for {
			other := g.first(into.StartLine, into.EndLine, into, pos, m.mergeable(into))
			if other == nil {
				break
			}
			// The pass goes on after the chunk that followed other in the
			// order kept (removing other moved that one into other's
			// place, which the pass had just looked at).
			pos = g.nextLive(g.seq[other])
			m.merge(into, other)
			g.remove(other)
			g.grow(into)
			m.gone[other] = true
			changed = true
		}
	}
}

// fileGroup holds the chunks of one file that dedup kept, with an index
// from each line to the chunks that cover it, so that finding the chunks
// a chunk overlaps costs its lines, not the number of chunks kept before
// it (issue 24: a file cut into thousands of one-line chunks was
// quadratic).
type fileGroup struct {
	seq   map[*Item]int // the order each chunk was kept in
	order []*Item       // the chunks by sequence number
	dead  []bool        // by sequence number: merged into another
	lines [][]*Item     // chunks covering each line (dead ones pruned lazily)
	spans []span        // by sequence number: the lines a chunk is indexed under
}

func (g *fileGroup) add(it *Item) {
	if g.seq == nil {
		g.seq = map[*Item]int{}
	}
	g.seq[it] = len(g.order)
	g.order = append(g.order, it)
	g.dead = append(g.dead, false)
	g.spans = append(g.spans, span{it.StartLine, it.EndLine})
	g.index(it, it.StartLine, it.EndLine)
}

func (g *fileGroup) index(it *Item, start, end int) {
	start = max(start, 0)
	if end >= len(g.lines) {
		g.lines = append(g.lines, make([][]*Item, end+1-len(g.lines))...)
	}
	for n := start; n <= end; n++ {
		g.lines[n] = append(g.lines[n], it)
	}
}

// grow indexes the lines a merge added to it.
func (g *fileGroup) grow(it *Item) {
	s := g.seq[it]
	old := g.spans[s]
	if it.StartLine < old.start {
		g.index(it, it.StartLine, old.start-1)
	}
	if it.EndLine > old.end {
		g.index(it, old.end+1, it.EndLine)
	}
	g.spans[s] = span{it.StartLine, it.EndLine}
}

func (g *fileGroup) remove(it *Item) { g.dead[g.seq[it]] = true }

// nextLive returns the sequence number of the first live chunk kept after
// position p (the number of chunks when there is none).
func (g *fileGroup) nextLive(p int) int {
	for n := p + 1; n < len(g.order); n++ {
		if !g.dead[n] {
			return n
		}
	}
	return len(g.order)
}

// first returns the chunk kept earliest after position after (a sequence
// number; -1 for all) among the live chunks other than skip that cover a
// line of start..end and satisfy ok; nil when there is none.
func (g *fileGroup) first(start, end int, skip *Item, after int, ok func(*Item) bool) *Item {
	var best *Item
	bestSeq := -1
	start, end = max(start, 0), min(end, len(g.lines)-1)
	for n := start; n <= end; n++ {
		list := g.lines[n]
		live := list[:0]
		for _, k := range list {
			s := g.seq[k]
			if g.dead[s] {
				continue // pruned from the index
			}
			live = append(live, k)
			if k != skip && s > after && (best == nil || s < bestSeq) && ok(k) {
				best, bestSeq = k, s
			}
		}
		if len(live) != len(list) {
			g.lines[n] = live
		}
	}
	return best
}

// Overlap is the share of lines two items share, relative to the smaller
// one (inclusive line ranges); 0 for items of different files.
func Overlap(a, b *Item) float64 {
	if a.fileKey() == "" || a.fileKey() != b.fileKey() {
		return 0
	}
	lo, hi := max(a.StartLine, b.StartLine), min(a.EndLine, b.EndLine)
	if hi < lo {
		return 0
	}
	smaller := min(a.Lines(), b.Lines())
	if smaller <= 0 {
		return 0
	}
	return float64(hi-lo+1) / float64(smaller)
}

// NormalizedHash is the SHA-256 of text with every run of white space folded
// to one space and the ends trimmed; a long text's is remembered
// (hashmemo.go).
func NormalizedHash(text string) [32]byte {
	if len(text) >= hashMemoMin {
		return rememberedHash(text)
	}
	return normalizedHash(text)
}

// exactSeen finds a chunk's exact duplicate among the chunks kept before
// it: the first kept chunk with its NormalizedHash. The SHA-256 is taken
// only of chunks whose short key (shortKey) another kept chunk has: texts
// that fold alike have the same short key, so a chunk alone with its key
// has no duplicate, and nearly every chunk is alone (a warm query pack of
// Go's src hashed 9,600 chunks with SHA-256 to find 24 duplicates).
type exactSeen struct {
	short map[uint64][]*keptHash
}

// keptHash is a kept chunk and its NormalizedHash, taken when needed.
type keptHash struct {
	it     *Item
	sha    [32]byte
	hashed bool
}

func newExactSeen(n int) *exactSeen {
	return &exactSeen{short: make(map[uint64][]*keptHash, n)}
}

// shortSeed seeds exactSeen's short keys.
var shortSeed = maphash.MakeSeed()

// shortKey is a seeded 64-bit hash of text's ASCII bytes that are not
// white space, in order. Folding (NormalizedHash) keeps every such byte
// and changes only white space, which is ASCII white space or non-ASCII,
// so texts that fold alike have the same short key.
func shortKey(text string) uint64 {
	bp := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(bp)
	if cap(*bp) < len(text) {
		*bp = make([]byte, len(text))
	}
	buf := (*bp)[:len(text)]
	n := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		buf[n] = c
		n += int(keptByte[c])
	}
	return maphash.Bytes(shortSeed, buf[:n])
}

// keptByte is 1 for the bytes shortKey keeps: ASCII, not white space.
var keptByte = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		if !asciiSpace(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

// shortKeysHalfMin: from twice as many items, shortKeys takes half of
// them in a goroutine of its own.
const shortKeysHalfMin = 1024

// shortKeys returns each item's shortKey, in two goroutines when there are
// many: dedup runs after ranking, when the walk and the reference graph
// are done and a second core is free (a warm query pack of Go's src keys
// 9,600 chunks, 4.6 MB).
func shortKeys(items []*Item) []uint64 {
	keys := make([]uint64, len(items))
	half := 0
	var wg sync.WaitGroup
	if len(items) >= 2*shortKeysHalfMin {
		half = len(items) / 2
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, it := range items[:half] {
				keys[i] = shortKey(it.Content)
			}
		}()
	}
	for i := half; i < len(items); i++ {
		keys[i] = shortKey(items[i].Content)
	}
	wg.Wait()
	return keys
}

// first returns the kept chunk it duplicates exactly, or nil after
// keeping it.
func (e *exactSeen) first(it *Item) *Item {
	return e.firstKeyed(it, shortKey(it.Content))
}

// firstKeyed is first given its short key k (shortKey of its text).
func (e *exactSeen) firstKeyed(it *Item, k uint64) *Item {
	same := e.short[k]
	if len(same) > 0 {
		sha := NormalizedHash(it.Content)
		for _, s := range same {
			if !s.hashed {
				s.sha, s.hashed = NormalizedHash(s.it.Content), true
			}
			if s.sha == sha {
				return s.it
			}
		}
		e.short[k] = append(same, &keptHash{it: it, sha: sha, hashed: true})
		return nil
	}
	e.short[k] = []*keptHash{{it: it}}
	return nil
}

// normalizedHash computes NormalizedHash.
func normalizedHash(text string) [32]byte {
	h := sha256.New()
	foldInto(h, text)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// foldInto writes text to h with every run of white space folded to one
// space and the ends trimmed.
func foldInto(h hash.Hash, text string) {
	bp := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(bp)
	buf := (*bp)[:0]
	started, pending := false, false // a word was written; white space since
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if asciiSpace(c) {
				pending = true
				i++
				continue
			}
			// A run of ASCII non-space bytes goes in one append.
			j := i + 1
			for j < len(text) && text[j] < utf8.RuneSelf && !asciiSpace(text[j]) {
				j++
			}
			buf = word(h, buf, text[i:j], started && pending)
			started, pending = true, false
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			pending = true
		} else {
			buf = word(h, buf, text[i:i+size], started && pending)
			started, pending = true, false
		}
		i += size
	}
	h.Write(buf)
}

// hashBufs recycles the folding buffers of NormalizedHash.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 0, 8192); return &b }}

// word appends s (after a space when sep) to buf, flushing buf into h when
// it would overflow.
func word(h hash.Hash, buf []byte, s string, sep bool) []byte {
	if len(buf)+len(s)+1 > cap(buf) {
		h.Write(buf)
		buf = buf[:0]
	}
	if sep {
		buf = append(buf, ' ')
	}
	if len(s) > cap(buf)-len(buf) {
		h.Write(buf)
		io.WriteString(h, s)
		return buf[:0]
	}
	return append(buf, s...)
}

func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// merge grows into to span other too, re-cutting the content from the source.
func merge(into, other *Item, count func(string) int) {
	into.StartLine = min(into.StartLine, other.StartLine)
	into.EndLine = max(into.EndLine, other.EndLine)
	into.Content = into.Source.Slice(into.StartLine, into.EndLine)
	into.Tokens = count(into.Content)
	if other.Score > into.Score {
		into.Score = other.Score
	}
	if into.Kind != other.Kind {
		into.Kind = "merged"
	}
	if into.Name != other.Name && other.Name != "" {
		if into.Name == "" {
			into.Name = other.Name
		} else {
			into.Name += ", " + other.Name
		}
	}
}

func sameText(a, b *Item) bool {
	return a.Source == b.Source || (a.Source != nil && b.Source != nil && a.Source.String() == b.Source.String())
}
