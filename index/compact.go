package index

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxSegments: a flush that leaves more segments than this merges them.
const maxSegments = 8

func maxBytes(n int64) int64 {
	if n > 0 {
		return n
	}
	if mb, err := strconv.ParseInt(os.Getenv("ACODE_LSP_INDEX_MAX_MB"), 10, 64); err == nil && mb > 0 {
		return mb << 20
	}
	return DefaultMaxBytes
}

// compactLocked merges segments into one: all of them (full), or all but
// the largest when it outweighs the rest twice (so a warm server does not
// rewrite its whole index every few packs). Of each path it keeps the
// newest term entry whose stat still matches the file, and per chunking key
// the newest chunk set; entries of deleted files go, and past the cap the
// entries put longest ago. Inputs are removed after the merged segment is
// in place; a concurrent process that merged the same inputs only leaves a
// duplicate, which the next merge drops. Stale temporary files (a writer
// killed mid-write) and segments that fail their checks are removed.
func (x *Index) compactLocked(full bool) error {
	x.sweep()
	in := slices.Clone(x.segs)
	if len(in) < 2 {
		return nil
	}
	big, rest := 0, int64(0)
	for i, s := range in {
		if s.size > in[big].size {
			big = i
		}
		rest += s.size
	}
	rest -= in[big].size
	if !full && in[big].size > 2*rest {
		in = slices.Delete(in, big, big+1)
	}
	for attempt := 0; attempt < 3; attempt++ {
		err := x.merge(in)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errCorrupt) {
			return err
		}
		// An input failed a check while merging: drop it and retry.
		in = slices.DeleteFunc(in, func(s *segment) bool {
			if s.bad.Load() {
				removeOwn(s.path)
				return true
			}
			return false
		})
	}
	return nil
}

// sweep removes this index's own leftovers: temporary files older than an
// hour and segment files that cannot be opened under this version and key.
// Only regular files of this user whose names the index gives its files are
// removed (removeOwn); anything else in the directory is left alone.
func (x *Index) sweep() {
	des, _ := os.ReadDir(x.dir)
	open := map[string]bool{}
	for _, s := range x.segs {
		open[s.path] = true
	}
	for _, de := range des {
		p := filepath.Join(x.dir, de.Name())
		if isTempName(de.Name()) {
			if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > time.Hour {
				removeOwn(p)
			}
			continue
		}
		if isSegmentName(de.Name()) && de.Type().IsRegular() && !open[p] {
			if s, err := openSegment(p, x.k, x.vh); err == nil {
				s.close() // written since the last refresh: keep
			} else if errors.Is(err, errCorrupt) {
				removeOwn(p)
			}
		}
	}
}

// segmentPattern is the name of a segment file (segmentName).
var segmentPattern = regexp.MustCompile(`^[0-9a-f]{16}-[0-9]{1,10}-[0-9a-f]{1,8}\.seg$`)

func isSegmentName(n string) bool { return segmentPattern.MatchString(n) }

// IsFileName reports whether n is a name the index gives the files of a
// root's directory: segments, temporary files, the side files (refused.tbl,
// map.plan, mapred.tbl, map.sum, counts.tbl, paths.tbl) and format 1's
// "root". Clearing or pruning removes only these (TestClearCache packs
// with the index and checks that clearing leaves nothing, so a new kind
// of file missing here fails it).
func IsFileName(n string) bool {
	return isSegmentName(n) || isTempName(n) || n == "root" || n == refusedName || n == planName || n == redName ||
		n == sumName || n == plainName || n == countsName
}

// IsRootDirName reports whether n is a name the index gives a root's
// directory.
func IsRootDirName(n string) bool { return rootKeyPattern.MatchString(n) }

// isTempName: the temporary files of writeSegment (.tmp-*.seg, .tmp-*.dict).
func isTempName(n string) bool { return strings.HasPrefix(n, ".tmp-") && !strings.ContainsRune(n, '/') }

// removeOwn removes the file p when it is a regular file of this user
// (never a directory, never through a link: a link is itself not regular).
// The directories it is called on are this user's and writable by no one
// else, so the file checked is the file removed.
func removeOwn(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !ownRegular(fi) {
		return false
	}
	return os.Remove(p) == nil
}

// source is where a merged path's data comes from.
type source struct {
	path  string
	terms *segment // the segment whose record holds the kept terms, nil: none
	ti    int
	rec   record
	sets  []recRef // records whose chunk sets are merged, newest first
	alts  []recRef // older records with terms, newest first (matchTerms)
	size  int64    // estimated bytes
	put   int64
	// onDisk is the file's stat at the merge.
	onDisk stat
}

