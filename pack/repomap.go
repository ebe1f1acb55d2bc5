package pack

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// A pack with no query is a map of the repository (docs/ranking.md
// "No query: a repository map"): with no task to rank by, the walked
// files are ranked by their centrality in the reference graph (plain
// PageRank, graph.go), the outlines of the most central files come first
// and whole chunks of the most central files fill what is left.
const (
	// featMap is the ablation (Engine.Ablate) that switches the map off
	// (files then rank by path, as before the map).
	featMap = "map"
	// mapChunkShare is the relevance of a whole chunk of the most central
	// file; an outline of a file ranks at mapChunkShare + that file's
	// share, so every map outline ranks above every whole chunk.
	mapChunkShare = 0.5
	// The map's outlines may take 1/mapOutlineShare of the available
	// budget (the first one more); whole chunks fill the rest.
	mapOutlineShare = 2
	// mapScanBytes bounds the text a map's graph scans for uses, shared
	// out between the files, each scanned from its start (imports and
	// top-level declarations first) for at least mapScanMin bytes: on
	// Go's src (≈ 10,000 files) a whole scan added half to a warm pack.
	mapScanBytes = 8 << 20
	mapScanMin   = 1 << 10
	// mapMaxParses bounds the files a map parses for outlines.
	mapMaxParses = 12
	// mapOutlineFiles is how many files' outlines a map's share is cut
	// for: each outline keeps its first declarations up to 1/mapOutlineFiles
	// of the share (the most central file twice that), so a map shows
	// many files' shapes rather than one file's every signature.
	mapOutlineFiles = 8
	// mapMinRoom is the least share (tokens) worth parsing one more
	// file's outline for.
	mapMinRoom = 64
	// mapWarning tells the caller the pack is a map, not an answer.
	mapWarning = "no query: packed a map of the repository (central files first); give --query for a pack about a task"
)

// repoMap is the centrality of each file of a no-query pack (1 for the
// most central), and the files in map order.
type repoMap struct {
	central map[string]float64
	order   []string
}

// wantsMap reports whether the request is a map: files are walked, there
// is no query term, no search and no source with a relevance of its own,
// and the map is not ablated.
func (p *pipeline) wantsMap(srcs []source) bool {
	if len(queryTerms(p.req.Query)) > 0 || p.req.Search != nil || (len(p.req.Paths) == 0 && len(p.req.Include) == 0) {
		return false
	}
	for _, a := range p.e.Ablate {
		if a == featMap {
			return false
		}
	}
	for _, s := range srcs {
		if s.Relevance != nil {
			return false
		}
	}
	return true
}

// newRepoMap ranks the files of items by plain PageRank (a uniform
// restart) over their reference graph (mapGraph), scaled so that the most
// central file has 1 and the least 0 (a graph where every file ranks
// alike, or no graph at all, gives every file 0: path order, and no map
// outline); ties fall back to path order. ids holds the identifiers of
// the files whose text is not at hand (a map answered from the index,
// mapindex.go); the others' are taken from their items. nil when there
// are no files.
func newRepoMap(items []*budget.Item, ids map[string]*fileFacts) *repoMap {
	return newRepoMapOf(mapFilesOf(items, ids), nil)
}

// mapFile is what a map needs of one file: its path, the symbol names of
// its chunks (in order), and its uses — known (the facts of a file not
// read: identifiers from the index, interned by trimIdents, or of a text
// cut before) or the texts of its chunks to scan (parts).
type mapFile struct {
	path  string
	names []string
	facts *fileFacts
	parts []string
}

// mapFilesOf gathers the files of items in order of first item (see
// newRepoMap for ids).
func mapFilesOf(items []*budget.Item, ids map[string]*fileFacts) []mapFile {
	var files []mapFile
	at := map[string]int{}
	for _, it := range items {
		if it.Path == "" {
			continue
		}
		files = addMapChunk(files, at, ids, it.Path, it.Name, it.Content)
	}
	return files
}

// addMapChunk adds a chunk of path (its symbol name and text) to files,
// the file's index in files kept in at.
func addMapChunk(files []mapFile, at map[string]int, ids map[string]*fileFacts, path, name, content string) []mapFile {
	i, ok := at[path]
	if !ok {
		i = len(files)
		at[path] = i
		files = append(files, mapFile{path: path, facts: ids[path]})
	}
	f := &files[i]
	if name != "" {
		f.names = append(f.names, name)
	}
	if f.facts == nil {
		f.parts = append(f.parts, content)
	}
	return files
}

