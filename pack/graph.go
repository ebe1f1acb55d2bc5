package pack

import (
	"sort"

	"github.com/acode-lsp/acode-lsp/budget"
)

// File choice from structure (docs/ranking.md "Reference graph"): the
// files of a pack's candidate chunks form a graph — file f points at file
// g when f's text uses a name g defines (the chunker's symbol names, cut
// from tree-sitter's declarations) — and a personalised PageRank seeded by
// the files the lexical ranking likes best raises the files those lean on
// and the files that lean on them. Computed per pack over the candidate
// chunks only: its cost is one identifier scan of text already in memory.
const (
	featGraph = "graph"

	// graphSeeds are the best lexically ranked files the walk restarts at.
	graphSeeds = 5
	// graphDamping is PageRank's damping; graphIterations its rounds.
	graphDamping    = 0.85
	graphIterations = 20
	// graphBackWeight is the weight of an edge from a definer back to its
	// user (callers of the seeds' names matter too, less).
	graphBackWeight = 0.3
	// graphMaxDefiners: a name defined in more files is too common to
	// point anywhere.
	graphMaxDefiners = 4
	// graphMinName: shorter names are left out.
	graphMinName = 4
	// graphWeight scales a file's gain: its rank over the best non-seed
	// rank, at most 1.
	graphWeight = 0.3
)

// refGraph is the definition/reference graph of a set of chunks' files,
// its arcs in compressed rows: file f's out-arcs are to[start[f]:start[f+1]]
// in rising order of target, with weights w (same range) summing to 1
// (none: dangling). idx, when set, maps a path to its file.
type refGraph struct {
	files []string
	idx   map[string]int
	start []int
	to    []int32
	w     []float64
}

// buildGraph builds the reference graph of the files of items: f points
// at g when f's text uses a name g defines (with a back arc of
// graphBackWeight); nil when there are fewer than two files or no name
// worth following.
// perFile, when above 0, bounds the text scanned for uses in each file (its
// chunks in order until that many bytes): the cost of a graph of a large
// tree stays bounded.
func buildGraph(items []*budget.Item, perFile int) *refGraph {
	files, fileIdx := graphFiles(items)
	n := len(files)
	if n < 2 {
		return nil
	}
	definers := graphDefiners(items, fileIdx)
	if len(definers) == 0 {
		return nil
	}
	g := &refGraph{files: files, idx: fileIdx}
	g.setRows(normalArcs(graphUses(items, fileIdx, definers, perFile)))
	return g
}

// arc is an out-arc of a file while a graph is built: its target and
// weight.
type arc struct {
	to int
	w  float64
}

// setRows stores arcs (per file, in order of target) as g's rows.
func (g *refGraph) setRows(arcs [][]arc) {
	g.start = make([]int, len(arcs)+1)
	for f, a := range arcs {
		g.start[f+1] = g.start[f] + len(a)
	}
	g.to, g.w = make([]int32, g.start[len(arcs)]), make([]float64, g.start[len(arcs)])
	for f, a := range arcs {
		for k, x := range a {
			g.to[g.start[f]+k], g.w[g.start[f]+k] = int32(x.to), x.w
		}
	}
}

// arcs returns how many arcs g has.
func (g *refGraph) arcs() int { return len(g.to) }

// graphFiles lists the files of items in order of first appearance.
func graphFiles(items []*budget.Item) ([]string, map[string]int) {
	fileIdx := map[string]int{}
	var files []string
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		if _, ok := fileIdx[it.Path]; !ok {
			fileIdx[it.Path] = len(files)
			files = append(files, it.Path)
		}
	}
	return files, fileIdx
}

// graphDefiners maps each identifier of the chunks' symbol names (at
// least graphMinName long) to the files defining it, leaving out names
// defined in more than graphMaxDefiners files.
func graphDefiners(items []*budget.Item, fileIdx map[string]int) map[string][]int {
	definers := map[string][]int{}
	for _, it := range items {
		if it.Name == "" || it.Path == "" {
			continue
		}
		addDefiner(definers, it.Name, fileIdx[it.Path])
	}
	dropCommonNames(definers)
	return definers
}

// addDefiner notes file f as a definer of each identifier of the symbol
// name (at least graphMinName long), once per file.
func addDefiner(definers map[string][]int, name string, f int) {
	identifiers(name, func(w string) {
		if len(w) < graphMinName {
			return
		}
		d := definers[w]
		if len(d) > 0 && d[len(d)-1] == f {
			return // the common case: another name of the same file
		}
		for _, x := range d {
			if x == f {
				return
			}
		}
		definers[w] = append(d, f)
	})
}

