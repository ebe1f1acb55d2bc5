package pack

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The map's reference graph in compact arrays (issue 24: on a 100K-file
// tree the graph of maps — a map of weights per file, a string per
// identifier kept — held ≈ 360 MB at the pack's peak). Identifiers are
// interned (wordTab) as the walk decodes them from the index, a file's
// uses are reduced to the defined names it uses, and the arcs are
// gathered as one array of events sorted within each file's row, then
// summed into compressed rows (refGraph). The weights are the sums
// buildGraph makes, added in the same order: the same floats, so the same
// ranks, bit for bit (TestMapGraphSameAsReference).

// wordTab interns identifiers: each distinct word gets an id, in order of
// first sight.
type wordTab struct {
	ids   map[string]uint32
	words []string
	// hash, once a map has facts of a redacted file (whose words are
	// stored as keyed hashes only, mapredacted.go), is the keyed hash;
	// hashed gives each hash such facts hold an id of its own (its word
	// the hashKey of it), and resolve finds real, the id of the word of
	// each such hash among the words at hand. Words are hashed only then,
	// each once.
	hash   func(string) uint64
	hashed map[uint64]uint32
	real   map[uint64]uint32
	// scratch and scratchAt are trimIdents' buffers (a table is used by
	// one goroutine at a time, but for intern's calls, which mu orders:
	// the walk's parallel reads).
	scratch   []uint32
	scratchAt []int32
	mu        sync.Mutex
}

// newWordTab returns an empty table.
func newWordTab() *wordTab {
	return &wordTab{ids: map[string]uint32{}}
}

// id returns w's id, adding a copy of w when it is new.
func (t *wordTab) id(w string) uint32 {
	if id, ok := t.ids[w]; ok {
		return id
	}
	w = strings.Clone(w)
	id := uint32(len(t.words))
	t.ids[w] = id
	t.words = append(t.words, w)
	return id
}

// intern turns the identifiers of the facts of a text at hand (factsOf's
// strings) into their ids in t and their offsets (words, wordsAt), as
// trimIdents does for facts from the index: only those starting before
// limit (those a graph of this walk can reach; trimmed records the cut,
// so that retrim fetches them again when a graph reaches further), and
// the strings go. A first map of a 100K-file tree held them as a string
// and a mapIdent each (≈ 170 MB of its peak). The walk's reads call it
// in parallel: the ids are handed out in the order the reads end, which
// nothing that is output depends on (a graph keys its names by their
// words; a summary numbers words in order of files). Kept identifiers
// are copied at their size.
func (t *wordTab) intern(f *fileFacts, limit int) {
	k := sort.Search(len(f.ids), func(i int) bool { return f.ids[i].at >= limit })
	if k < len(f.ids) {
		f.trimmed = limit
	}
	words, at := make([]uint32, k), make([]int32, k)
	t.mu.Lock()
	for i, id := range f.ids[:k] {
		words[i], at[i] = t.id(id.w), int32(id.at)
	}
	t.mu.Unlock()
	f.words, f.wordsAt, f.ids = words, at, nil
}

// enableHash makes t take words known by their keyed hash (hash) only.
func (t *wordTab) enableHash(hash func(string) uint64) {
	if t.hash == nil {
		t.hash, t.hashed = hash, map[uint64]uint32{}
	}
}

// hid returns the id of the word known only by its keyed hash h (t takes
// them: enableHash), adding hashKey(h) when it is new.
func (t *wordTab) hid(h uint64) uint32 {
	if id, ok := t.hashed[h]; ok {
		return id
	}
	id := uint32(len(t.words))
	t.hashed[h] = id
	t.words = append(t.words, hashKey(h))
	return id
}

// resolve finds, once every word is in, the word at hand of each hash
// known alone (real); a no-op for a table without such hashes.
func (t *wordTab) resolve() {
	if t == nil || len(t.hashed) == 0 || t.real != nil {
		return
	}
	t.real = map[uint64]uint32{}
	for id, w := range t.words {
		if strings.HasPrefix(w, hashedNamePrefix) {
			continue
		}
		if h := t.hash(w); t.hasHash(h) {
			t.real[h] = uint32(id)
		}
	}
}

func (t *wordTab) hasHash(h uint64) bool {
	_, ok := t.hashed[h]
	return ok
}

// canon is the word a map's graph keys w by: the hashKey of its keyed
// hash when that hash is known alone (facts of a redacted file hold it),
// else w (nil t: w).
func (t *wordTab) canon(w string) string {
	if t == nil || len(t.hashed) == 0 {
		return w
	}
	if h := t.hash(w); t.hasHash(h) {
		return hashKey(h)
	}
	return w
}