// newRepoMapOf is newRepoMap over the files of a map; tab interned the
// identifiers of files (nil: none are).
func newRepoMapOf(files []mapFile, tab *wordTab) *repoMap {
	paths := make([]string, len(files))
	for i := range files {
		paths[i] = files[i].path
	}
	return repoMapOf(centralOf(mapGraph(files, tab), paths))
}

// centralOf is the centrality of each of paths by plain PageRank over g
// (nil: none; every file 0), scaled so that the most central file has 1
// and the least 0.
func centralOf(g *refGraph, paths []string) map[string]float64 {
	central := make(map[string]float64, len(paths))
	if g != nil {
		n := len(g.files)
		pers := make([]float64, n)
		for i := range pers {
			pers[i] = 1 / float64(n)
		}
		rank := g.pagerank(pers)
		lo, hi := math.Inf(1), 0.0
		for _, r := range rank {
			lo, hi = min(lo, r), max(hi, r)
		}
		for i, r := range rank {
			c := 0.0
			if hi > lo {
				// Rounded so that near-equal ranks tie and fall back to path order.
				c = math.Round((r-lo)/(hi-lo)*1e3) / 1e3
			}
			central[g.files[i]] = c
		}
	}
	for _, p := range paths {
		if _, ok := central[p]; !ok {
			central[p] = 0
		}
	}
	return central
}

// repoMapOf is the map of files of the given centrality: most central
// first, then by path; nil when there are no files.
func repoMapOf(central map[string]float64) *repoMap {
	m := &repoMap{central: central}
	// Most central first, then by path (paths differ: one order).
	type ranked struct {
		path string
		c    float64
	}
	all := make([]ranked, 0, len(m.central))
	for path, c := range m.central {
		all = append(all, ranked{path, c})
	}
	slices.SortFunc(all, func(x, y ranked) int {
		if x.c != y.c {
			return cmp.Compare(y.c, x.c)
		}
		return strings.Compare(x.path, y.path)
	})
	m.order = make([]string, len(all))
	for i, r := range all {
		m.order[i] = r.path
	}
	if len(m.order) == 0 {
		return nil
	}
	return m
}

// mapIdentCap bounds the text of one file whose identifiers a map's graph
// scans (and the index keeps for it): the share of mapScanBytes a file
// gets exceeds it only in trees of fewer than 32 files.
const mapIdentCap = 256 << 10

// mapIdent is an identifier a file uses and the byte offset where it
// first starts.
type mapIdent struct {
	w  string
	at int
}

// fileIdents returns the distinct identifiers of at least graphMinName
// bytes that start in the first limit bytes of the text made of parts (a
// file's chunks in order; no identifier crosses a chunk's end), each with
// the offset of its first start, in that order.
func fileIdents(parts []string, limit int) []mapIdent {
	var out []mapIdent
	seen := map[string]bool{}
	off := 0
	for _, part := range parts {
		if off >= limit {
			break
		}
		base := off
		identifiersAt(part, limit-base, func(w string, at int) {
			if len(w) >= graphMinName && !seen[w] {
				w = strings.Clone(w) // kept past the text (mapindex.go)
				seen[w] = true
				out = append(out, mapIdent{w: w, at: base + at})
			}
		})
		off += len(part)
	}
	return out
}

// mapScanLimit is how far into each of n files (n ≥ 1) a map's graph
// scans for uses: mapScanBytes shared out, at least mapScanMin, at most
// mapIdentCap; it never rises with n.
func mapScanLimit(n int) int {
	return min(mapIdentCap, max(mapScanMin, mapScanBytes/n))
}

