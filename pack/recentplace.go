package pack

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
)

// A lift by place, not by score (issue 23, seventh pass): every signal
// of the fourth to sixth passes that lifted a chunk's score also pushed
// another file's needed chunk below the cut. Here a chunk a signal
// points at takes the place — the rank and so the token room — of the
// lowest-ranked chunk its own file already has in the pack, so that no
// other file loses anything. For each of the placeFiles best files that
// the pack includes (by their best chunk's rank), the best-ranked chunk
// the signal points at that is not packed swaps ranks with that file's
// lowest-ranked whole packed chunk (never the file's best chunk, never a
// chunk the signal points at). A swap is kept only when a selection with
// it includes the chunk whole and still holds every line of every other
// file it held (another file may gain room, never lose it); otherwise it
// is undone. The signals:
//
//   - "+recentplace": the chunks overlapping the hunks of the file's
//     last recentLinesCommits commits (recentlines.go; "placek=x"
//     commits);
//   - "+calleeplace": the chunks of the file defining a name its best
//     chunk uses (the helper below the named function).
//
// "+placewords": swap only when the displaced chunk holds fewer distinct
// query words than the one placed; "placen=x": the number of files (0:
// every packed file); "placeswaps=x": swaps per file; "placedrop=x": a
// placed chunk may take the room of up to x of its file's lowest packed
// chunks. Switches of
// Engine.Ablate, read here (newFeatures ignores them), off unless they
// gain on the evaluation (docs/quality.md "seventh pass").
const (
	featRecentPlace = "recentplace"
	featCalleePlace = "calleeplace"
	featPlaceWords  = "placewords"
	// featPlaceWordsLE: the displaced chunk holds no more distinct query
	// words than the one placed.
	featPlaceWordsLE = "placewordsle"
	placeFiles       = 5
	placeSwaps       = 1
	placeDrop        = 1
)

// placeOptions are the switches of the place swaps.
type placeOptions struct {
	recent, callee, words, wordsLE bool
	files, swaps, commits, drop    int
}

// parsePlace reads the place switches from an ablation list.
func parsePlace(ablate []string) placeOptions {
	o := placeOptions{files: placeFiles, swaps: placeSwaps, commits: recentLinesCommits, drop: placeDrop}
	for _, a := range ablate {
		a = strings.TrimSpace(a)
		if k, v, ok := strings.Cut(a, "="); ok {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				continue
			}
			switch k {
			case "placen":
				o.files = x
			case "placeswaps":
				o.swaps = x
			case "placek":
				o.commits = x
			case "placedrop":
				o.drop = x
			}
			continue
		}
		switch a {
		case "+" + featRecentPlace:
			o.recent = true
		case "+" + featCalleePlace:
			o.callee = true
		case "+" + featPlaceWords:
			o.words = true
		case "+" + featPlaceWordsLE:
			o.wordsLE = true
		}
	}
	return o
}

// placeState is what the place swaps need from ranking: the query (for
// the query words of a chunk) and each path's absolute path.
type placeState struct {
	opts placeOptions
	q    *query
	abs  map[string]string
}

// newPlace returns the state of the place swaps, nil when they are off or
// there is no query.
func (p *pipeline) newPlace(q *query, srcs []source, items []*budget.Item) *placeState {
	o := parsePlace(p.e.Ablate)
	if q == nil || !(o.recent || o.callee) || o.swaps == 0 || o.drop == 0 {
		return nil
	}
	abs, _ := p.absPaths(srcs, items)
	return &placeState{opts: o, q: q, abs: abs}
}

// placeChunks returns cands (in rank order) with the place swaps made;
// cands itself when they are off. Swapped items are copies.
func (p *pipeline) placeChunks(cands []*budget.Item, f *formatter) []*budget.Item {
	ps := p.place
	if ps == nil || len(cands) == 0 {
		return cands
	}
	opts := p.selectOptions(f)
	sel := func(c []*budget.Item) budget.Selection { return budget.Select(c, p.alloc, opts) }
	cur := sel(cands)
	files := packedFiles(cands, cur, ps.opts.files)
	want := map[string][]*budget.Item{}
	if ps.opts.recent {
		addWanted(want, p.placeHunks(files), cands, overlapsAny)
	}
	if ps.opts.callee {
		addCallees(want, files, cands)
	}
	var fewer func(l, r *budget.Item) bool
	switch {
	case ps.opts.words:
		fewer = func(l, r *budget.Item) bool { return ps.q.queryWords(l) < ps.q.queryWords(r) }
	case ps.opts.wordsLE:
		fewer = func(l, r *budget.Item) bool { return ps.q.queryWords(l) <= ps.q.queryWords(r) }
	}
	return swapPlaces(cands, cur, files, want, ps.opts.swaps, ps.opts.drop, sel, fewer)
}