// eachID calls fn with the ids of a graph's word w (canon's): w's, or for
// a hashKey the id of the hash and of its word at hand (resolve).
func (t *wordTab) eachID(w string, fn func(uint32)) {
	if t == nil {
		return
	}
	if id, ok := t.ids[w]; ok {
		fn(id)
		return
	}
	rest, ok := strings.CutPrefix(w, hashedNamePrefix)
	if !ok || len(rest) != 8 || len(t.hashed) == 0 {
		return
	}
	h := binary.LittleEndian.Uint64([]byte(rest))
	if id, ok := t.hashed[h]; ok {
		fn(id)
	}
	if id, ok := t.real[h]; ok {
		fn(id)
	}
}

// mapGraphMaxFiles bounds the files of a map's graph: a row's event key
// holds a file's index in 29 bits (a walk never lists that many files).
const mapGraphMaxFiles = 1 << 29

// mapGraph is the reference graph of a map (as buildGraph, graph.go): the
// files, f pointing at g when f uses a name g defines (the chunks' symbol
// names; a name defined in more than graphMaxDefiners files is left out),
// with a back arc of graphBackWeight. A file's uses are the identifiers
// starting in its first mapScanBytes/files bytes (at least mapScanMin, at
// most mapIdentCap), scanned whole: on Go's src (≈ 10,000 files) a whole
// scan added half to a warm pack. tab holds the interned identifiers of
// the files whose facts trimIdents decoded (nil: none). nil when there
// are fewer than two files or no name worth following.
func mapGraph(files []mapFile, tab *wordTab) *refGraph {
	n := len(files)
	if n < 2 || n >= mapGraphMaxFiles {
		return nil
	}
	limit := mapScanLimit(n)
	d := mapDefiners(files, tab)
	if d.files.n() <= 0 {
		return nil
	}
	refs := rows{start: make([]int, n+1)}
	paths := make([]string, n)
	for f := range files {
		paths[f] = files[f].path
		refs.at = d.appendRefs(refs.at, &files[f], limit)
		refs.start[f+1] = len(refs.at)
	}
	g := &refGraph{files: paths}
	g.start, g.to, g.w = arcRows(refs, d.files)
	return g
}

// rows are lists of int32 in one array (a list a slice was, on a
// 100K-file tree, millions of small allocations): row i is
// at[start[i]:start[i+1]].
type rows struct {
	start []int
	at    []int32
}

// n is the number of rows.
func (r *rows) n() int { return len(r.start) - 1 }

// row returns row i.
func (r *rows) row(i int) []int32 { return r.at[r.start[i]:r.start[i+1]:r.start[i+1]] }

// add appends a row.
func (r *rows) add(row []int32) {
	if r.start == nil {
		r.start = []int{0}
	}
	r.at = append(r.at, row...)
	r.start = append(r.start, len(r.at))
}

// definers are the names a map's graph follows: each name (an identifier
// of at least graphMinName bytes in the files' symbol names, defined in
// at most graphMaxDefiners files) has an index; files[k] are the files
// defining name k, in order (row k). byName gives each identifier of the names
// a slot, kept its index there (-1: defined too often); byWord gives the
// index by id in the walk's wordTab (-1: none).
type definers struct {
	files  rows
	byName map[string]int32
	kept   []int32
	byWord []int32
	tab    *wordTab // canon: how a word is keyed in byName
}

// mapDefiners gathers the definers of the files' names (as graphDefiners,
// graph.go: each file once per name, in order).
func mapDefiners(files []mapFile, tab *wordTab) *definers {
	tab.resolve()
	d := &definers{byName: map[string]int32{}, tab: tab}
	ks := nameKeys{d: d}
	if tab != nil && len(tab.hashed) > 0 {
		ks.raw = map[string]int32{}
	}
	for f, mf := range files {
		for _, name := range mf.names {
			if plainName(name) {
				// One word, the name itself: nothing to split.
				if len(name) >= graphMinName {
					ks.all[ks.key(name)].add(int32(f))
				}
				continue
			}
			nameWords(name, keepWord, func(w string) { ks.all[ks.key(w)].add(int32(f)) })
		}
	}
	d.kept = make([]int32, len(ks.all))
	d.files.start = []int{0}
	if tab != nil {
		d.byWord = make([]int32, len(tab.words))
		for i := range d.byWord {
			d.byWord[i] = -1
		}
	}
	for k := range ks.all {
		d.kept[k] = -1
		if fs := ks.all[k].files(); fs != nil {
			d.kept[k] = int32(d.files.n())
			d.files.add(fs)
			tab.eachID(ks.words[k], func(id uint32) { d.byWord[id] = d.kept[k] })
		}
	}
	return d
}

