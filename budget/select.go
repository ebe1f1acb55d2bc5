package budget

import "sort"

// SelectOptions configure [Select].
type SelectOptions struct {
	// Redistribute offers what a category leaves unused to the remaining
	// candidates of every category, in global rank order (docs/design.md#rule-7).
	Redistribute bool
	// Overhead estimates the formatting tokens an item adds besides its
	// content: first is true when no chunk of its file is selected yet (so
	// it brings a header and a fence). Nil means no overhead.
	Overhead func(it *Item, first bool) int
	// Count counts tokens; it recounts items trimmed to lines not yet
	// included.
	Count func(string) int
	// FillMin is the smallest leftover (tokens) worth filling with the
	// leading lines of a candidate that does not fit whole; 0 means 48.
	FillMin int
	// Outline returns the outline of the file of a candidate (the file's
	// best one, which did not fit): items of lines of the file, counted,
	// marked Outline; nil when the file has none. Nil means no outlines.
	Outline func(best *Item) []*Item
}

// Selection is the outcome of [Select].
type Selection struct {
	// Selected holds the chosen items in rank order. Items whose lines were
	// partly included already are trimmed to the lines still missing (one
	// item per remaining run of lines).
	Selected []*Item
	// OverBudget holds candidates (or the unselected remainder of a
	// truncated one) that did not fit.
	OverBudget []*Item
	// Covered holds candidates whose every line was already included by a
	// better-ranked item.
	Covered []*Item
	// Used is the estimated cost (content + formatting) per category.
	Used map[string]int64
	// TrimmedTokens counts the tokens of the lines of partly covered
	// candidates that were not emitted again (a wholly covered candidate
	// is in Covered, its tokens not here).
	TrimmedTokens int
}

// Select chooses the items to pack. Per category, in rank order, it takes
// what fits the category's allocation and skips what does not (trying the
// next); then, with Redistribute, what the categories left unused goes to
// the remaining candidates in global rank order. A candidate never brings a
// line that a better-ranked selected item already brought. If nothing fits
// that way, the best candidate that fits Available is taken, so content that
// can fit is never dropped entirely; then, with opts.Outline, half of the
// leftover room buys the outlines of the best-ranked files whose best chunk
// is not in the pack; last, leftover room is filled with the leading whole
// lines of the best candidates that did not fit whole.
//
// items must be in rank order ([Less]).
func Select(items []*Item, alloc Allocation, opts SelectOptions) Selection {
	s := &selector{opts: opts, alloc: alloc, covered: map[string]*lineSet{}, files: map[string]int{},
		remaining: map[string]int64{}, used: map[string]int64{}, best: map[string]*Item{}, outlined: map[string]bool{}}
	if s.opts.FillMin <= 0 {
		s.opts.FillMin = 48
	}
	for _, c := range Categories {
		s.remaining[c] = alloc.Tokens[c]
		s.used[c] = 0
	}
	s.byCategory(items)
	for _, it := range items { // each file's best candidate
		if k := it.fileKey(); k != "" && s.best[k] == nil {
			s.best[k] = it
		}
	}
	if opts.Redistribute {
		s.redistribute()
	}
	s.guarantee()
	if opts.Outline != nil {
		s.outlines()
	}
	s.fill()
	sort.SliceStable(s.sel.Selected, func(i, j int) bool { return Less(s.sel.Selected[i], s.sel.Selected[j]) })
	s.sel.Used = s.used
	return s.sel
}

// take includes parts, which cost cost, in the selection.
func (s *selector) take(parts []*Item, cost int64) {
	for _, p := range parts {
		s.include(p)
	}
	s.used[parts[0].Category] += cost
}

// offer takes it if what it still adds fits *room and reports whether it
// is done with: taken, or every line already included (covered). false
// means it did not fit and waits.
func (s *selector) offer(it *Item, room *int64) bool {
	parts, trimmed := s.cut(it)
	if len(parts) == 0 {
		s.sel.Covered = append(s.sel.Covered, it)
		return true
	}
	cost := s.cost(parts)
	if cost > *room {
		return false
	}
	*room -= cost
	s.sel.TrimmedTokens += trimmed
	s.take(parts, cost)
	return true
}

// byCategory is pass 1: each category within its own allocation; what
// does not fit waits in s.pending.
func (s *selector) byCategory(items []*Item) {
	s.pending = make([]*Item, 0, len(items))
	for _, it := range items {
		room := s.remaining[it.Category]
		if !s.offer(it, &room) {
			s.pending = append(s.pending, it)
		}
		s.remaining[it.Category] = room
	}
	for _, c := range Categories {
		s.leftover += s.remaining[c]
	}
}

