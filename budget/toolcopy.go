package budget

import (
	"sort"
	"strings"
)

// minCopyLines is the fewest non-blank lines a tool result must share with
// a file to count as a copy of it (unless it is the whole file): one or two
// lines ("PASS", "}") match too much by chance.
const minCopyLines = 3

// toolCopies packs content that a tool result and a file both hold once
// (docs/design.md#rule-6, seed FR-016-104: `cat file.go` sent as a tool result
// packed the file twice). A tool-result item whose lines, white space
// folded and blank lines skipped, are exactly lines a..b of a file is a
// copy of those lines. Rule 6 keeps the best-ranked copy:
//
//   - the tool result ranks above every chunk of the file that overlaps
//     a..b: those chunks lose lines a..b (removed as duplicates when
//     inside, trimmed to their other lines and recounted otherwise);
//   - else the tool result is removed as a duplicate of the file's best
//     chunk, and the file's chunks inside a..b take the tool result's score
//     when it is higher, so the content the user sent keeps its rank.
//
// items are in rank order and stay so; removed and stats are extended.
func toolCopies(items []*Item, removed []Removed, stats *DedupStats, count func(string) int) ([]*Item, []Removed) {
	copies := locateCopies(items)
	if len(copies) == 0 {
		return items, removed
	}
	d := &copyDedup{items: items, removed: removed, stats: stats, count: count, gone: map[*Item]bool{}}
	for _, c := range copies {
		if c.text != nil && !d.gone[c.tool] {
			d.resolve(c)
		}
	}
	if len(d.gone) == 0 && len(d.added) == 0 {
		return items, d.removed
	}
	out := items[:0:0]
	for _, it := range items {
		if !d.gone[it] {
			out = append(out, it)
		}
	}
	out = append(out, d.added...)
	sort.SliceStable(out, func(i, j int) bool { return Less(out[i], out[j]) })
	return out, d.removed
}

// toolCopy is a tool-result item and, when found, the lines of a file it
// is a copy of.
type toolCopy struct {
	tool       *Item
	lines      []string // normalised non-blank lines
	path       string
	text       *Text
	start, end int // 1-based lines of the file
}

// copyFile is a file text that tool results are looked for in.
type copyFile struct {
	path string
	text *Text
	norm []string // normalised lines, "" for blank ones
	full int      // non-blank lines
}

// locateCopies returns the tool-result items with, for those that copy a
// file's lines, where: each file text is looked at once, in rank order of
// its best chunk, normalised only when a tool result is there to find.
func locateCopies(items []*Item) []*toolCopy {
	var copies []*toolCopy
	for _, it := range items {
		if it.Path != "" || it.Type != "tool_result" {
			continue
		}
		if ls := normLines(it.Content); len(ls) > 0 {
			copies = append(copies, &toolCopy{tool: it, lines: ls})
		}
	}
	if len(copies) == 0 {
		return nil
	}
	var files []*copyFile
	seenText := map[*Text]bool{}
	for _, it := range items {
		if it.Path == "" || it.Source == nil || seenText[it.Source] {
			continue
		}
		seenText[it.Source] = true
		files = append(files, &copyFile{path: it.Path, text: it.Source})
	}
	for _, c := range copies {
		for _, f := range files {
			if a, b, ok := f.find(c.lines); ok {
				c.path, c.text, c.start, c.end = f.path, f.text, a, b
				break
			}
		}
	}
	return copies
}

// find returns the lines of f that lines (normalised, non-blank) copy;
// fewer than minCopyLines lines count only when they are the whole file.
func (f *copyFile) find(lines []string) (start, end int, ok bool) {
	if f.norm == nil {
		f.norm = normLinesOf(f.text)
		for _, l := range f.norm {
			if l != "" {
				f.full++
			}
		}
	}
	start, end, ok = findLines(f.norm, lines)
	if !ok || len(lines) < min(minCopyLines, f.full) { // short, and not the whole file
		return 0, 0, false
	}
	return start, end, true
}

