package chunker

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// decl is a declaration found in a file's outline: a line range (leading doc
// comments included) that should become one chunk.
type decl struct {
	first, last int // 0-based lines, inclusive
	kind, name  string
	top         bool
	// members lists the declarations a too-big decl splits into (methods of
	// a class, subsections of a section); nil when it cannot be split so.
	members func() []decl
	// head is the first line of the declaration itself (after its doc
	// comments), sig the last line of its signature (where its body
	// starts); both 0-based, set by outlines for [Outline].
	head, sig int
}

// unit is a run of whole lines on its way to becoming a chunk.
type unit struct {
	decl
	oversize bool
}

// layout turns outlines and line ranges into chunks for one source.
type layout struct {
	ctx   context.Context
	li    *lineIndex
	count Counter
	opts  Options
	memo  map[[2]int]int // token counts of line ranges already counted
	lines []int          // token counts of single lines, -1 when not counted yet
	// text, when set, is src as a string: contents and counted texts are
	// sliced from it instead of copied.
	text string
	// known, when set, returns the count of bytes [start, end) when it is
	// already known (a [Document] reuses the counts of unchanged chunks).
	known func(start, end int) (int, bool)
	// spans, when set, counts line ranges from one pass over the source
	// ([SpanCounter]) where it can.
	spans Spans
}

func newLayout(ctx context.Context, src []byte, count Counter, opts Options) *layout {
	return &layout{ctx: ctx, li: newLineIndex(src), count: count, opts: opts.withDefaults(), memo: map[[2]int]int{}}
}

// tokens counts lines first..last.
func (l *layout) tokens(first, last int) int {
	if first == last {
		return l.lineTokens(first)
	}
	k := [2]int{first, last}
	if n, ok := l.memo[k]; ok {
		return n
	}
	n := l.countRange(first, last)
	l.memo[k] = n
	return n
}

// countRange counts lines first..last, or takes their known count or
// their count from the spans.
func (l *layout) countRange(first, last int) int {
	sb, eb := l.li.start(first), l.li.end(last)
	if l.known != nil {
		if n, ok := l.known(sb, eb); ok {
			return n
		}
	}
	if n, ok := l.spanCount(sb, eb); ok {
		return n
	}
	if l.text != "" {
		return l.count(l.text[sb:eb])
	}
	return l.count(string(l.li.src[sb:eb]))
}

func (l *layout) lineTokens(i int) int {
	if l.lines == nil { // made on first use: most layouts of structured files never count single lines
		l.lines = make([]int, l.li.count())
		for k := range l.lines {
			l.lines[k] = -1
		}
	}
	if l.lines[i] < 0 {
		l.lines[i] = l.countRange(i, i)
	}
	return l.lines[i]
}

// windowChunks cuts lines first..last into "lines" chunks.
func (l *layout) windowChunks(first, last int) ([]Chunk, error) {
	if first > last {
		return []Chunk{}, nil
	}
	us, err := l.windows(unit{decl: decl{first: first, last: last, kind: "lines"}})
	if err != nil {
		return nil, err
	}
	return l.chunks(us), nil
}

// pieceChunks cuts lines first..last into "lines" pieces (see
// [layout.pieces]) and merges small neighbours, for a whole file without
// structure.
func (l *layout) pieceChunks(first, last int) ([]Chunk, error) {
	if first > last {
		return []Chunk{}, nil
	}
	us, err := l.pieces(unit{decl: decl{first: first, last: last, kind: "lines"}})
	if err != nil {
		return nil, err
	}
	if us, err = l.merge(us); err != nil {
		return nil, err
	}
	return l.chunks(us), nil
}

// windows splits u at line boundaries into pieces of at most MaxTokens. A
// piece of one line may exceed it; it is flagged oversize. Pieces keep the
// kind of u; a named u gives its pieces a " (part i/n)" suffix.
func (l *layout) windows(u unit) ([]unit, error) {
	limit := l.opts.MaxTokens
	var out []unit
	for i := u.first; i <= u.last; {
		if err := l.ctx.Err(); err != nil {
			return nil, fmt.Errorf("chunker: %w", err)
		}
		// Grow by per-line counts (BPE counts are nearly additive), then
		// correct with the exact count of the window.
		j, sum := i, l.lineTokens(i)
		for j < u.last && sum+l.lineTokens(j+1) <= limit {
			j++
			sum += l.lineTokens(j)
		}
		for j > i && l.tokens(i, j) > limit {
			j--
		}
		// Per-line sums overestimate short lines; gallop to the real end.
		for step := 1; step > 0; {
			if j+step <= u.last && l.tokens(i, j+step) <= limit {
				j += step
				step *= 2
			} else {
				step /= 2
			}
		}
		p := u
		p.first, p.last = i, j
		p.members = nil
		p.oversize = i == j && l.tokens(i, j) > limit
		out = append(out, p)
		i = j + 1
	}
	if len(out) > 1 && u.name != "" {
		for k := range out {
			out[k].name = fmt.Sprintf("%s (part %d/%d)", u.name, k+1, len(out))
		}
	}
	return out, nil
}