// outline returns the outline of it's file (lines not in the pack yet) and
// its cost, or nil when there is none or it costs more than room.
func (s *selector) outline(it *Item, room int64) ([]*Item, int64) {
	key := it.fileKey()
	if s.opts.Outline == nil || key == "" || s.best[key] != it || s.outlined[key] || room < minOutline {
		return nil, 0
	}
	var parts []*Item
	for _, o := range s.opts.Outline(it) {
		ps, _ := s.cut(o) // lines already in the pack are not shown again
		parts = append(parts, ps...)
	}
	if len(parts) == 0 {
		return nil, 0
	}
	if cost := s.cost(parts); cost <= room {
		return parts, cost
	}
	return nil, 0
}

// redistribute is pass 2: the leftover to everyone, in global rank order.
// A file whose best chunk does not fit may get its outline in its place,
// when the outline costs at most a third of that chunk, within a sixteenth
// of the budget for all outlines of this pass.
func (s *selector) redistribute() {
	inRank := s.alloc.Available / 16
	rest := s.pending[:0:0]
	for _, it := range s.pending {
		if s.offer(it, &s.leftover) {
			continue
		}
		if parts, cost := s.outline(it, min(s.leftover, inRank)); parts != nil && 3*cost <= int64(it.Tokens) {
			s.take(parts, cost)
			s.outlined[it.fileKey()] = true
			s.leftover -= cost
			inRank -= cost
		}
		rest = append(rest, it)
	}
	s.pending = rest
}

// guarantee: content that can fit is never dropped entirely. With nothing
// selected, the best waiting candidate that fits Available is taken.
func (s *selector) guarantee() {
	if len(s.sel.Selected) > 0 {
		return
	}
	for i, it := range s.pending {
		parts, _ := s.cut(it)
		if cost := s.cost(parts); len(parts) > 0 && cost <= s.alloc.Available {
			s.take(parts, cost)
			s.leftover = max(0, s.alloc.Available-cost)
			for _, c := range Categories {
				s.remaining[c] = 0
			}
			s.pending = append(s.pending[:i:i], s.pending[i+1:]...)
			return
		}
	}
}

// outlines (docs/design.md#rule-8): half of what is left buys the outlines
// of the best-ranked files whose best chunk did not fit.
func (s *selector) outlines() {
	shared := s.leftover / 2
	perCat := map[string]int64{}
	for _, c := range Categories {
		perCat[c] = s.remaining[c] / 2
	}
	for _, it := range s.pending {
		room := shared
		if !s.opts.Redistribute {
			room = perCat[it.Category]
		}
		parts, cost := s.outline(it, room)
		if parts == nil {
			continue
		}
		s.take(parts, cost)
		s.outlined[it.fileKey()] = true
		if s.opts.Redistribute {
			shared -= cost
			s.leftover -= cost
		} else {
			perCat[it.Category] -= cost
			s.remaining[it.Category] -= cost
		}
	}
}

// fill is pass 3: leftover room gets the leading lines of what did not
// fit; the rest is over budget.
func (s *selector) fill() {
	for _, it := range s.pending {
		room := s.leftover
		if !s.opts.Redistribute {
			room = s.remaining[it.Category]
		}
		if room < int64(s.opts.FillMin) || s.opts.Count == nil {
			s.sel.OverBudget = append(s.sel.OverBudget, it)
			continue
		}
		parts, _ := s.cut(it)
		if len(parts) == 0 {
			s.sel.Covered = append(s.sel.Covered, it)
			continue
		}
		head, rest := s.truncate(parts[0], room)
		if head == nil {
			s.sel.OverBudget = append(s.sel.OverBudget, it)
			continue
		}
		cost := s.cost([]*Item{head})
		s.take([]*Item{head}, cost)
		if s.opts.Redistribute {
			s.leftover -= cost
		} else {
			s.remaining[it.Category] -= cost
		}
		if rest != nil {
			s.sel.OverBudget = append(s.sel.OverBudget, rest)
		}
		s.sel.OverBudget = append(s.sel.OverBudget, parts[1:]...)
	}
}

// minOutline is the least room (tokens) worth asking for an outline.
const minOutline = 8

type span struct{ start, end int }

// selector is the state of one [Select].
type selector struct {
	opts    SelectOptions
	alloc   Allocation
	sel     Selection
	covered map[string]*lineSet // lines already selected, per file
	files   map[string]int      // selected items per file
	// remaining is each category's allocation not used yet; leftover what
	// the categories left after pass 1, shared from pass 2 on.
	remaining map[string]int64
	leftover  int64
	used      map[string]int64 // estimated cost per category
	pending   []*Item          // candidates that did not fit yet, in rank order
	best      map[string]*Item // each file's best candidate
	outlined  map[string]bool  // files whose outline is in the pack
}