// copyDedup is the state of [toolCopies]: what is gone, what was added
// (the right-hand part of a chunk cut around a copy), and the removals.
type copyDedup struct {
	items   []*Item
	removed []Removed
	stats   *DedupStats
	count   func(string) int
	gone    map[*Item]bool
	added   []*Item
}

// resolve keeps the best-ranked of c's tool result and the file's chunks
// over the same lines.
func (d *copyDedup) resolve(c *toolCopy) {
	var overlap []*Item // the file's chunks over lines start..end, in rank order
	for _, it := range d.items {
		if !d.gone[it] && it.Path == c.path && sameText(it, &Item{Source: c.text}) && it.StartLine <= c.end && c.start <= it.EndLine {
			overlap = append(overlap, it)
		}
	}
	if len(overlap) == 0 {
		return
	}
	if !Less(c.tool, overlap[0]) {
		d.toolLoses(c, overlap)
		return
	}
	for _, it := range overlap {
		if it.StartLine >= c.start && it.EndLine <= c.end {
			d.gone[it] = true
			d.removed = append(d.removed, Removed{Item: it, Reason: "duplicate", Into: c.tool})
			d.stats.ExactRemoved++
			d.stats.SaveExact(it.Tokens)
			continue
		}
		d.cutAround(it, c)
	}
}

// toolLoses removes c's tool result as a duplicate of the file's best
// chunk over its lines; the file's chunks inside those lines take its
// score when it is higher, so the content the user sent keeps its rank.
func (d *copyDedup) toolLoses(c *toolCopy, overlap []*Item) {
	d.gone[c.tool] = true
	d.removed = append(d.removed, Removed{Item: c.tool, Reason: "duplicate", Into: overlap[0]})
	d.stats.ExactRemoved++
	d.stats.SaveExact(c.tool.Tokens)
	for _, it := range overlap {
		if it.StartLine >= c.start && it.EndLine <= c.end && it.Score < c.tool.Score {
			it.Score = c.tool.Score
		}
	}
}

// cutAround trims it, which overlaps c's lines without lying inside them,
// to its lines outside them (two items when c's lines are in its middle),
// recounted.
func (d *copyDedup) cutAround(it *Item, c *toolCopy) {
	before := it.Tokens
	switch {
	case it.EndLine > c.end && it.StartLine < c.start: // both sides stay: a second item
		right := *it
		right.StartLine = c.end + 1
		right.Content = right.Source.Slice(right.StartLine, right.EndLine)
		right.Tokens = d.count(right.Content)
		d.added = append(d.added, &right)
		before -= right.Tokens
		it.EndLine = c.start - 1
	case it.StartLine < c.start:
		it.EndLine = c.start - 1
	default:
		it.StartLine = c.end + 1
	}
	it.Content = it.Source.Slice(it.StartLine, it.EndLine)
	it.Tokens = d.count(it.Content)
	d.stats.SaveOverlap(max(0, before-it.Tokens))
}

// findLines finds want (normalised non-blank lines) as a run of lines of a
// file (norm, "" for blank lines, which are skipped), and returns the run's
// first and last line (1-based).
func findLines(norm, want []string) (int, int, bool) {
	for i, l := range norm {
		if l == "" || l != want[0] {
			continue
		}
		k, j := 1, i
		for n := i + 1; n < len(norm) && k < len(want); n++ {
			if norm[n] == "" {
				continue
			}
			if norm[n] != want[k] {
				break
			}
			k, j = k+1, n
		}
		if k == len(want) {
			return i + 1, j + 1, true
		}
	}
	return 0, 0, false
}

// normLines returns the non-blank lines of s with white space runs folded
// to one space and the ends trimmed.
func normLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if n := strings.Join(strings.Fields(l), " "); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// normLinesOf returns every line of t normalised ("" for blank lines).
func normLinesOf(t *Text) []string {
	out := make([]string, t.Lines())
	for i := range out {
		out[i] = strings.Join(strings.Fields(t.Slice(i+1, i+1)), " ")
	}
	return out
}
