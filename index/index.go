package index

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/pack"
)

// DefaultMaxBytes caps one root's index on disk (1 GiB): a compaction past
// it drops the entries put longest ago. ACODE_LSP_INDEX_MAX_MB overrides it.
const DefaultMaxBytes = 1 << 30

// racyWindow: an entry put less than this after its file's last change may
// describe a file still being written in the same timestamp tick, so its
// stat does not vouch for it (git's "racy clean" rule); such an entry is
// used only where the content is at hand (chunks, by content hash).
const racyWindow = 2 * time.Second

// Options configures [Open].
type Options struct {
	// Dir holds the root's segments; empty means [Dir](root).
	Dir string
	// Version names the term splitter and chunker whose output is stored;
	// segments written under another version are ignored.
	Version string
	// MaxBytes caps the root's segments; 0 means DefaultMaxBytes (or
	// ACODE_LSP_INDEX_MAX_MB).
	MaxBytes int64

	now      func() time.Time // tests move the clock
	spill    int              // pending postings that trigger a write (0: 1M)
	setSpill int              // pending set bytes that trigger a write (0: setSpillBytes)
}

// Index is the persistent index of one workspace root. It is safe for
// concurrent use.
type Index struct {
	root, dir string
	k         *keys
	vh        uint64
	max       int64
	now       func() time.Time
	spill     int

	mu        sync.RWMutex
	segs      []*segment // newest first
	pending   map[string]*entry
	flying    []map[string]*entry // batches being written by spill, newest first
	npend     int                 // pending postings
	pbytes    int                 // pending set bytes (setBytes; setspill.go)
	flyBytes  int                 // set bytes of the batches being written
	flyCond   *sync.Cond          // on x.mu: a spill is done (flyBytes fell)
	setSpill  int
	forgotten map[string]bool // paths told changed and not put since
	redacted  map[string]bool // paths whose text holds a secret: never stored
	closed    bool

	qmu sync.Mutex            // held to change q
	q   atomic.Pointer[query] // the terms of the last lookup, resolved per segment; never changed once stored

	spillSem chan struct{} // one spill written at a time
	spilling spills        // spills being written

	refused       refusedTable // refused files (refused.go)
	mapred        redTable     // map facts of redacted files (mapred.go)
	refusedVHOnce sync.Once
	refusedVHVal  uint64
	plain         plainTable // plain paths (plain.go)
	plainVHOnce   sync.Once
	plainVHVal    uint64

	termHits, termMisses, chunkHits, chunkMisses atomic.Int64
	setHits, setMisses                           atomic.Int64 // Set
	statHits, statMisses                         atomic.Int64 // StatSets
}

// Root returns the workspace root the index serves.
func (x *Index) Root() string { return x.root }

// Dir returns where the index of root lives by default:
// os.UserCacheDir()/acode-lsp/index/<16 hex digits>, the digits a keyed
// hash (key.go) of root, so a directory name says nothing of the root
// without the per-user key. os.UserCacheDir honours XDG_CACHE_HOME. It
// fails when there is no cache directory or no usable key.
func Dir(root string) (string, error) {
	k, err := loadKeys()
	if err != nil {
		return "", err
	}
	c, err := cacheBase()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "acode-lsp", "index", rootKey(k, root)), nil
}

func cacheBase() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("index: no cache directory: %w", err)
	}
	return c, nil
}

func rootKey(k *keys, root string) string {
	return fmt.Sprintf("%016x", k.other.sum64("root\x00"+filepath.Clean(root)))
}

// rootKeyPattern is the name rootKey gives a root's directory.
var rootKeyPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

// defaultDir makes (or checks) the default directory of root's index: the
// cache directory, resolved and checked (trustedParent), then acode-lsp,
// index and the root's own directory, each this user's and writable by no
// one else (ownDir). In a shared cache directory (mode 1777) that makes
// acode-lsp a private subdirectory; one another user made, or a symlink
// planted there, makes the index off (the error says why).
func defaultDir(k *keys, root string) (string, error) {
	c, err := cacheBase()
	if err != nil {
		return "", err
	}
	base, err := trustedParent(c)
	if err != nil {
		return "", err
	}
	return ownDirs(base, "acode-lsp", "index", rootKey(k, root))
}