// lineSet is a set of line numbers (1-based), a bit per line: including a
// run and cutting an item into its uncovered runs cost the item's lines
// (a word of 64 lines at a time where whole words are set or clear), never
// the number of items selected before — selection stays linear in the
// lines of a file however many of its chunks are included (issue 24).
type lineSet struct{ words []uint64 }

// add marks lines start..end.
func (l *lineSet) add(start, end int) {
	start = max(start, 0)
	if need := end/64 + 1; need > len(l.words) {
		l.words = append(l.words, make([]uint64, need-len(l.words))...)
	}
	for n := start; n <= end; {
		w, b := n/64, n%64
		if b == 0 && n+63 <= end {
			l.words[w] = ^uint64(0)
			n += 64
			continue
		}
		l.words[w] |= 1 << b
		n++
	}
}

// has reports whether line n is in the set.
func (l *lineSet) has(n int) bool {
	w := n / 64
	return w < len(l.words) && l.words[w]&(1<<(n%64)) != 0
}

// runs returns the maximal runs of lines of start..end not in the set, in
// line order.
func (l *lineSet) runs(start, end int) []span {
	var out []span
	start = max(start, 0)
	runStart := -1
	for n := start; n <= end; {
		w, b := n/64, n%64
		if b == 0 && n+63 <= end {
			word := uint64(0)
			if w < len(l.words) {
				word = l.words[w]
			}
			if word == 0 || word == ^uint64(0) {
				if word == 0 && runStart < 0 {
					runStart = n
				}
				if word != 0 && runStart >= 0 {
					out = append(out, span{runStart, n - 1})
					runStart = -1
				}
				n += 64
				continue
			}
		}
		if !l.has(n) {
			if runStart < 0 {
				runStart = n
			}
		} else if runStart >= 0 {
			out = append(out, span{runStart, n - 1})
			runStart = -1
		}
		n++
	}
	if runStart >= 0 {
		out = append(out, span{runStart, end})
	}
	return out
}

// cut returns the runs of it's lines not yet covered, as items, and the
// tokens of the lines cut away (an estimate: whole minus parts).
func (s *selector) cut(it *Item) ([]*Item, int) {
	key := it.fileKey()
	cov := s.covered[key]
	if key == "" || cov == nil {
		return []*Item{it}, 0
	}
	runs := cov.runs(it.StartLine, it.EndLine)
	if len(runs) == 1 && runs[0].start == it.StartLine && runs[0].end == it.EndLine {
		return []*Item{it}, 0
	}
	parts := make([]*Item, 0, len(runs))
	sum := 0
	for _, r := range runs {
		p := s.part(it, r.start, r.end)
		sum += p.Tokens
		parts = append(parts, p)
	}
	return parts, max(0, it.Tokens-sum)
}

func (s *selector) part(it *Item, start, end int) *Item {
	p := *it
	p.StartLine, p.EndLine = start, end
	p.Content = it.Source.Slice(start, end)
	if s.opts.Count != nil {
		p.Tokens = s.opts.Count(p.Content)
	}
	return &p
}

func (s *selector) cost(parts []*Item) int64 {
	var c int64
	seen := s.files[parts[0].fileKey()] > 0
	for _, p := range parts {
		c += int64(p.Tokens)
		if s.opts.Overhead != nil {
			c += int64(s.opts.Overhead(p, !seen || p.fileKey() == ""))
		}
		seen = true
	}
	return c
}

func (s *selector) include(it *Item) {
	s.sel.Selected = append(s.sel.Selected, it)
	key := it.fileKey()
	if key == "" {
		return
	}
	s.files[key]++
	cov := s.covered[key]
	if cov == nil {
		cov = &lineSet{}
		s.covered[key] = cov
	}
	cov.add(it.StartLine, it.EndLine)
}

// truncate returns the longest leading run of whole lines of it whose cost
// fits room, and the rest (nil when nothing fits or nothing is left).
func (s *selector) truncate(it *Item, room int64) (head, rest *Item) {
	lo, hi := 0, it.Lines()-1 // number of lines that fit, searched in [lo, hi]
	first := s.files[it.fileKey()] == 0 || it.fileKey() == ""
	fits := func(n int) bool {
		p := s.part(it, it.StartLine, it.StartLine+n-1)
		c := int64(p.Tokens)
		if s.opts.Overhead != nil {
			c += int64(s.opts.Overhead(p, first))
		}
		return c <= room
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return nil, nil
	}
	head = s.part(it, it.StartLine, it.StartLine+lo-1)
	if it.StartLine+lo <= it.EndLine {
		rest = s.part(it, it.StartLine+lo, it.EndLine)
	}
	return head, rest
}