// normalArcs turns out's weights into each file's arcs in order of target,
// their weights summing to 1 (maps iterate randomly; sums must not). It
// lets go of each map of out once turned (on a 100K-file tree the maps
// and the arcs are 114 and 82 MB: they need not be live at once).
func normalArcs(out []map[int]float64) [][]arc {
	arcs := make([][]arc, len(out))
	for f := range out {
		if len(out[f]) > 0 {
			arcs[f] = make([]arc, 0, len(out[f]))
		}
		for g, w := range out[f] {
			arcs[f] = append(arcs[f], arc{g, w})
		}
		out[f] = nil
		sort.Slice(arcs[f], func(a, b int) bool { return arcs[f][a].to < arcs[f][b].to })
		sum := 0.0
		for _, a := range arcs[f] {
			sum += a.w
		}
		for k := range arcs[f] {
			arcs[f][k].w /= sum
		}
	}
	return arcs
}

// relevance is the map's relevance of a whole chunk of path.
func (m *repoMap) relevance(path string) float64 {
	return mapChunkShare * m.central[path]
}

// mapOutlines returns the outline items of the most central files (those
// above the least central), in map
// order, ranked above every whole chunk, within 1/mapOutlineShare of the
// available budget (estimated; the first outline may take up to all of
// it) and at most mapMaxParses parses (each is a tree-sitter parse on the
// pack's serial path; a map asks selection for no other outline). cands
// are the ranked candidates (one of each file gives the outline its
// category, type and source).
func (p *pipeline) mapOutlines(cands []*budget.Item, f *formatter) []*budget.Item {
	if p.ablated(featOutline) {
		return nil
	}
	first := firstOfFile(cands)
	w := p.e.cfg.Context.Ranking
	room := p.alloc.Available / mapOutlineShare
	share := room
	var out []*budget.Item
	unread := 0 // files this round would parse but has not read
	for _, path := range p.repoMap.order {
		if p.repoMap.central[path] <= 0 || room < mapMinRoom || p.ctx.Err() != nil {
			break // the rest are the least central (or there is no graph), or the share is spent
		}
		best := first[path]
		if best == nil {
			continue
		}
		if len(p.parsed)+unread >= mapMaxParses {
			break
		}
		if p.needText(best.Source) {
			unread++ // not read: the next round reads it (mapindex.go)
			continue
		}
		rs := p.outlineOf(best)
		if len(rs) == 0 {
			continue
		}
		rel := mapChunkShare + (1-mapChunkShare)*p.repoMap.central[path]
		score := w.RelevanceWeight*rel + w.SourceWeight*float64(best.Priority)/100
		score = math.Round(min(1, max(0, score))*1e4) / 1e4
		items, cost := p.cappedOutline(best, rs, score, f, outlineCap(len(out) == 0, share))
		if len(items) == 0 || cost > room {
			continue // a smaller outline further down may still fit
		}
		room -= cost
		out = append(out, items...)
	}
	return out
}

// ablated reports whether the engine's ablations leave out feature.
func (p *pipeline) ablated(feature string) bool {
	for _, a := range p.e.Ablate {
		if a == feature {
			return true
		}
	}
	return false
}

// firstOfFile maps each path of cands to its first (highest ranked) item.
func firstOfFile(cands []*budget.Item) map[string]*budget.Item {
	first := map[string]*budget.Item{}
	for _, it := range cands {
		if it.Path != "" && first[it.Path] == nil {
			first[it.Path] = it
		}
	}
	return first
}

// outlineCap is the most tokens one file's outline may take of a map's
// outline share: 1/mapOutlineFiles of it, twice that for the first (most
// central) file.
func outlineCap(first bool, share int64) int64 {
	c := share / mapOutlineFiles
	if first {
		c *= 2
	}
	return max(c, mapMinRoom)
}

// cappedOutline turns best's outline ranges rs into outline items, in
// file order, while their cost (text and overhead) stays within limit;
// it returns them and their cost.
func (p *pipeline) cappedOutline(best *budget.Item, rs []chunker.LineRange, score float64, f *formatter, limit int64) ([]*budget.Item, int64) {
	var items []*budget.Item
	cost := int64(0)
	for k, r := range rs {
		it := *best
		it.StartLine, it.EndLine = r.Start, r.End
		it.Content = best.Source.Slice(r.Start, r.End)
		it.Tokens = p.tok.Count(it.Content)
		it.Kind, it.Name, it.Outline, it.Score = "outline", "", true, score
		c := int64(it.Tokens + f.overhead(&it, k == 0))
		if cost+c > limit {
			break
		}
		cost += c
		items = append(items, &it)
	}
	return items, cost
}