// Open opens (creating it if needed) the index of root, an absolute
// directory. Segments that fail their checks are ignored. It fails, and
// the index is off, when the per-user key (key.go) or a directory of the
// index cannot be trusted (trust.go).
func Open(root string, opt Options) (*Index, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("index: root %q is not absolute", root)
	}
	k, err := loadKeys()
	if err != nil {
		return nil, err
	}
	dir := opt.Dir
	if dir == "" {
		if dir, err = defaultDir(k, root); err != nil {
			return nil, err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		if err := ownDir(dir); err != nil {
			return nil, err
		}
	}
	now := time.Now()
	os.Chtimes(dir, now, now) // last use, for pruning roots (prune)
	x := &Index{
		root: filepath.Clean(root), dir: dir, k: k,
		vh:        fnv64(fnvBasis, fmt.Sprintf("format %d; %s", FormatVersion, opt.Version)),
		max:       maxBytes(opt.MaxBytes),
		now:       opt.now,
		spill:     opt.spill,
		pending:   map[string]*entry{},
		forgotten: map[string]bool{},
		redacted:  map[string]bool{},
		spillSem:  make(chan struct{}, 1),
		setSpill:  opt.setSpill,
	}
	x.flyCond = sync.NewCond(&x.mu)
	if x.setSpill == 0 {
		x.setSpill = setSpillBytes
	}
	if x.now == nil {
		x.now = time.Now
	}
	if x.spill == 0 {
		x.spill = 1 << 20
	}
	x.refreshLocked()
	return x, nil
}

