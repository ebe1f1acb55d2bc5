package pack

import (
	"fmt"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
)

// A map is file-first (issue 24; docs/ranking.md "No query: a repository
// map"): every chunk of a file ranks alike (the file's centrality), the
// outlines come from the most central files and whole chunks fill what is
// left in map order. Only the files the budget can reach need to be
// candidates at all; when a tree has more chunks than MaxCandidates, a map
// keeps the chunks of its most central files only — in map order, until
// their tokens pass mapCutReach times the available budget — and the
// request limit applies to what it keeps, so no tree the walk accepts
// hits it. Below the limit nothing is cut: every map a tree packed before
// packs byte for byte the same.
const (
	// mapCutReach is how many times the available budget the chunks a
	// cut map keeps add up to (at least): the selection takes whole
	// chunks in map order, a file's chunks all rank alike, and what does
	// not fit waits, so past this many budgets of better-ranked chunks
	// only a chunk smaller than the room they leave could still enter
	// (docs/benchmarks.md "The map of a 100K-file tree (third pass)").
	mapCutReach = 4
	// mapCutMinFiles is the fewest files a cut map keeps (when the limit
	// allows): the map's outlines come from its first files that have a
	// candidate left after dedup, at most mapMaxParses of them parsed.
	mapCutMinFiles = 8 * mapMaxParses
)

// mapCut returns the candidates of items (ranked) that a pack may select
// from, within limits.candidates: all of them when they are within it
// (a map cut ahead of its items, mapCutAhead, is: its warning is added
// here, where the cut used to be); else the maxCandidates error.
func (p *pipeline) mapCut(items []*budget.Item) ([]*budget.Item, error) {
	if p.cutNote != "" {
		p.warnings = append(p.warnings, p.cutNote)
	}
	if int64(len(items)) <= limits.candidates {
		return items, nil
	}
	return nil, candidatesError(len(items))
}

// mapCutAhead decides, before a map's items are made, the files whose
// chunks become candidates (nil: all of them, the chunks are within
// limits.candidates): the files in map order (the map computed here from
// the chunks, and kept for rank) until their tokens pass mapCutReach
// times the available budget and there are mapCutMinFiles of them, never
// more chunks than the limit with every chunk without a file. It counts
// a chunk where items would make an item of it (the same rules, no
// side effects), so the cut is the one a cut of all the items would make,
// and items are made only for the files kept. The error is maxCandidates
// when not even the most central file's chunks fit.
func (p *pipeline) mapCutAhead(srcs []source, texts []*budget.Text, cut [][]chunker.Chunk) (map[string]bool, error) {
	t := p.mapTally(srcs, texts, cut)
	paths := make([]string, len(t.files))
	for i, f := range t.files {
		paths[i] = f.path
	}
	v := vendoredDirs(paths) // vendoredOf's, of every file (items holds the kept ones only)
	p.vendored = &v
	p.repoMap = p.mapOfFiles(func() []mapFile { return t.files })
	if p.lean != nil && p.lean.sumMiss {
		return nil, errSumMiss
	}
	if t.all <= limits.candidates {
		return nil, nil
	}
	if p.repoMap == nil {
		return nil, candidatesError(int(t.all))
	}
	keep, kept := t.within(p.repoMap.order, mapCutReach*p.alloc.Available)
	if len(keep) == 0 {
		return nil, candidatesError(int(t.all))
	}
	p.stats.Chunks = int(t.all)
	p.cutNote = fmt.Sprintf("no query: the map ranked the %d chunks of its %d most central files of %d (%d chunks in all; the rest are beyond this budget's reach)",
		kept, len(keep), len(t.files), t.all)
	return keep, nil
}

// mapTally is what mapCutAhead knows of a map's chunks before any item
// exists: the files (their names and identifiers, for the map; at: each
// path's index), each file's chunks and tokens (by index), and the
// chunks with no file and in all.
type mapTally struct {
	files         []mapFile
	at            map[string]int
	count, tokens []int64
	pathless, all int64
}

// mapTally tallies the chunks of srcs that items would make candidates.
func (p *pipeline) mapTally(srcs []source, texts []*budget.Text, cut [][]chunker.Chunk) *mapTally {
	t := &mapTally{files: make([]mapFile, 0, len(srcs)), at: make(map[string]int, len(srcs))}
	t.count, t.tokens = make([]int64, 0, len(srcs)), make([]int64, 0, len(srcs))
	for si, s := range srcs {
		if s.facts.stub() {
			t.tallyStub(s) // mapsum.go
			continue
		}
		if s.facts == nil {
			n := texts[si].Lines()
			if n == 0 || s.ranged && s.StartLine > n {
				continue // items records why
			}
		}
		for _, c := range chunksOf(s, cut[si]) {
			if s.facts == nil && c.Content == "" {
				continue
			}
			t.all++
			if s.Path == "" {
				t.pathless++
				continue
			}
			t.files = addMapChunk(t.files, t.at, p.idents, s.Path, c.Name, c.Content)
			i := t.at[s.Path]
			t.grow()
			t.count[i]++
			t.tokens[i] += int64(c.Tokens)
		}
	}
	return t
}

// grow gives each file a count and a number of tokens.
func (t *mapTally) grow() {
	for len(t.count) < len(t.files) {
		t.count, t.tokens = append(t.count, 0), append(t.tokens, 0)
	}
}

// within keeps the files of order (map order) until their tokens pass
// reach (and at least mapCutMinFiles files are kept), never more chunks
// than the limit with the chunks that have no file; it returns the kept
// files and how many chunks they and the fileless ones hold.
func (t *mapTally) within(order []string, reach int64) (map[string]bool, int64) {
	keep := map[string]bool{}
	kept := t.pathless
	var sum int64
	for _, path := range order {
		if sum > reach && len(keep) >= mapCutMinFiles {
			break
		}
		var count, tokens int64 // none for a path the tally does not know
		if i, ok := t.at[path]; ok {
			count, tokens = t.count[i], t.tokens[i]
		}
		if kept+count > limits.candidates {
			break
		}
		keep[path] = true
		kept += count
		sum += tokens
	}
	return keep, kept
}

// candidatesError is the maxCandidates error of a request with n chunk
// candidates.
func candidatesError(n int) error {
	return limitError("maxCandidates", limits.candidates, int64(n), "the chunk candidates of this request", "send fewer sources or narrower ranges, or walk fewer paths")
}