// addTerms notes record i of s, met newest first, if it holds terms that
// are not racy: the first such record is the one kept unless the file no
// longer matches it (matchTerms).
func (src *source) addTerms(s *segment, i int, r record) {
	if r.flags&flagTerms == 0 || r.flags&flagRacy != 0 {
		return
	}
	if src.terms == nil {
		src.terms, src.ti, src.rec = s, i, r
		return
	}
	src.alts = append(src.alts, recRef{s, i})
}

// matchTerms keeps, when the newest record with terms no longer matches
// the file's stat st, the newest older one that does; and it puts the
// chunk sets of records made at st before the others (each kind of set is
// taken from the first record holding it). Two processes put the same
// file, and the one whose segment is newer read its stat before the
// other's last edit (TestConcurrentProcesses).
func (src *source) matchTerms(st stat) {
	if len(src.sets) > 1 {
		slices.SortStableFunc(src.sets, func(a, b recRef) int {
			return b2i(a.s.rec(a.i).st != st) - b2i(b.s.rec(b.i).st != st)
		})
	}
	if src.terms == nil || src.rec.st == st {
		return
	}
	for _, a := range src.alts {
		if r := a.s.rec(a.i); r.st == st {
			src.terms, src.ti, src.rec = a.s, a.i, r
			return
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

type recRef struct {
	s *segment
	i int
}

func (x *Index) merge(in []*segment) error {
	byPath := map[string]*source{}
	var order []*source
	for _, s := range in { // newest first
		for i := 0; i < s.nFiles; i++ {
			pb := s.pathBytes(i)
			if pb == nil {
				s.bad.Store(true)
				return errCorrupt
			}
			src := byPath[string(pb)]
			r := s.rec(i)
			if src == nil {
				src = &source{path: string(pb), rec: r, put: r.put}
				byPath[src.path] = src
				order = append(order, src)
			}
			src.addTerms(s, i, r)
			if r.chunkLen > 0 {
				src.sets = append(src.sets, recRef{s, i})
				src.size += int64(r.chunkLen)
			}
			src.put = max(src.put, r.put)
		}
	}
	// Drop what no longer matches the files on disk.
	kept := order[:0]
	for _, src := range order {
		if x.redacted[src.path] {
			continue
		}
		fi, err := os.Lstat(src.path)
		if err != nil {
			continue
		}
		st, ok := statOf(fi)
		src.matchTerms(st) // when !ok, whatever it keeps is dropped below
		if !ok || src.terms != nil && st != src.rec.st {
			src.terms = nil
		}
		src.onDisk = st
		if src.terms == nil && len(src.sets) == 0 {
			continue
		}
		src.size += recSize + int64(len(src.path))
		if src.terms != nil {
			src.size += 5 * int64(src.rec.uniq)
		}
		kept = append(kept, src)
	}
	// Past the cap, the entries put longest ago go first.
	var total int64
	for _, src := range kept {
		total += src.size
	}
	if total > x.max {
		slices.SortStableFunc(kept, func(a, b *source) int { return int(a.put - b.put) })
		for len(kept) > 0 && total > x.max*3/4 {
			total -= kept[0].size
			kept = kept[1:]
		}
	}
	slices.SortFunc(kept, func(a, b *source) int { return strings.Compare(a.path, b.path) })

	remap := map[*segment][]int32{}
	for _, s := range in {
		m := make([]int32, s.nFiles)
		for i := range m {
			m[i] = -1
		}
		remap[s] = m
	}
	entries := make([]*entry, len(kept))
	read := 0 // entries whose sets were read
	for o, src := range kept {
		e := &entry{path: src.path, st: src.rec.st, put: src.put}
		if src.terms != nil {
			r := src.rec
			e.flags, e.length, e.uniq, e.hash = flagTerms, r.length, r.uniq, r.hash
			remap[src.terms][src.ti] = int32(o)
		} else if src.rec.flags&flagRacy == 0 && src.onDisk == src.rec.st {
			// Sets only: the newest record's content hash still goes with
			// the file on disk (Index.StatSets).
			e.hash = src.rec.hash
		}
		if len(src.sets) > 0 {
			e.setsFn = mergedSets(src.sets, in, &read)
		}
		entries[o] = e
	}
	name, err := writeSegment(x.dir, x.k, x.vh, entries, mergedTerms(in, remap))
	if err != nil {
		return err
	}
	s, err := openSegment(name, x.k, x.vh)
	if err != nil {
		removeOwn(name)
		return err
	}
	merged := map[*segment]bool{}
	for _, old := range in {
		merged[old] = true
		removeOwn(old.path)
	}
	segs := []*segment{s}
	for _, old := range x.segs {
		if merged[old] {
			old.close()
			continue
		}
		segs = append(segs, old)
	}
	x.segs = segs
	x.qmu.Lock()
	x.q.Store(nil)
	x.qmu.Unlock()
	return nil
}

// dropEvery: a merge drops the pages of its inputs from its memory every
// dropEvery terms.
const dropEvery = 1 << 16

// mergedSets loads the chunk sets of a merged path from refs (its
// records, newest first), the first set of each key; read counts the
// paths whose sets were loaded, and every dropSetsEvery of them the pages
// of the inputs in are dropped.
func mergedSets(refs []recRef, in []*segment, read *int) func() ([]chunkSet, error) {
	return func() ([]chunkSet, error) {
		if *read++; *read%dropSetsEvery == 0 {
			dropRead(in)
		}
		var out []chunkSet
		for _, ref := range refs {
			sets, err := ref.s.sets(ref.i, nil)
			if err != nil {
				return nil, err
			}
			for _, cs := range sets {
				if !slices.ContainsFunc(out, func(o chunkSet) bool { return o.key == cs.key }) {
					out = append(out, cs)
				}
			}
		}
		return out, nil
	}
}

// dropSetsEvery: a merge drops the pages of its inputs from its memory
// every dropSetsEvery entries whose sets it copies (a first map's spills
// of a 100,000-file tree hold ~200 MB of sets).
const dropSetsEvery = 1 << 12

// dropRead drops the pages of a merge's inputs from the process's memory:
// they are read once, in order, so what was read need not stay (a first
// pack merges ~100 MB of spills of a 100,000-file tree).
func dropRead(in []*segment) {
	for _, s := range in {
		dropPages(s.data)
	}
}

// mergeCursor walks one input's dictionary, block by block.
type mergeCursor struct {
	s            *segment
	b, i         int
	hashes, offs []byte
}

// load makes c's current term readable, loading blocks as needed; false
// at the end of the dictionary.
func (c *mergeCursor) load() (bool, error) {
	for c.i*8 >= len(c.hashes) {
		if c.b >= c.s.nBlocks {
			return false, nil
		}
		h, o, err := c.s.block(c.b)
		if err != nil {
			return false, err
		}
		c.hashes, c.offs, c.i = h, o, 0
		c.b++
	}
	return true, nil
}

// hash is the hash of c's current term.
func (c *mergeCursor) hash() uint64 { return le.Uint64(c.hashes[8*c.i:]) }

// take appends the postings of c's current term, remapped by m (files
// dropped by the merge left out), to files and moves c on; more is false
// when c is at its end.
func (c *mergeCursor) take(files []fileCount, m []int32) (out []fileCount, more bool, err error) {
	l, err := c.s.postings(le.Uint64(c.offs[8*c.i:]))
	if err != nil {
		return files, false, err
	}
	for _, fc := range l {
		if o := m[fc.f]; o >= 0 {
			files = append(files, fileCount{uint32(o), fc.c})
		}
	}
	c.i++
	more, err = c.load()
	return files, more, err
}

// mergedTerms walks the dictionaries of in together, in hash order, and
// yields each term's postings remapped to the merged records.
func mergedTerms(in []*segment, remap map[*segment][]int32) termSource {
	return func(yield func(uint64, []fileCount) error) error {
		var cur []*mergeCursor
		for _, s := range in {
			c := &mergeCursor{s: s}
			ok, err := c.load()
			if err != nil {
				return err
			}
			if ok {
				cur = append(cur, c)
			}
		}
		var files []fileCount
		for n := 1; len(cur) > 0; n++ {
			if n%dropEvery == 0 {
				dropRead(in)
			}
			h := cur[0].hash()
			for _, c := range cur[1:] {
				h = min(h, c.hash())
			}
			files = files[:0]
			from := 0
			next := cur[:0]
			for _, c := range cur {
				if c.hash() == h {
					n0 := len(files)
					var more bool
					var err error
					if files, more, err = c.take(files, remap[c.s]); err != nil {
						return err
					}
					if len(files) > n0 {
						from++
					}
					if !more {
						continue
					}
				}
				next = append(next, c)
			}
			cur = next
			if len(files) == 0 {
				continue
			}
			if from > 1 {
				slices.SortFunc(files, func(a, b fileCount) int { return int(a.f) - int(b.f) })
			}
			if err := yield(h, files); err != nil {
				return err
			}
		}
		return nil
	}
}