// partition covers lines first..last with ds (sorted by first line) and the
// gaps between them. Declarations sharing a line are aligned to whole lines:
// a later one starts on the next line, or is absorbed when nothing is left.
// Blank lines after a unit belong to it; blank lines before the first unit
// belong to the unit that follows. Other lines outside ds become "lines"
// units when loose is set (top level), and are attached to the preceding
// member otherwise (closing braces, fields between methods).
func (l *layout) partition(first, last int, ds []decl, loose bool) []unit {
	p := partitioner{l: l, out: make([]unit, 0, len(ds)+1), cursor: first, last: last, loose: loose}
	for _, d := range ds {
		if n := len(p.out); n > 0 && d.first <= p.out[n-1].last && d.name != "" {
			// It starts on the previous unit's last line: name it there too.
			p.out[n-1].name = addName(p.out[n-1].name, d.name)
		}
		d.first, d.last = max(d.first, p.cursor, first), min(d.last, last)
		if d.first > d.last {
			continue // it lies on lines already taken
		}
		if d.first > p.cursor {
			p.gap(d.first - 1)
			d.first = p.cursor
		}
		p.out = append(p.out, unit{decl: d})
		p.cursor = d.last + 1
	}
	if p.cursor <= last {
		p.gap(last)
	}
	return p.out
}

// partitioner is the state of one partition: the units so far and the
// first line not yet in one.
type partitioner struct {
	l            *layout
	out          []unit
	cursor, last int
	loose        bool
}

// gap places lines cursor..end, which hold no declaration: onto the
// previous unit (only its blank lines when loose), else as a "lines"
// unit, unless they are blank lines that lead into a declaration.
func (p *partitioner) gap(end int) {
	for p.cursor <= end && len(p.out) > 0 && (!p.loose || p.l.li.blank(p.cursor)) {
		p.out[len(p.out)-1].last = p.cursor
		p.cursor++
	}
	if p.cursor > end {
		return
	}
	allBlank := true
	for i := p.cursor; i <= end && allBlank; i++ {
		allBlank = p.l.li.blank(i)
	}
	if allBlank && end < p.last {
		return // leading blank lines go to the next declaration
	}
	p.out = append(p.out, unit{decl: decl{first: p.cursor, last: end, kind: "lines"}})
	p.cursor = end + 1
}

// addName adds name to a list of names joined by ", ".
func addName(names, name string) string {
	if names == "" {
		return name
	}
	return joinNames(append(strings.Split(names, ", "), name))
}

// containerTokens is the size above which a container (class, impl,
// section, describe block, object literal) is split into its members even
// though it fits MaxTokens: half of MaxTokens. A container is a collection
// of units a task needs one of, not a unit itself.
func (l *layout) containerTokens() int { return max(l.opts.MinTokens, l.opts.MaxTokens/2) }

// pieceTokens is the target size of the line windows an oversized
// declaration without members is cut into: a quarter of MaxTokens, at least
// MinTokens. Smaller pieces rank and fit better than MaxTokens slabs.
func (l *layout) pieceTokens() int { return max(l.opts.MinTokens, l.opts.MaxTokens/4) }