// keepWord is nameWords' canon when the caller canons words itself.
func keepWord(w string) string { return w }

// nameKeys gives the words of symbol names their index in mapDefiners:
// all[k] are the definers of name k, words[k] its word as the graph keys
// it (canon). raw, when the table knows words by keyed hash only, maps a
// word as the name holds it to its index, so that each distinct word is
// hashed once (canon), not each time a name holds it.
type nameKeys struct {
	d     *definers
	raw   map[string]int32
	all   []nameDefs
	words []string
}

// key returns the index of the word w of a name (nameWords' with
// keepWord: a hashed word as it is, an identifier not yet canon'd).
func (ks *nameKeys) key(w string) int32 {
	if ks.raw == nil {
		return ks.index(w)
	}
	if k, ok := ks.raw[w]; ok {
		return k
	}
	c := w
	if !strings.HasPrefix(w, hashedNamePrefix) {
		c = ks.d.tab.canon(w)
	}
	k := ks.index(c)
	ks.raw[w] = k
	return k
}

// index returns the index of the graph's word w, adding it when new.
func (ks *nameKeys) index(w string) int32 {
	k, ok := ks.d.byName[w]
	if !ok {
		k = int32(len(ks.all))
		ks.d.byName[w] = k
		ks.all, ks.words = append(ks.all, nameDefs{}), append(ks.words, w)
	}
	return k
}

// plainName reports whether name is one identifier as identifiers cuts
// them (a letter or '_', then letters, digits or '_'): its only word is
// itself. A hashed name (mapredacted.go) is not.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	if c := name[0]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
		return false
	}
	for i := 1; i < len(name); i++ {
		if !asciiWord(name[i]) {
			return false
		}
	}
	return true
}

// nameDefs are the files defining a name, in order, while mapDefiners
// gathers them: up to graphMaxDefiners of them, then only that there are
// more (n past it). No pointer and no slice a name: a tree's names are
// millions, and a common one was a long list scanned on every add.
type nameDefs struct {
	n int32
	f [graphMaxDefiners]int32
}

// add notes file f, which no file before it in the walk's order follows
// (mapDefiners visits files in rising order): a repeat of the last file
// is no new definer.
func (nd *nameDefs) add(f int32) {
	switch {
	case nd.n > graphMaxDefiners:
	case nd.n > 0 && nd.f[nd.n-1] == f:
	case nd.n == graphMaxDefiners:
		nd.n++ // too common: its files no longer matter
	default:
		nd.f[nd.n] = f
		nd.n++
	}
}

// files returns the definers (in nd's array), nil when there are more
// than graphMaxDefiners (or none).
func (nd *nameDefs) files() []int32 {
	if nd.n == 0 || nd.n > graphMaxDefiners {
		return nil
	}
	return nd.f[:nd.n:nd.n]
}

// appendRefs appends to out the indexes of the names mf uses before
// limit, in order of their first use: from its facts (interned, or as
// strings for a text cut before) or from a scan of its parts.
func (d *definers) appendRefs(out []int32, mf *mapFile, limit int) []int32 {
	if f := mf.facts; f != nil && f.words != nil {
		for k, w := range f.words {
			if int(f.wordsAt[k]) >= limit {
				break // in order of offset
			}
			if x := d.byWord[w]; x >= 0 {
				out = append(out, x)
			}
		}
		return out
	}
	var uses []mapIdent
	if mf.facts != nil {
		uses = mf.facts.ids
	} else {
		uses = fileIdents(mf.parts, limit)
	}
	for _, u := range uses {
		if u.at >= limit {
			break // in order of offset
		}
		if k, ok := d.byName[d.tab.canon(u.w)]; ok && d.kept[k] >= 0 {
			out = append(out, d.kept[k])
		}
	}
	return out
}