// segmentFiles lists the segment files in dir, newest first: regular
// files (as the directory reports them; openSegment checks again on the
// descriptor) whose names the index gives its segments.
func segmentFiles(dir string) []string {
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if n := de.Name(); isSegmentName(n) && de.Type().IsRegular() {
			out = append(out, filepath.Join(dir, n))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}

// refreshLocked opens the segments other processes wrote since and drops
// the ones they merged away.
func (x *Index) refreshLocked() {
	have := map[string]*segment{}
	for _, s := range x.segs {
		have[s.path] = s
	}
	var segs []*segment
	for _, p := range segmentFiles(x.dir) {
		if s := have[p]; s != nil {
			delete(have, p)
			if !s.bad.Load() {
				segs = append(segs, s)
				continue
			}
			s.close()
			continue
		}
		s, err := openSegment(p, x.k, x.vh)
		if err != nil {
			continue // ignored; a compaction removes it when it is ours
		}
		segs = append(segs, s)
	}
	for _, s := range have {
		s.close()
	}
	x.segs = segs
}

// Terms returns the number of terms of the file at abs (fi: its stat from
// the walk) and the counts of those of terms it holds; false when the index
// has no entry for this version of the file.
func (x *Index) Terms(abs string, fi fs.FileInfo, terms []string) (length int, counts map[string]int, ok bool) {
	defer x.countTerms(&ok)
	st, ok := statOf(fi)
	if !ok {
		return 0, nil, false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.closed || x.forgotten[abs] {
		return 0, nil, false
	}
	for _, e := range x.memEntries(abs) {
		if e.flags&flagTerms == 0 {
			continue
		}
		if e.st != st || e.flags&flagRacy != 0 {
			return 0, nil, false
		}
		return int(e.length), x.pendingCounts(e, terms), true
	}
	lists, i, length, ok := x.segmentTerms(abs, st, terms)
	if !ok {
		return 0, nil, false
	}
	return length, fileCounts(lists, i, terms), true
}

// TermRow is Terms writing the count of each of terms into row (indexed
// as terms; a term asked twice is counted at its last place only, as a
// row filled from Terms' map by the term's last index is), without a map
// per file: a warm pack asks it for every listed file (issue 24, warm11).
// False on a miss, row untouched.
func (x *Index) TermRow(abs string, fi fs.FileInfo, terms []string, row []uint16) (ok bool) {
	defer x.countTerms(&ok)
	st, ok := statOf(fi)
	if !ok {
		return false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.closed || x.forgotten[abs] {
		return false
	}
	for _, e := range x.memEntries(abs) {
		if e.flags&flagTerms == 0 {
			continue
		}
		if e.st != st || e.flags&flagRacy != 0 {
			return false
		}
		counts := x.pendingCounts(e, terms)
		for k, t := range terms {
			if c, found := counts[t]; found && lastPlace(terms, k) {
				row[k] = uint16(min(c, math.MaxUint16))
			}
		}
		return true
	}
	return x.segmentRow(abs, st, terms, row)
}

// segmentRow is TermRow from the segments (newest first) for a file of
// stat st that no pending entry holds; x.mu is held for reading.
func (x *Index) segmentRow(abs string, st stat, terms []string, row []uint16) bool {
	lists, i, _, ok := x.segmentTerms(abs, st, terms)
	if !ok {
		return false
	}
	for k, l := range lists {
		if c, found := countOf(l, i); found && lastPlace(terms, k) {
			row[k] = uint16(min(c, math.MaxUint16))
		}
	}
	return true
}

// segmentTerms finds the newest segment record of the file at abs made at
// stat st with terms (not racy): the postings of terms in its segment, its
// record number there and its number of terms. x.mu is held for reading.
func (x *Index) segmentTerms(abs string, st stat, terms []string) (lists [][]fileCount, i, length int, ok bool) {
	ph := x.k.pathHash(abs)
	for _, s := range x.segs {
		if s.bad.Load() {
			continue
		}
		rec := s.find(abs, ph)
		if rec < 0 {
			continue
		}
		r := s.rec(rec)
		if r.flags&flagTerms == 0 || r.flags&flagRacy != 0 || r.st != st {
			continue
		}
		ls, err := x.resolve(s, terms)
		if err != nil {
			continue
		}
		return ls, rec, int(r.length), true
	}
	return nil, 0, 0, false
}

// countOf is the count of record i in the postings list l (sorted by
// record), and whether l holds it.
func countOf(l []fileCount, i int) (uint32, bool) {
	j := sort.Search(len(l), func(j int) bool { return l[j].f >= uint32(i) })
	if j < len(l) && l[j].f == uint32(i) {
		return l[j].c, true
	}
	return 0, false
}

// lastPlace reports whether terms[k] is the last place of its term.
func lastPlace(terms []string, k int) bool {
	for _, t := range terms[k+1:] {
		if t == terms[k] {
			return false
		}
	}
	return true
}

// countTerms counts a terms lookup as a hit or a miss.
func (x *Index) countTerms(ok *bool) {
	if *ok {
		x.termHits.Add(1)
	} else {
		x.termMisses.Add(1)
	}
}

// pendingCounts are the counts of those of terms pending entry e holds
// (nil when none).
func (x *Index) pendingCounts(e *entry, terms []string) map[string]int {
	var counts map[string]int
	for _, t := range terms {
		h, c := x.k.termHash(t), 0
		for _, p := range e.terms {
			if p.Hash == h {
				c += int(p.Count)
			}
		}
		if c > 0 {
			if counts == nil {
				counts = map[string]int{}
			}
			counts[t] = c
		}
	}
	return counts
}

// fileCounts are the counts of file i of a segment in the postings lists
// of terms (one per term; nil when none holds it).
func fileCounts(lists [][]fileCount, i int, terms []string) map[string]int {
	var counts map[string]int
	for k, l := range lists {
		if c, found := countOf(l, i); found {
			if counts == nil {
				counts = map[string]int{}
			}
			counts[terms[k]] = int(c)
		}
	}
	return counts
}

// query is a list of asked terms with their postings per segment, so that
// the per-file lookups of one pack decode each postings list once. A
// query is not changed once stored in Index.q (a segment resolved later
// makes a new one): the lookups of a pack's scan, one per listed file from
// every CPU, read it without a lock (issue 24, warm11).
type query struct {
	terms []string
	lists map[*segment][][]fileCount
}

func (x *Index) resolve(s *segment, terms []string) ([][]fileCount, error) {
	if q := x.q.Load(); q != nil && slices.Equal(q.terms, terms) {
		if l, ok := q.lists[s]; ok {
			return l, nil
		}
	}
	x.qmu.Lock()
	defer x.qmu.Unlock()
	q := x.q.Load()
	if q == nil || !slices.Equal(q.terms, terms) {
		q = &query{terms: slices.Clone(terms), lists: map[*segment][][]fileCount{}}
	}
	if l, ok := q.lists[s]; ok {
		return l, nil
	}
	lists := make([][]fileCount, len(terms))
	for k, t := range terms {
		l, err := s.term(x.k.termHash(t))
		if err != nil {
			return nil, err
		}
		lists[k] = l
	}
	q = &query{terms: q.terms, lists: maps.Clone(q.lists)}
	q.lists[s] = lists
	x.q.Store(q)
	return lists, nil
}

// PutTerms stores the term table of the file at abs read with content:
// every term and its count (the index keeps their hashes only).
func (x *Index) PutTerms(abs string, fi fs.FileInfo, content []byte, all map[string]int) {
	e := x.termEntry(abs, fi, content)
	if e == nil {
		return
	}
	e.terms = make([]posting, 0, len(all))
	length := 0
	for t, c := range all {
		e.terms = append(e.terms, posting{Hash: x.k.termHash(t), Count: uint32(c)})
		length += c
	}
	x.putTerms(e, length)
}

// TermHash returns the keyed hash (SipHash-2-4 under the per-user key)
// the index stores a term under.
func (x *Index) TermHash(term []byte) uint64 {
	return x.k.terms.sum64(unsafe.String(unsafe.SliceData(term), len(term)))
}

// PutTermHashes is [Index.PutTerms] for terms already hashed by
// [Index.TermHash], each with its count. The entry keeps terms (no copy):
// the caller does not use the slice again.
func (x *Index) PutTermHashes(abs string, fi fs.FileInfo, content []byte, terms []pack.TermHash) {
	if e := x.termEntry(abs, fi, content); e != nil {
		x.putHashed(e, terms)
	}
}

// termEntry is the term entry (without its terms) of the file at abs
// read with content, or nil when nothing of the file may be stored: a
// stat the index cannot key, a path it does not store, or a text that
// redaction touches (then the path is marked redacted).
func (x *Index) termEntry(abs string, fi fs.FileInfo, content []byte) *entry {
	st, ok := statOf(fi)
	if !ok || !x.storable(abs) {
		return nil
	}
	// A file known (by its settled stat) to hold a secret is not
	// redacted again to learn it (refused.go).
	if code, ok := x.refusalOf(x.k.pathHash(abs), st); ok && code == codeRedacted {
		x.markRedacted(abs)
		return nil
	}
	// content is only read here (not copied: a first pack hands every file of the tree in)
	if collector.HoldsSecret(unsafe.String(unsafe.SliceData(content), len(content))) {
		x.markRedacted(abs)
		x.putRefusal(abs, st, codeRedacted)
		return nil
	}
	x.dropRefusal(abs)
	return x.newTermEntry(abs, st, content)
}

// newTermEntry is the term entry (without its terms) of the file at abs
// with stat st read as content, flagged racy when the file changed within
// racyWindow.
func (x *Index) newTermEntry(abs string, st stat, content []byte) *entry {
	e := &entry{path: abs, st: st, flags: flagTerms, hash: x.k.contentHash(content), put: x.now().Unix()}
	if changed := time.Unix(0, max(st.mtime, st.ctime)); x.now().Sub(changed) < racyWindow {
		e.flags |= flagRacy
	}
	return e
}

// putHashed makes terms (hashed by [Index.TermHash], with counts) e's
// postings and e the pending entry of its path.
func (x *Index) putHashed(e *entry, terms []pack.TermHash) {
	e.terms = terms // handed over (PutTermHashes)
	length := 0
	for _, t := range terms {
		length += int(t.Count)
	}
	x.putTerms(e, length)
}

// putTerms makes e, a term entry of length terms, the pending entry of
// its path.
func (x *Index) putTerms(e *entry, length int) {
	abs := e.path
	// Unsorted: the segment writer orders all postings at once (and adds
	// up two terms of one file that share a 64-bit hash).
	e.length, e.uniq = uint32(length), uint32(len(e.terms))

	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed || x.redacted[abs] {
		return
	}
	if old := x.pending[abs]; old != nil {
		e.sets = old.sets
		x.npend -= len(old.terms)
	}
	x.pending[abs] = e
	x.npend += len(e.terms)
	delete(x.forgotten, abs)
	if x.spillDueLocked() {
		x.spillLocked()
	}
}

// memEntries are the entries of abs not yet in a segment, newest first:
// the pending one, then those of the batches being written. The caller
// holds x.mu.
func (x *Index) memEntries(abs string) []*entry {
	var out []*entry
	if e := x.pending[abs]; e != nil {
		out = append(out, e)
	}
	for _, b := range x.flying {
		if e := b[abs]; e != nil {
			out = append(out, e)
		}
	}
	return out
}

// spillLocked writes the pending entries as a new segment in the
// background: the scan that put them goes on while the segment is
// written, and the entries stay visible (memEntries) until it is in
// place. One spill is written at a time (the next waits for it, in the
// order they were made, so the newer one is named newer); Flush and Close
// wait for them. The caller holds x.mu.
func (x *Index) spillLocked() {
	batch, bytes := x.pending, x.pbytes
	x.pending, x.npend, x.pbytes = map[string]*entry{}, 0, 0
	x.flyBytes += bytes
	x.flying = append([]map[string]*entry{batch}, x.flying...)
	x.spilling.add()
	go func() {
		defer x.spilling.done()
		x.spillSem <- struct{}{}
		defer func() { <-x.spillSem }()
		x.mu.RLock()
		entries := sortedEntries(batch)
		entries = slices.DeleteFunc(entries, func(e *entry) bool { return x.redacted[e.path] }) // marked since
		x.mu.RUnlock()
		name, err := writeSegment(x.dir, x.k, x.vh, entries, batchTerms(entries))
		var seg *segment
		if err == nil {
			seg, _ = openSegment(name, x.k, x.vh)
		}
		x.mu.Lock()
		defer x.mu.Unlock()
		x.flying = slices.DeleteFunc(x.flying, func(b map[string]*entry) bool { return sameBatch(b, batch) })
		x.flyBytes -= bytes
		x.flyCond.Broadcast()
		if seg == nil {
			// Not written: the entries go back to pending unless newer
			// ones replaced them, for the next flush.
			for p, e := range batch {
				if x.pending[p] == nil && !x.redacted[p] && !x.forgotten[p] {
					x.pending[p] = e
					x.npend += len(e.terms)
					x.pbytes += setBytes(e.sets)
				}
			}
			return
		}
		if x.closed || slices.ContainsFunc(x.segs, func(o *segment) bool { return o.path == seg.path }) {
			// On disk: the next open reads it; or a flush meanwhile
			// found it in the directory (refreshLocked) and opened it.
			seg.close()
			return
		}
		x.segs = append([]*segment{seg}, x.segs...)
	}()
}

// spills counts the spills being written. Unlike a WaitGroup, a spill
// may start while another goroutine waits (a server's timed flush during
// a pack): wait returns once none is being written.
type spills struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func (s *spills) add() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *spills) done() {
	s.mu.Lock()
	if s.n--; s.n == 0 && s.cond != nil {
		s.cond.Broadcast()
	}
	s.mu.Unlock()
}

func (s *spills) wait() {
	s.mu.Lock()
	for s.n > 0 {
		if s.cond == nil {
			s.cond = sync.NewCond(&s.mu)
		}
		s.cond.Wait()
	}
	s.mu.Unlock()
}

// sameBatch reports whether a and b are the same map.
func sameBatch(a, b map[string]*entry) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// sortedEntries are the entries of a batch by path.
func sortedEntries(batch map[string]*entry) []*entry {
	entries := make([]*entry, 0, len(batch))
	for _, e := range batch {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *entry) int { return strings.Compare(a.path, b.path) })
	return entries
}

// Chunks returns the chunks cut for key from content, the text of the file
// at abs (Content fields empty); false on a miss. The entry is keyed by the
// content's hash, so it holds whatever the stat says.
func (x *Index) Chunks(abs string, fi fs.FileInfo, content []byte, key string) (cs []chunker.Chunk, ok bool) {
	defer func() {
		if ok {
			x.chunkHits.Add(1)
		} else {
			x.chunkMisses.Add(1)
		}
	}()
	set, ok := x.lookupSet(abs, fi, content, key)
	if !ok {
		return nil, false
	}
	return validChunks(set, content)
}

// validChunks checks chunks against the text they were cut from, as the
// chunker makes them: in order, covering content whole (no chunk for an
// empty text), each of whole lines whose numbers are the lines its bytes
// span. An entry that says otherwise (a segment sealed with lying lines)
// is a miss: the file is cut again, and no header can claim a line the
// file does not have.
func validChunks(cs []chunker.Chunk, content []byte) ([]chunker.Chunk, bool) {
	end, line := 0, 1 // the byte and line the next chunk starts at
	for _, c := range cs {
		if c.StartByte != end || c.EndByte <= c.StartByte || c.EndByte > len(content) || c.StartLine != line {
			return nil, false
		}
		if c.EndByte < len(content) && content[c.EndByte-1] != '\n' {
			return nil, false // ends mid-line
		}
		nl := bytes.Count(content[c.StartByte:c.EndByte], []byte{'\n'})
		last := c.StartLine + nl // the line of the last byte, or the next line after a final newline
		if content[c.EndByte-1] == '\n' {
			last--
		}
		if c.EndLine != last {
			return nil, false
		}
		end, line = c.EndByte, c.StartLine+nl
	}
	if end != len(content) {
		return nil, false
	}
	if cs == nil {
		cs = []chunker.Chunk{}
	}
	return cs, true
}

// PutChunks stores the chunks cut for key from content (their Content is
// not stored).
func (x *Index) PutChunks(abs string, fi fs.FileInfo, content []byte, key string, chunks []chunker.Chunk) {
	x.PutSet(abs, fi, content, key, chunks)
}

// PutSet stores a set of chunks computed from content for key: the
// chunks of a chunking, or any other list kept as chunks (outline
// ranges, a map's summary of the file; pack/mapindex.go). Content fields
// are not stored. The entry's stat and content hash become those of this
// put, so that [Index.StatSets] can later answer from the stat alone;
// sets of another content are dropped from the pending entry.
func (x *Index) PutSet(abs string, fi fs.FileInfo, content []byte, key string, set []chunker.Chunk) {
	st, ok := statOf(fi)
	if !ok || !x.storable(abs) {
		return
	}
	if bytes.Contains(content, redactedMark) { // the pipeline's text, redacted
		x.markRedacted(abs)
		return
	}
	cs := chunkSet{key: x.k.keyHash(key), hash: x.k.contentHash(content), chunks: make([]chunker.Chunk, len(set))}
	for i, c := range set {
		c.Content = ""
		cs.chunks[i] = c
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed || x.redacted[abs] {
		return
	}
	e := x.pending[abs]
	if e == nil {
		e = &entry{path: abs, st: st, hash: cs.hash, put: x.now().Unix()}
		x.pending[abs] = e
	}
	x.pbytes -= setBytes(e.sets)
	if e.st != st || e.hash != cs.hash {
		// The file changed since the entry was put: what it held was
		// computed from another text.
		x.npend -= len(e.terms)
		*e = entry{path: abs, st: st, hash: cs.hash, put: x.now().Unix(), sets: slices.DeleteFunc(e.sets, func(o chunkSet) bool { return o.hash != cs.hash })}
	}
	changed := time.Unix(0, max(st.mtime, st.ctime))
	if x.now().Sub(changed) < racyWindow {
		e.flags |= flagRacy
	}
	e.sets = withSet(e.sets, cs)
	x.pbytes += setBytes(e.sets)
	x.spillSetsLocked()
}

// Set returns the set stored for key and content, the text of the file at
// abs, as [Index.PutSet] stored it (unchecked: the caller checks it
// against the text); false on a miss.
func (x *Index) Set(abs string, fi fs.FileInfo, content []byte, key string) (set []chunker.Chunk, ok bool) {
	defer x.countSet(&ok)
	return x.lookupSet(abs, fi, content, key)
}

// lookupSet returns the set stored for key and content, the text of the
// file at abs, unchecked (Chunks checks it as chunks, Set leaves it to its
// caller): from a pending entry (a copy) or else the first segment
// holding it; false on a miss.
func (x *Index) lookupSet(abs string, fi fs.FileInfo, content []byte, key string) ([]chunker.Chunk, bool) {
	if _, ok := statOf(fi); !ok {
		return nil, false
	}
	want := chunkSet{key: x.k.keyHash(key), hash: x.k.contentHash(content)}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.closed {
		return nil, false
	}
	for _, e := range x.memEntries(abs) {
		for _, cs := range e.sets {
			if cs.key == want.key && cs.hash == want.hash {
				return slices.Clone(cs.chunks), true
			}
		}
	}
	ph := x.k.pathHash(abs)
	for _, s := range x.segs {
		if s.bad.Load() {
			continue
		}
		if i := s.find(abs, ph); i >= 0 {
			if sets, err := s.sets(i, &want); err == nil && len(sets) > 0 {
				return sets[0].chunks, true
			}
		}
	}
	return nil, false
}

// countSet counts a set lookup as a hit or a miss.
func (x *Index) countSet(ok *bool) {
	if *ok {
		x.setHits.Add(1)
	} else {
		x.setMisses.Add(1)
	}
}

// StatSets returns the sets stored for keys (in order) of the text of the
// file at abs as its stat fi vouches for it, without that text: the entry
// must have been put for this very stat, settled (not racy, as for
// terms), and hold a set of every key for the content hash it recorded;
// false otherwise. Only a pack that reads, and checks, every file it
// packs may use it (pack/mapindex.go).
func (x *Index) StatSets(abs string, fi fs.FileInfo, keys []string) (sets [][]chunker.Chunk, ok bool) {
	defer x.countStat(&ok)
	st, ok := statOf(fi)
	if !ok {
		return nil, false
	}
	pick := setPicker{want: make([]uint64, len(keys)), out: make([][]chunker.Chunk, len(keys))}
	for i, k := range keys {
		pick.want[i] = x.k.keyHash(k)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.closed || x.forgotten[abs] {
		return nil, false
	}
	var hash [16]byte
	trusted := false
	for _, e := range x.memEntries(abs) {
		if !trusted {
			if !vouched(e.st, st, e.flags, e.hash) {
				return nil, false
			}
			hash, trusted = e.hash, true
		}
		pick.take(e.sets, hash)
	}
	trusted = x.pickSegSets(abs, st, &pick, hash, trusted)
	if !trusted || !pick.done() {
		return nil, false
	}
	return pick.out, true
}

// pickSegSets has pick take, from the segments in order until it is done,
// the sets of the entries of abs for content hash (when trusted, else the
// content hash of the first entry that vouches for stat st), and reports
// whether any hash was trusted. The caller holds x.mu.
func (x *Index) pickSegSets(abs string, st stat, pick *setPicker, hash [16]byte, trusted bool) bool {
	ph := x.k.pathHash(abs)
	for _, s := range x.segs {
		if pick.done() {
			break
		}
		i := -1
		if !s.bad.Load() {
			i = s.find(abs, ph)
		}
		if i < 0 {
			continue
		}
		r := s.rec(i)
		if !trusted {
			if !vouched(r.st, st, r.flags, r.hash) {
				continue
			}
			hash, trusted = r.hash, true
		}
		if r.chunkLen == 0 {
			continue
		}
		if sets, err := s.setsMatching(i, func(key uint64, h [16]byte) bool { return h == hash && pick.wants(key) }, false); err == nil {
			pick.take(sets, hash)
		}
	}
	return trusted
}

// countStat counts a lookup by stat as a hit or a miss.
func (x *Index) countStat(ok *bool) {
	if *ok {
		x.statHits.Add(1)
	} else {
		x.statMisses.Add(1)
	}
}

// vouched reports whether an entry put with stat put, flags and content
// hash speaks for a file whose stat is now: the same stat, settled (not
// racy), and a hash recorded.
func vouched(put, now stat, flags uint32, hash [16]byte) bool {
	return put == now && flags&flagRacy == 0 && hash != [16]byte{}
}

// setPicker gathers, for StatSets, the first set of each wanted key
// hash that was cut from one content hash.
type setPicker struct {
	want  []uint64
	out   [][]chunker.Chunk
	found int
}

func (sp *setPicker) take(sets []chunkSet, hash [16]byte) {
	for _, cs := range sets {
		for i, k := range sp.want {
			if sp.out[i] == nil && cs.key == k && cs.hash == hash {
				sp.out[i] = cs.chunks
				if sp.out[i] == nil {
					sp.out[i] = []chunker.Chunk{}
				}
				sp.found++
			}
		}
	}
}

// wants reports whether a set of key is one sp still lacks.
func (sp *setPicker) wants(key uint64) bool {
	for i, k := range sp.want {
		if k == key && sp.out[i] == nil {
			return true
		}
	}
	return false
}

func (sp *setPicker) done() bool { return sp.found == len(sp.want) }

// redactedMark starts what collector.Redact puts in place of a secret.
var redactedMark = []byte("[REDACTED")

// storable reports whether the path abs may be stored at all: not when it
// is longer than a path can be, nor when a secret-looking part of it is
// redacted where it is shown (collector.DisplayPath): the path of a
// redacted file is never stored, even encrypted.
func (x *Index) storable(abs string) bool {
	if len(abs) > maxPathLen {
		return false
	}
	if strings.Contains(collector.DisplayPath(abs), string(redactedMark)) {
		x.markRedacted(abs)
		return false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	return !x.redacted[abs]
}

// markRedacted keeps abs out of the index: its text (or its name) holds
// something redaction replaces, so neither its terms, nor its chunks, nor
// its path are stored; what is pending for it is dropped, and merges drop
// what older segments hold of it.
func (x *Index) markRedacted(abs string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.redacted[abs] {
		return
	}
	x.redacted[abs] = true
	if old := x.pending[abs]; old != nil {
		x.unpendLocked(old)
		delete(x.pending, abs)
	}
}

// Forget drops what is pending for abs and makes its term entries miss
// until it is put again (didChangeWatchedFiles: the file changed, perhaps
// within one timestamp tick); a file kept out as redacted is checked again
// at its next put.
func (x *Index) Forget(abs string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if old := x.pending[abs]; old != nil {
		x.unpendLocked(old)
		delete(x.pending, abs)
	}
	x.forgotten[abs] = true
	delete(x.redacted, abs) // the secret may be gone: the next put checks again
}

// Flush writes the pending entries as a new segment and, when there are
// many segments, merges them (compact.go).
func (x *Index) Flush() error {
	x.spilling.wait()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	return x.flushLocked(true)
}

func (x *Index) flushLocked(compact bool) error {
	var err error
	if len(x.pending) > 0 {
		entries := sortedEntries(x.pending)
		x.pending, x.npend, x.pbytes = map[string]*entry{}, 0, 0
		var name string
		if name, err = writeSegment(x.dir, x.k, x.vh, entries, batchTerms(entries)); err == nil {
			if s, oerr := openSegment(name, x.k, x.vh); oerr == nil {
				x.segs = append([]*segment{s}, x.segs...)
			}
		}
	}
	if compact {
		x.refreshLocked()
		if len(x.segs) > maxSegments {
			if cerr := x.compactLocked(false); err == nil {
				err = cerr
			}
		}
	}
	if rerr := x.flushRefused(); err == nil {
		err = rerr
	}
	if rerr := x.flushRed(); err == nil {
		err = rerr
	}
	if perr := x.flushPlain(); err == nil {
		err = perr
	}
	return err
}

// Close flushes and releases the index; later calls miss and store nothing.
func (x *Index) Close() error {
	x.spilling.wait()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	err := x.flushLocked(true)
	for _, s := range x.segs {
		s.close()
	}
	x.segs, x.closed = nil, true
	return err
}

// Stats describes the index on disk and the lookups made since it was
// opened.
type Stats struct {
	Segments int
	Files    int // records, over all segments
	Terms    int // dictionary entries, over all segments
	Bytes    int64

	TermHits, TermMisses, ChunkHits, ChunkMisses int64
	SetHits, SetMisses                           int64 // sets by content (outline ranges)
	StatHits, StatMisses                         int64 // sets by stat (a map's files not read)
}

// Stats returns the segments' count and size, once the spills being
// written are in place.
func (x *Index) Stats() Stats {
	x.spilling.wait()
	x.mu.RLock()
	defer x.mu.RUnlock()
	st := Stats{TermHits: x.termHits.Load(), TermMisses: x.termMisses.Load(), ChunkHits: x.chunkHits.Load(), ChunkMisses: x.chunkMisses.Load(),
		SetHits: x.setHits.Load(), SetMisses: x.setMisses.Load(), StatHits: x.statHits.Load(), StatMisses: x.statMisses.Load()}
	for _, s := range x.segs {
		st.Segments++
		st.Files += s.nFiles
		st.Terms += s.nTerms
		st.Bytes += s.size
	}
	return st
}