// fit returns u, split into members while it is a container over
// containerTokens, or into line pieces while over MaxTokens.
func (l *layout) fit(u unit) ([]unit, error) {
	if err := l.ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: %w", err)
	}
	n := l.tokens(u.first, u.last)
	if n <= l.opts.MaxTokens && (u.members == nil || n <= l.containerTokens()) {
		return []unit{u}, nil
	}
	var ms []decl
	if u.members != nil {
		for _, m := range u.members() {
			// A member on the container's first line stays in the header.
			if m.first > u.first && m.last <= u.last && m.first <= m.last {
				ms = append(ms, m)
			}
		}
	}
	if len(ms) == 0 {
		if n <= l.opts.MaxTokens {
			return []unit{u}, nil
		}
		return l.pieces(u)
	}
	var parts []unit
	if ms[0].first > u.first { // the header: signature, docstring, leading fields
		h := u
		h.last = ms[0].first - 1
		h.members = nil
		parts = append(parts, h)
	}
	parts = append(parts, l.partition(ms[0].first, u.last, ms, false)...)
	var out []unit
	for _, p := range parts {
		ps, err := l.fit(p)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// merge joins neighbours that are both under MinTokens while the joined
// text stays within MaxTokens. The merged unit takes the first kind that is
// not "lines", the names joined by ", ", and is top-level if any part was.
func (l *layout) merge(us []unit) ([]unit, error) {
	if l.opts.NoMerge {
		return us, nil
	}
	var out []unit
	var names [][]string
	for _, u := range us {
		if err := l.ctx.Err(); err != nil {
			return nil, fmt.Errorf("chunker: %w", err)
		}
		if n := len(out); n > 0 {
			p := &out[n-1]
			if l.tokens(p.first, p.last) < l.opts.MinTokens && l.tokens(u.first, u.last) < l.opts.MinTokens &&
				l.tokens(p.first, u.last) <= l.opts.MaxTokens {
				p.last = u.last
				if p.kind == "lines" {
					p.kind = u.kind
				}
				p.top = p.top || u.top
				if u.name != "" {
					names[n-1] = append(names[n-1], u.name)
				}
				continue
			}
		}
		out = append(out, u)
		var ns []string
		if u.name != "" {
			ns = append(ns, u.name)
		}
		names = append(names, ns)
	}
	for i := range out {
		out[i].name = strings.Join(collapseParts(names[i]), ", ")
	}
	return out, nil
}

// chunks materialises units.
func (l *layout) chunks(us []unit) []Chunk {
	out := make([]Chunk, 0, len(us))
	for _, u := range us {
		sb, eb := l.li.start(u.first), l.li.end(u.last)
		content := l.text
		if content == "" {
			content = string(l.li.src[sb:eb])
		} else {
			content = content[sb:eb]
		}
		out = append(out, Chunk{
			StartLine: u.first + 1,
			EndLine:   u.last + 1,
			StartByte: sb,
			EndByte:   eb,
			Kind:      u.kind,
			Name:      u.name,
			TopLevel:  u.top,
			Tokens:    l.tokens(u.first, u.last),
			Content:   content,
			Oversize:  u.oversize,
		})
	}
	return out
}

// layoutDecls runs the whole pipeline on top-level declarations ds.
func (l *layout) layoutDecls(ds []decl) ([]Chunk, error) {
	n := l.li.count()
	if len(ds) == 0 {
		return l.pieceChunks(0, n-1)
	}
	parts := l.partition(0, n-1, ds, true)
	us := make([]unit, 0, len(parts))
	for _, u := range parts {
		if u.members == nil && l.tokens(u.first, u.last) <= l.opts.MaxTokens {
			us = append(us, u) // what fit returns, without a slice per unit
			continue
		}
		ps, err := l.fit(u)
		if err != nil {
			return nil, err
		}
		us = append(us, ps...)
	}
	us, err := l.merge(us)
	if err != nil {
		return nil, err
	}
	return l.chunks(us), nil
}

// collapseParts joins runs of consecutive parts of one declaration in a
// list of names: "F (part 2/5)", "F (part 3/5)" → "F (parts 2-3/5)".
func collapseParts(names []string) []string {
	var out []string
	for i := 0; i < len(names); {
		base, a, n, ok := partOf(names[i])
		j := i + 1
		for ok && j < len(names) {
			b2, b, n2, ok2 := partOf(names[j])
			if !ok2 || b2 != base || n2 != n || b != a+(j-i) {
				break
			}
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s (parts %d-%d/%d)", base, a, a+j-i-1, n))
		} else {
			out = append(out, names[i])
		}
		i = j
	}
	return out
}

// partOf parses "Name (part i/n)".
func partOf(name string) (base string, i, n int, ok bool) {
	k := strings.LastIndex(name, " (part ")
	if k < 0 || !strings.HasSuffix(name, ")") {
		return "", 0, 0, false
	}
	if i, n, ok := partDigits(name[k+len(" (part "):]); ok {
		return name[:k], i, n, true
	}
	// Not the layout's own form: what fmt makes of it (spaces, signs).
	if _, err := fmt.Sscanf(name[k:], " (part %d/%d)", &i, &n); err != nil {
		return "", 0, 0, false
	}
	return name[:k], i, n, true
}

// partDigits reads "i/n)" — digits, a slash, digits, a parenthesis, as
// the layout writes them — at the start of s; false for anything else
// (which partOf leaves to fmt.Sscanf, 1 % of a pack's CPU when it read
// every name).
func partDigits(s string) (i, n int, ok bool) {
	slash := strings.IndexByte(s, '/')
	if slash < 0 || !allDigits(s[:slash]) {
		return 0, 0, false
	}
	rest := s[slash+1:]
	end := strings.IndexByte(rest, ')')
	if end < 0 || !allDigits(rest[:end]) {
		return 0, 0, false
	}
	a, err1 := strconv.Atoi(s[:slash])
	b, err2 := strconv.Atoi(rest[:end])
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return a, b, true
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	for j := 0; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return false
		}
	}
	return s != ""
}