// dropCommonNames leaves out of definers the names defined in more than
// graphMaxDefiners files: they say nothing of which file is meant.
func dropCommonNames(definers map[string][]int) {
	for w, d := range definers {
		if len(d) > graphMaxDefiners {
			delete(definers, w)
		}
	}
}

// graphUses weighs the edges: f → g gains 1/(definers of w) for each name
// w that f's text uses and g defines (each name once per file), g → f
// graphBackWeight of that. perFile > 0 bounds the text scanned per file.
// The weights are added in the order of items and of their words, as
// they come, whatever the lookups below.
func graphUses(items []*budget.Item, fileIdx map[string]int, definers map[string][]int, perFile int) []map[int]float64 {
	n := len(fileIdx)
	out := make([]map[int]float64, n)
	for i := range out {
		out[i] = map[int]float64{}
	}
	names := newNameTable(definers)
	// A name is used once per file: when each file's chunks come
	// together (the chunker's order), the last file that used a name
	// tells; else a set of names per file does.
	together := filesTogether(items)
	lastUser := make([]int32, len(names.names)) // file + 1
	var used []map[int32]bool
	if !together {
		used = make([]map[int32]bool, n)
		for i := range used {
			used[i] = map[int32]bool{}
		}
	}
	scanned := make([]int, n)
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		f := fileIdx[it.Path]
		text := it.Content
		if perFile > 0 {
			if scanned[f] >= perFile {
				continue
			}
			if len(text) > perFile-scanned[f] {
				text = text[:perFile-scanned[f]]
			}
			scanned[f] += len(text)
		}
		graphWords(text, func(w string) {
			id := names.find(w)
			if id < 0 {
				return // most words name nothing
			}
			if together {
				if lastUser[id] == int32(f+1) {
					return
				}
				lastUser[id] = int32(f + 1)
			} else {
				if used[f][id] {
					return
				}
				used[f][id] = true
			}
			d := names.defs[id]
			for _, g := range d {
				if g == f {
					continue
				}
				share := 1 / float64(len(d))
				out[f][g] += share
				out[g][f] += graphBackWeight * share
			}
		})
	}
	return out
}

// filesTogether reports whether the chunks of each file (with a path)
// come one after another in items.
func filesTogether(items []*budget.Item) bool {
	done := map[string]bool{}
	last := ""
	for _, it := range items {
		if it.Path == "" || it.Path == last {
			continue
		}
		if done[it.Path] {
			return false
		}
		done[it.Path] = true
		last = it.Path
	}
	return true
}

// nameTable finds the definers' names (at least graphMinName bytes each)
// by an open-addressed table over a cheap hash of a word (its length and
// two leading and two trailing bytes): most words of a text are no name,
// and most of those meet an empty slot at once, before any string
// hashing or comparison.
type nameTable struct {
	slots []int32 // a name's id + 1; 0: empty
	names []string
	defs  [][]int // the definers of each name, by id
	shift uint
}

// newNameTable indexes definers' names, with at least 4 slots a name.
func newNameTable(definers map[string][]int) nameTable {
	size := uint(10)
	for 1<<size < 4*len(definers) {
		size++
	}
	t := nameTable{slots: make([]int32, 1<<size), names: make([]string, 0, len(definers)),
		defs: make([][]int, 0, len(definers)), shift: 32 - size}
	mask := uint32(len(t.slots) - 1)
	for w, d := range definers {
		if len(w) < graphMinName {
			continue // graphWords gives no shorter word
		}
		t.names, t.defs = append(t.names, w), append(t.defs, d)
		h := t.slot(w)
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = int32(len(t.names))
	}
	return t
}

// slot is w's home slot (len(w) ≥ graphMinName).
func (t *nameTable) slot(w string) uint32 {
	n := len(w)
	x := uint32(w[0]) | uint32(w[1])<<8 | uint32(w[n-2])<<16 | uint32(w[n-1])<<24
	return ((x ^ uint32(n)*0x85ebca6b) * 0x9e3779b1) >> t.shift
}

// find returns the id of the name w, or -1 when w is no name.
func (t *nameTable) find(w string) int32 {
	if len(w) < graphMinName {
		return -1
	}
	mask := uint32(len(t.slots) - 1)
	for h := t.slot(w); ; h = (h + 1) & mask {
		id := t.slots[h]
		if id == 0 {
			return -1
		}
		if t.names[id-1] == w {
			return id - 1
		}
	}
}

// pagerank runs graphIterations rounds of PageRank restarting at pers (a
// distribution over the files); a dangling file's rank restarts too.
func (g *refGraph) pagerank(pers []float64) []float64 {
	n := len(g.files)
	rank := append([]float64(nil), pers...)
	next := make([]float64, n)
	for range graphIterations {
		dangling := 0.0
		for i := range next {
			next[i] = 0
		}
		for f, r := range rank {
			lo, hi := g.start[f], g.start[f+1]
			if lo == hi {
				dangling += r
				continue
			}
			for k := lo; k < hi; k++ {
				next[g.to[k]] += graphDamping * r * g.w[k]
			}
		}
		for i := range next {
			next[i] += (1-graphDamping)*pers[i] + graphDamping*dangling*pers[i]
		}
		rank, next = next, rank
	}
	return rank
}

