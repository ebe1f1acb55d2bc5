package pack

import (
	"hash/maphash"
	"path"
	"strings"
	"sync"
	"unsafe"
)

// pathFactsMax bounds the paths (and, separately, the distinct name terms)
// a pathFacts memo knows; past it the memo starts again empty.
const pathFactsMax = 1 << 18

// pathFacts remembers, for a running server (an engine that keeps files),
// what of a listed path's file score does not depend on the query: whether
// it is prose (isProse, and the html extension of isProseF) and the terms
// of its name (pathScore's file name without extension and directory
// name, as interned ids in scan order). A warm pack of the 100K tree
// spent 15 % of its CPU splitting and lowering the 100,000 paths'
// names again and 10 % classifying them (issue 24, server5). Entries are
// keyed by the address and length of the path's bytes (the kept listing
// hands the same strings to every pack); the key holds the bytes, so the
// address cannot be reused while it is known. Name terms are interned by
// a 64-bit hash (as MissedTerms keeps terms). A path's facts never change, so nothing
// here can be stale (a file the watcher forgets keeps its path's facts,
// bounded by pathFactsMax).
type pathFacts struct {
	mu     sync.Mutex
	m      map[pathKey]nameFacts
	seed   maphash.Seed
	ids    map[uint64]uint32 // name terms and their stems, interned by hash
	stemOf []uint32          // by term id, the id of its stem (stem())
	arena  []uint32          // the term ids of the names, per entry a range
}

// pathKey is a path string by its bytes' address and length.
type pathKey struct {
	p *byte
	n int
}

// nameFacts is a path's facts as a pack takes them.
type nameFacts struct {
	off   uint32 // the name's term ids: arena[off : off+n]
	n     uint16
	prose bool // isProse
	html  bool // a .html or .htm extension (isProseF with the html feature)
}

// pathTerms is a pack's view of the name terms: the arena and stems as
// of its lookups (later packs only append or start anew, so they stay
// valid), and the query terms (and stems) by term id.
type pathTerms struct {
	arena, stemOf []uint32
	byTerm        []int8 // query term index by term id; -1: none
	byStem        []int8 // query term index by stem id (featStemNames); nil: off
}

func newPathFacts() *pathFacts {
	f := &pathFacts{seed: maphash.MakeSeed()}
	f.reset()
	return f
}

// reset empties the memo (f.mu held or f not shared).
func (f *pathFacts) reset() {
	f.m, f.ids, f.stemOf, f.arena = map[pathKey]nameFacts{}, map[uint64]uint32{}, nil, nil
}

// lookup returns the facts of each of files' paths (learning the new
// ones) and the name terms' view for q; facts[k] is files[k]'s. Nil
// when f is nil or files are more than it keeps.
func (f *pathFacts) lookup(files []*fileScan, q *query) ([]nameFacts, *pathTerms) {
	if f == nil || len(files) > pathFactsMax {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.m)+len(files) > pathFactsMax || len(f.ids) > pathFactsMax {
		f.reset()
	}
	facts := make([]nameFacts, len(files))
	known := len(f.m)
	for k, s := range files {
		facts[k] = f.fact(s.ref.Path)
	}
	// A new walk of the listing the memo knows: most of its paths are
	// new strings, and as many as the ones known before.
	if learned := len(f.m) - known; 2*learned >= len(files) && known > 0 && 2*len(files) >= known {
		f.keepOnly(files, facts)
	}
	pt := &pathTerms{arena: f.arena, stemOf: f.stemOf, byTerm: f.byID(q.index)}
	if q.stems != nil {
		pt.byStem = f.byID(q.stems)
	}
	return facts, pt
}

