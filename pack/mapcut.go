package pack

import (
	"fmt"

	"github.com/acode-lsp/acode-lsp/budget"
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
// from, within limits.candidates: all of them when they are within it;
// for a map (p.repoMap set) over it, the chunks of the files the budget
// can reach (mapCutReach) and every chunk without a file, with a warning
// that says so; else the maxCandidates error.
func (p *pipeline) mapCut(items []*budget.Item) ([]*budget.Item, error) {
	if int64(len(items)) <= limits.candidates {
		return items, nil
	}
	if p.repoMap == nil {
		return nil, candidatesError(len(items))
	}
	count := map[string]int64{}
	tokens := map[string]int64{}
	var kept int64
	for _, it := range items {
		if it.Path == "" {
			kept++
			continue
		}
		count[it.Path]++
		tokens[it.Path] += int64(it.Tokens)
	}
	reach := mapCutReach * p.alloc.Available
	keep := map[string]bool{}
	var sum int64
	for _, path := range p.repoMap.order {
		if sum > reach && len(keep) >= mapCutMinFiles {
			break
		}
		if kept+count[path] > limits.candidates {
			break
		}
		keep[path] = true
		kept += count[path]
		sum += tokens[path]
	}
	if len(keep) == 0 {
		return nil, candidatesError(len(items))
	}
	out := make([]*budget.Item, 0, kept)
	for _, it := range items {
		if it.Path == "" || keep[it.Path] {
			out = append(out, it)
		}
	}
	p.warnings = append(p.warnings, fmt.Sprintf("no query: the map ranked the %d chunks of its %d most central files of %d (%d chunks in all; the rest are beyond this budget's reach)",
		len(out), len(keep), len(count), len(items)))
	return out, nil
}

// candidatesError is the maxCandidates error of a request with n chunk
// candidates.
func candidatesError(n int) error {
	return limitError("maxCandidates", limits.candidates, int64(n), "the chunk candidates of this request", "send fewer sources or narrower ranges, or walk fewer paths")
}