// arcRows turns the files' uses of defined names (refs: per file the
// names it uses, in order; definers: per name its files) into the
// graph's rows (refGraph): for each use of a name, a share 1/(its
// definers) to every other definer and graphBackWeight of it back. The
// shares of each arc are added in the order the files and their uses
// come (the order of buildGraph's sums), then each row is divided by its
// sum taken in order of target (normalArcs).
//
// The rows are made one at a time (a 100K-file tree's ≈ 10 M shares,
// sorted at once, were 80 MB): a row's shares are its file's own uses
// (to each other definer) and the uses of the names it defines by other
// files (back), found through the uses of each name (users). Each use
// has a number, its place among all uses in order (files, then their
// uses); a row's shares sorted by target, then by that number, are each
// arc's shares in the order a walk of the files and their uses adds
// them: one use gives a row at most one share per target.
func arcRows(refs, definers rows) (start []int, to []int32, w []float64) {
	n := refs.n()
	if len(refs.at) >= 1<<31 {
		return make([]int, n+1), nil, nil // beyond any walk (use numbers are int32)
	}
	ar := newArcMaker(refs, definers)
	start = make([]int, n+1)
	mark := make([]int32, n)
	for i := range mark {
		mark[i] = -1
	}
	var row []uint64
	for r := range n {
		row = ar.appendRow(row[:0], int32(r))
		k := 0
		for _, e := range row {
			if t := int32(e >> 35); mark[t] != int32(r) {
				mark[t] = int32(r)
				k++
			}
		}
		start[r+1] = start[r] + k
	}
	mark = nil
	to, w = make([]int32, start[n]), make([]float64, start[n])
	for r := range n {
		row = ar.appendRow(row[:0], int32(r))
		slices.Sort(row)
		sumRow(row, to[start[r]:start[r+1]], w[start[r]:start[r+1]])
	}
	return start, to, w
}

// arcMaker makes the shares of one row of arcRows: refs and definers as
// given, the uses of each name (users: use numbers, rising; userFile:
// the file of each, beside it) and the names each file defines
// (defines).
type arcMaker struct {
	refs, definers rows
	users, defines rows
	userFile       []int32
}

// newArcMaker indexes refs and definers for arcRows.
func newArcMaker(refs, definers rows) *arcMaker {
	n, names := refs.n(), definers.n()
	ar := &arcMaker{refs: refs, definers: definers, userFile: make([]int32, len(refs.at))}
	ar.users = rows{start: make([]int, names+1), at: make([]int32, len(refs.at))}
	for _, k := range refs.at {
		ar.users.start[k+1]++
	}
	ar.defines = rows{start: make([]int, n+1), at: make([]int32, len(definers.at))}
	for _, g := range definers.at {
		ar.defines.start[g+1]++
	}
	cumulate(ar.users.start)
	cumulate(ar.defines.start)
	fill := slices.Clone(ar.users.start[:names])
	for f := range n {
		for u := refs.start[f]; u < refs.start[f+1]; u++ {
			k := refs.at[u]
			ar.users.at[fill[k]], ar.userFile[fill[k]] = int32(u), int32(f)
			fill[k]++
		}
	}
	fill = slices.Clone(ar.defines.start[:n])
	for k := range names {
		for _, g := range definers.row(k) {
			ar.defines.at[fill[g]] = int32(k)
			fill[g]++
		}
	}
	return ar
}

// cumulate turns counts (c[i+1]: the count of i) into starts.
func cumulate(c []int) {
	for i := 1; i < len(c); i++ {
		c[i] += c[i-1]
	}
}

// appendRow appends to row the shares of row r as arcRows sorts them:
// the target (from bit 35), the use's number (from bit 3), whether it is
// a back share (bit 2) and the definers of its name less one (bits 0-1).
func (ar *arcMaker) appendRow(row []uint64, r int32) []uint64 {
	for u := ar.refs.start[r]; u < ar.refs.start[r+1]; u++ {
		d := ar.definers.row(int(ar.refs.at[u]))
		for _, g := range d {
			if g != r {
				row = append(row, uint64(g)<<35|uint64(u)<<3|uint64(len(d)-1))
			}
		}
	}
	for _, k := range ar.defines.row(int(r)) {
		d := uint64(ar.definers.start[k+1] - ar.definers.start[k] - 1)
		lo, hi := ar.users.start[k], ar.users.start[k+1]
		for i, u := range ar.users.at[lo:hi] {
			if f := ar.userFile[lo+i]; f != r {
				row = append(row, uint64(f)<<35|uint64(u)<<3|4|d)
			}
		}
	}
	return row
}

// sumRow sums a sorted row of events into its arcs (to, w: one per
// target), then divides them by their sum.
func sumRow(row []uint64, to []int32, w []float64) {
	k := -1
	for i, e := range row {
		if i == 0 || e>>35 != row[i-1]>>35 {
			k++
			to[k] = int32(e >> 35)
		}
		share := 1 / float64(e&3+1)
		if e&4 != 0 {
			share = graphBackWeight * share
		}
		w[k] += share
	}
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	for k := range w {
		w[k] /= sum
	}
}