// graphFactors returns, by path, 1 + graphWeight × a file's personalised
// PageRank relative to the best file outside the seeds (capped at 1) for
// the files the walk reaches; fileBest holds the files' lexical scores.
func graphFactors(items []*budget.Item, fileBest map[string]float64, weight float64) map[string]float64 {
	return graphFactorsOf(memoGraph(items), fileBest, weight)
}

// graphFactorsOf is graphFactors on the graph g of the items
// (memoGraph(items), perhaps built ahead: graphAhead).
func graphFactorsOf(g *refGraph, fileBest map[string]float64, weight float64) map[string]float64 {
	gr := graphRanksOf(g, fileBest)
	if gr == nil {
		return nil
	}
	res := map[string]float64{}
	for i, r := range gr.rank {
		if r > 0 {
			res[gr.files[i]] = 1 + weight*min(1, r/gr.best)
		}
	}
	return res
}

// graphRank is the outcome of the personalised PageRank over a pack's
// reference graph: each file's rank, whether it is a seed, and the best
// rank of a file that is not.
type graphRank struct {
	files  []string
	rank   []float64
	isSeed []bool
	best   float64
}

// graphRanks runs the personalised PageRank over the reference graph of
// items, seeded by the graphSeeds best files of fileBest; nil when there
// is no graph, no seed or no file beyond the seeds is reached.
func graphRanks(items []*budget.Item, fileBest map[string]float64) *graphRank {
	return graphRanksOf(memoGraph(items), fileBest) // graphmemo.go: buildGraph(items, 0), kept for the same chunks
}

// graphRanksOf is graphRanks on the graph g of the items.
func graphRanksOf(g *refGraph, fileBest map[string]float64) *graphRank {
	if g == nil {
		return nil
	}
	files, fileIdx, n := g.files, g.idx, len(g.files)
	// Seeds: the best files by lexical score.
	type fs struct {
		i int
		s float64
	}
	var seeds []fs
	for p, s := range fileBest {
		if i, ok := fileIdx[p]; ok && s > 0 {
			seeds = append(seeds, fs{i, s})
		}
	}
	sort.Slice(seeds, func(a, b int) bool {
		if seeds[a].s != seeds[b].s {
			return seeds[a].s > seeds[b].s
		}
		return files[seeds[a].i] < files[seeds[b].i]
	})
	if len(seeds) > graphSeeds {
		seeds = seeds[:graphSeeds]
	}
	if len(seeds) == 0 {
		return nil
	}
	pers := make([]float64, n)
	tot := 0.0
	for _, s := range seeds {
		tot += s.s
	}
	isSeed := make([]bool, n)
	for _, s := range seeds {
		pers[s.i] = s.s / tot
		isSeed[s.i] = true
	}
	rank := g.pagerank(pers)
	best := 0.0
	for i, r := range rank {
		if !isSeed[i] {
			best = max(best, r)
		}
	}
	if best <= 0 {
		return nil
	}
	return &graphRank{files: files, rank: rank, isSeed: isSeed, best: best}
}

// identifiers calls fn with each identifier of text (a letter or '_'
// followed by letters, digits and '_'; ASCII only).
func identifiers(text string, fn func(string)) {
	identifiersMin(text, 1, fn)
}

// identByte classifies bytes for the identifier scans: identStart (a
// letter or '_', which starts and continues an identifier), identDigit
// (continues one), 0 (neither).
var identByte = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t[c] = identStart
		case '0' <= c && c <= '9':
			t[c] = identDigit
		}
	}
	return t
}()

const (
	identDigit = 1
	identStart = 2
)

// identifiersMin calls fn with each identifier of text at least min
// bytes long (graphWords' scan: the shorter ones make no call).
func identifiersMin(text string, min int, fn func(string)) {
	i := 0
	for i < len(text) {
		if identByte[text[i]] != identStart {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && identByte[text[j]] != 0 {
			j++
		}
		if j-i >= min {
			fn(text[i:j])
		}
		i = j
	}
}

// identifiersAt calls fn with each identifier of text that starts before
// limit, and its offset in text.
func identifiersAt(text string, limit int, fn func(w string, at int)) {
	i := 0
	for i < len(text) && i < limit {
		if identByte[text[i]] != identStart {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && identByte[text[j]] != 0 {
			j++
		}
		fn(text[i:j], i)
		i = j
	}
}