// keepOnly keeps the facts of files only (f.mu held), their term ids
// in a new arena: a pack that learned most of its paths lists a new walk
// of the tree (a running server walks again when its first walk could not
// be kept, or when a lost event drops its listing), and the old walk's
// entries, keyed by its strings, held every one of them (issue 24,
// server6). facts are updated to the new arena.
func (f *pathFacts) keepOnly(files []*fileScan, facts []nameFacts) {
	m := make(map[pathKey]nameFacts, len(files))
	var arena []uint32
	for k, s := range files {
		nf := facts[k]
		if p := s.ref.Path; p != "" {
			ids := f.arena[nf.off : nf.off+uint32(nf.n)]
			nf.off = uint32(len(arena))
			arena = append(arena, ids...)
			m[pathKey{unsafe.StringData(p), len(p)}] = nf
		}
		facts[k] = nf
	}
	f.m, f.arena = m, arena
}

// byID maps terms' indexes (query terms or stems) to term ids: a term
// not interned is in no known name.
func (f *pathFacts) byID(index map[string]int) []int8 {
	by := make([]int8, len(f.stemOf))
	for i := range by {
		by[i] = -1
	}
	for t, i := range index {
		if id, ok := f.ids[maphash.String(f.seed, t)]; ok {
			by[id] = int8(i)
		}
	}
	return by
}

// fact returns the facts of p, learning them on a miss (f.mu held).
func (f *pathFacts) fact(p string) nameFacts {
	if p == "" {
		return nameFacts{}
	}
	key := pathKey{unsafe.StringData(p), len(p)}
	if e, ok := f.m[key]; ok {
		return e
	}
	nf := nameFacts{off: uint32(len(f.arena)), prose: isProse(p)}
	switch strings.ToLower(path.Ext(p)) {
	case ".html", ".htm":
		nf.html = true
	}
	scanTerms(pathName(p), false, nil, func(t []byte) {
		if nf.n < 1<<16-1 {
			f.arena = append(f.arena, f.internBytes(t))
			nf.n++
		}
	})
	f.m[key] = nf
	return nf
}

// internBytes is intern of a term the scanner made (no string unless
// the term is new).
func (f *pathFacts) internBytes(t []byte) uint32 {
	if id, ok := f.ids[maphash.Bytes(f.seed, t)]; ok {
		return id
	}
	return f.intern(string(t))
}

// intern returns the id of term t, learning it and its stem.
func (f *pathFacts) intern(t string) uint32 {
	h := maphash.String(f.seed, t)
	if id, ok := f.ids[h]; ok {
		return id
	}
	id := uint32(len(f.stemOf))
	f.ids[h] = id
	f.stemOf = append(f.stemOf, id)
	if s := stem(t); s != t {
		sid := f.intern(s) // may grow f.stemOf
		f.stemOf[id] = sid
	}
	return id
}

// isProseF is isProseF of the path the facts are of.
func (n nameFacts) isProseF(feat features) bool {
	return n.prose || feat.html && n.html
}

// score is q.pathScore of the path the facts are of: the weights of the
// query terms among its name's terms (each once), added in scan order.
func (pt *pathTerms) score(q *query, n nameFacts) float64 {
	s := 0.0
	seen := uint64(0)
	for _, id := range pt.arena[n.off : n.off+uint32(n.n)] {
		i := pt.byTerm[id]
		if i < 0 && pt.byStem != nil {
			i = pt.byStem[pt.stemOf[id]]
		}
		if i >= 0 && seen&(1<<i) == 0 && q.nameAllowed(int(i)) {
			seen |= 1 << i
			s += pathWeight * q.w[i]
		}
	}
	return s
}

// pathName is the name pathScore matches of p (not empty): the file name
// without its extension and the directory's name.
func pathName(p string) string {
	base := path.Base(p)
	if ext := path.Ext(base); ext != "" && len(ext) < len(base) {
		base = base[:len(base)-len(ext)]
	}
	return base + " " + path.Base(path.Dir(p))
}

// pathFacts is the engine's memo of path facts: nil unless it keeps files
// (a running server).
func (p *pipeline) pathFacts() *pathFacts {
	if p.e == nil || p.e.kept == nil {
		return nil
	}
	return p.e.kept.paths
}