// placeHunks reads the hunks of the last commits of files (git, bounded
// as recentlines.go); nil outside git.
func (p *pipeline) placeHunks(files []string) map[string][]lineSpan {
	ps := p.place
	var first string
	for _, f := range files {
		if a := ps.abs[f]; a != "" {
			first = a
			break
		}
	}
	if first == "" {
		return nil
	}
	top := gitTop(filepath.Dir(first))
	if top == "" {
		return nil
	}
	rel := map[string]string{}
	for _, f := range files {
		if a := ps.abs[f]; a != "" {
			if r, err := filepath.Rel(top, a); err == nil && !strings.HasPrefix(r, "..") {
				rel[filepath.ToSlash(r)] = f
			}
		}
	}
	out := map[string][]lineSpan{}
	for r, spans := range gitHunks(p.ctx, top, rel, ps.opts.commits) {
		out[rel[r]] = spans
	}
	return out
}

// queryWords is the number of distinct query terms in it's text.
func (q *query) queryWords(it *budget.Item) int {
	row := make([]uint16, len(q.terms))
	q.count(it.Content, row)
	n := 0
	for _, c := range row {
		if c > 0 {
			n++
		}
	}
	return n
}

// packedFiles returns the paths of the first n files (0: all) in rank
// order of their best candidate whose chunks sel includes.
func packedFiles(cands []*budget.Item, sel budget.Selection, n int) []string {
	in := map[string]bool{}
	for _, it := range sel.Selected {
		if it.Path != "" && !it.Outline {
			in[it.Path] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, it := range cands {
		if it.Path == "" || seen[it.Path] {
			continue
		}
		seen[it.Path] = true
		if in[it.Path] {
			out = append(out, it.Path)
			if n > 0 && len(out) == n {
				break
			}
		}
	}
	return out
}

// overlapsAny reports whether it overlaps one of spans.
func overlapsAny(it *budget.Item, spans []lineSpan) bool {
	for _, s := range spans {
		if s.from <= it.EndLine && it.StartLine <= s.to {
			return true
		}
	}
	return false
}

// addWanted appends to want[path], in rank order, the candidates of each
// path of spans that match its spans.
func addWanted(want map[string][]*budget.Item, spans map[string][]lineSpan, cands []*budget.Item, match func(*budget.Item, []lineSpan) bool) {
	for _, it := range cands {
		if s, ok := spans[it.Path]; ok && match(it, s) && !slices.Contains(want[it.Path], it) {
			want[it.Path] = append(want[it.Path], it)
		}
	}
}

// addCallees appends to want[path], in rank order, the candidates of
// each of files defining a name the file's best candidate uses.
func addCallees(want map[string][]*budget.Item, files []string, cands []*budget.Item) {
	byFile := map[string][]*budget.Item{}
	for _, f := range files {
		byFile[f] = nil
	}
	for _, it := range cands {
		if c, ok := byFile[it.Path]; ok {
			byFile[it.Path] = append(c, it)
		}
	}
	for _, f := range files {
		chunks := byFile[f]
		if len(chunks) < 2 {
			continue
		}
		best, defined := chunks[0], definedNames(chunks)
		used := map[*budget.Item]bool{}
		identifiers(best.Content, func(name string) {
			for _, d := range defined[name] {
				if d != best {
					used[d] = true
				}
			}
		})
		for _, it := range chunks {
			if used[it] && !slices.Contains(want[f], it) {
				want[f] = append(want[f], it)
			}
		}
	}
}

// swapPlaces makes the place swaps on cands (in rank order; cur is their
// selection): for each of files, up to swaps times, the first of
// want[file] that cur does not include takes the rank of the file's
// lowest-ranked chunk that cur includes whole — neither the file's best
// candidate nor wanted — and that chunk takes its rank; when the placed
// chunk does not fit that room, of the file's 2, … drop lowest-ranked
// such chunks (drop ≥ 1). fewer, when not nil, must hold for (displaced,
// placed). A swap is kept only when sel of the swapped list includes the
// placed chunk whole and every line of every other file that cur
// selects (another file may gain, never lose); swapped items are copies,
// cands is not changed.
func swapPlaces(cands []*budget.Item, cur budget.Selection, files []string, want map[string][]*budget.Item, swaps, drop int,
	sel func([]*budget.Item) budget.Selection, fewer func(l, r *budget.Item) bool) []*budget.Item {
	out := cands
	for _, f := range files {
		tried := map[int]bool{}
		for n := 0; n < swaps; {
			low, j := placePair(out, cur, f, want[f], tried)
			if j < 0 {
				break
			}
			tried[out[j].Seq] = true
			for k := 1; k <= min(drop, len(low)); k++ {
				d := low[len(low)-k:]
				if fewer != nil && !fewer(out[d[0]], out[j]) {
					break
				}
				trial := displaced(out, d, j)
				next := sel(trial)
				if !selectsWhole(next, out[j]) || !keepsOthers(cur, next, f) {
					continue
				}
				out, cur = trial, next
				n++
				break
			}
		}
	}
	return out
}

// displaced returns a copy of cands where cands[j] takes the rank (and
// score) of cands[d[0]] and the chunks at d (ascending, all before j)
// follow it at its old score, where it was.
func displaced(cands []*budget.Item, d []int, j int) []*budget.Item {
	r := *cands[j]
	r.Score = cands[d[0]].Score
	gone := map[int]bool{j: true}
	moved := make([]*budget.Item, 0, len(d))
	for _, i := range d {
		gone[i] = true
		l := *cands[i]
		l.Score = cands[j].Score
		moved = append(moved, &l)
	}
	out := make([]*budget.Item, 0, len(cands))
	for k, it := range cands {
		if k == d[0] {
			out = append(out, &r)
		}
		if !gone[k] {
			out = append(out, it)
		}
		if k == j {
			out = append(out, moved...)
		}
	}
	return out
}

// placePair returns the indexes in cands of the chunks of file f that
// may be displaced (included whole by cur, not its best, not wanted; in
// rank order) and of the wanted chunk to place (after them), or nil, −1.
// tried are wanted chunks (by Seq) already tried.
func placePair(cands []*budget.Item, cur budget.Selection, f string, want []*budget.Item, tried map[int]bool) ([]int, int) {
	in, wanted := placeSeqs(cur, f, want)
	first, j := -1, -1
	var low []int
	for k, it := range cands {
		if it.Path != f {
			continue
		}
		if first < 0 {
			first = k
		}
		switch {
		case wanted[it.Seq]:
			if j < 0 && !in[it.Seq] && !tried[it.Seq] {
				j = k
			}
		case k != first && j < 0 && selectsWhole(cur, it):
			low = append(low, k)
		}
	}
	if len(low) == 0 || j < 0 {
		return nil, -1
	}
	return low, j
}

// placeSeqs returns the Seqs of the chunks of f that cur includes and
// of want.
func placeSeqs(cur budget.Selection, f string, want []*budget.Item) (in, wanted map[int]bool) {
	in, wanted = map[int]bool{}, map[int]bool{}
	for _, it := range cur.Selected {
		if it.Path == f && !it.Outline {
			in[it.Seq] = true
		}
	}
	for _, w := range want {
		wanted[w.Seq] = true
	}
	return in, wanted
}

// selectsWhole reports whether sel includes all of it's lines as one item.
func selectsWhole(sel budget.Selection, it *budget.Item) bool {
	for _, s := range sel.Selected {
		if s.Seq == it.Seq && s.StartLine == it.StartLine && s.EndLine == it.EndLine && !s.Outline {
			return true
		}
	}
	return false
}

// keepsOthers reports whether b selects every line of every file but f
// (and every item without a path) that a selects: another file may gain
// from a swap, never lose.
func keepsOthers(a, b budget.Selection, f string) bool {
	lines := map[string]map[int]bool{}
	noPath := map[int]bool{}
	for _, it := range b.Selected {
		if it.Path == "" {
			noPath[it.Seq] = true
			continue
		}
		m := lines[it.Path]
		if m == nil {
			m = map[int]bool{}
			lines[it.Path] = m
		}
		for n := it.StartLine; n <= it.EndLine; n++ {
			m[n] = true
		}
	}
	for _, it := range a.Selected {
		switch {
		case it.Path == f:
		case it.Path == "":
			if !noPath[it.Seq] {
				return false
			}
		default:
			for n := it.StartLine; n <= it.EndLine; n++ {
				if !lines[it.Path][n] {
					return false
				}
			}
		}
	}
	return true
}
