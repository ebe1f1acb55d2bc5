package chunker

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Document keeps what one open file's next version needs to be chunked
// quickly: the text, the file's top-level syntax nodes and the counts of
// its chunks. A Document is for one goroutine at a time (the language
// server's document store serialises edits per file); Close frees it.
//
// For the languages outlined from their top-level nodes (all but
// markdown), an edit re-parses only a window of whole top-level nodes
// around it: tree-sitter's own incremental re-parse walks every top-level
// sibling again, which on a 1 MB file costs a quarter of a full parse.
// The window starts and ends on a line start with a node that the edit did
// not touch, and it is taken only when its parse gives back both of those
// nodes exactly (same span and type), so the nodes outside it are those a
// full parse gives; otherwise it is widened, up to the whole file. No tree
// is kept between edits. Chunks whose text did not change keep their count.
// The tree of the last whole parse is kept and edited along, so that a
// whole parse is incremental; [Document.DropTree] frees it. Markdown is
// always re-parsed whole, incrementally.
//
// A window is taken only when it parses without a syntax error and the
// nodes next to it had none: tree-sitter's recovery from an error can
// reach far beyond it, so an edit that leaves an error, or is next to
// one, re-parses the whole file. The chunks equal those of [Split] (as far
// as tree-sitter's incremental re-parse equals a fresh parse, which it
// does on every edit of TestDocumentRandomEdits).
type Document struct {
	path string
	lang string
	g    *grammar // nil when the language has no grammar
	so   *siblingOutline

	text   string        // the text of the last Update
	items  []item        // its top-level nodes (sibling-outlined languages)
	counts []countedSpan // the byte spans and counts of its chunks
	tree   *sitter.Tree  // its tree, edited along (re-parsed only when a window will not do)

	// provisional is set when the items (and the chunks of the last
	// update) came from a window with a syntax error, or next to one,
	// parsed alone ([Document.UpdateQuick]): a whole parse may place the
	// error's recovery differently. The next whole parse lists every
	// top-level node again ([Document.Settle]).
	provisional bool
	quick       bool // the update under way may be provisional (UpdateQuick)

	windows, wholes, quicks int // updates done by a window, by a whole parse, provisionally (for tests)
}

// siblingOutline is how a language is outlined from the children of its
// root node, one child at a time.
type siblingOutline struct {
	classify classifier
	sep      string
}

// siblingOutlines are the languages whose outline is outlineWith(classify,
// sep): those a Document can re-parse by windows (see grammars).
var siblingOutlines = map[string]*siblingOutline{
	"go": {classifyGo, "."}, "python": {classifyPython, "."},
	"javascript": {classifyJS, "."}, "typescript": {classifyJS, "."}, "tsx": {classifyJS, "."},
	"java": {classifyJava, "."}, "csharp": {classifyCSharp, "."},
	"rust": {classifyRust, "::"}, "c": {classifyC, "::"}, "cpp": {classifyC, "::"},
}

// item is one top-level named node of a document and the declarations it
// makes. Positions are absolute; the lines of its declarations are
// relative to the item's first line, so that an item moved by an edit
// above it is shifted by changing first and last only.
type item struct {
	start, end  int // byte span of the node
	first, last int // lines of the node
	sym         sitter.Symbol
	bad         bool // the node holds a syntax error
	doc         bool // a doc node starting its line: it may lead the declaration below
	primary     bool // decls[0] is the node's own declaration (its doc comments are above it)
	decls       []decl
}

// countedSpan is the byte span of a chunk and its token count.
type countedSpan struct {
	start, end, tokens int
}

// needMembers stands for the members of a declaration kept in an item:
// the tree they come from is gone, so a layout that asks for them is done
// again from a full parse.
func needMembers() []decl { return nil }

// NewDocument returns an empty document for path.
func NewDocument(path string) *Document {
	lang := Language(path)
	return &Document{path: path, lang: lang, g: grammarFor(lang), so: siblingOutlines[lang]}
}

// Update replaces the document's text with src and returns its chunks, as
// [Split] would. The counts of chunks whose text did not change are taken
// from the previous Update: count must be the same function each time
// (after Close any may be used).
func (d *Document) Update(ctx context.Context, src []byte, count Counter, opts Options) ([]Chunk, error) {
	return d.UpdateText(ctx, string(src), count, opts)
}

// UpdateText is [Document.Update] for a text held as a string: the
// document keeps text itself (no copy) and the chunks' contents are
// slices of it.
func (d *Document) UpdateText(ctx context.Context, text string, count Counter, opts Options) ([]Chunk, error) {
	if count == nil {
		return nil, fmt.Errorf("chunker: update %s: nil counter", d.path)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: update %s: %w", d.path, err)
	}
	src := bytesOf(text)
	l := newLayout(ctx, src, count, opts)
	l.text = text
	l.known = d.knownCounts(text)
	var (
		chunks []Chunk
		err    error
	)
	switch {
	case d.g == nil || !l.opts.PreferStructural || l.li.count() == 0:
		d.Close()
		chunks, err = l.pieceChunks(0, l.li.count()-1)
	case d.so == nil:
		chunks, err = d.updateTree(ctx, l, src)
	default:
		chunks, err = d.updateItems(ctx, l, text)
	}
	if err != nil {
		d.Close() // the next Update starts from scratch
		return nil, err
	}
	d.keep(text, chunks)
	return chunks, nil
}

// keep records text and the spans and counts of its chunks.
func (d *Document) keep(text string, chunks []Chunk) {
	d.text = text
	d.counts = d.counts[:0]
	for _, c := range chunks {
		d.counts = append(d.counts, countedSpan{c.StartByte, c.EndByte, c.Tokens})
	}
}

// Close forgets the document's state and frees its tree. The document can
// be reused: the next Update parses from scratch.
func (d *Document) Close() {
	d.closeTree()
	d.text, d.items, d.counts, d.provisional = "", nil, nil, false
}

func (d *Document) closeTree() {
	if d.tree != nil {
		d.tree.Close()
		d.tree = nil
	}
}

// knownCounts returns a lookup of the counts of the previous chunks whose
// text is the same in text: those wholly inside the common prefix or the
// common suffix of the old and new texts.
func (d *Document) knownCounts(text string) func(start, end int) (int, bool) {
	if len(d.counts) == 0 {
		return nil
	}
	old, spans := d.text, d.counts
	pre, oldEnd, newEnd := diffRange(old, text)
	shift := newEnd - oldEnd
	return func(start, end int) (int, bool) {
		switch {
		case end <= pre:
		case start >= newEnd:
			start, end = start-shift, end-shift
		default:
			return 0, false
		}
		i := sort.Search(len(spans), func(i int) bool { return spans[i].start >= start })
		if i < len(spans) && spans[i].start == start && spans[i].end == end {
			return spans[i].tokens, true
		}
		return 0, false
	}
}

// updateTree chunks src with the kept tree, re-parsed incrementally.
func (d *Document) updateTree(ctx context.Context, l *layout, src []byte) ([]Chunk, error) {
	old := d.tree
	if old != nil {
		editTree(old, diffEdit(bytesOf(d.text), src))
	}
	tree, err := d.g.parse(ctx, old, src)
	d.closeTree() // after an error too: the old tree was edited and no longer matches d.text
	if err != nil {
		return nil, fmt.Errorf("chunker: parse %s: %w", d.path, err)
	}
	d.tree = tree
	return l.structuralChunks(d.g, tree.RootNode())
}

// updateItems chunks text from its top-level nodes: those of the previous
// version outside the edit, and those of a window around it parsed alone.
// When the window has a syntax error, the whole text is parsed instead,
// incrementally from the kept tree when there is one: tree-sitter's error
// recovery may reach beyond the window.
func (d *Document) updateItems(ctx context.Context, l *layout, text string) ([]Chunk, error) {
	src := l.li.src
	if d.items != nil {
		if d.tree != nil {
			editTree(d.tree, diffEdit(bytesOf(d.text), src)) // re-parsed when a window will not do
		}
		items, ok, provisional, err := d.window(ctx, l, text)
		if err != nil {
			return nil, err
		}
		if ok {
			needed := false
			chunks, err := l.layoutDecls(assemble(items, func() []decl { needed = true; return nil }))
			if err != nil {
				return nil, err
			}
			if !needed {
				d.items, d.provisional = items, provisional
				if provisional {
					d.quicks++
				} else {
					d.windows++
				}
				return chunks, nil
			}
		}
	}
	return d.whole(ctx, l, text)
}

// whole chunks text by a whole parse, incremental from the kept tree when
// there is one (edited along to text).
func (d *Document) whole(ctx context.Context, l *layout, text string) ([]Chunk, error) {
	src := l.li.src
	d.wholes++
	// A whole parse: the first version, a window with a syntax error or
	// whose boundary nodes changed, or a declaration split into members.
	tree, err := d.g.parse(ctx, d.tree, src)
	if err != nil {
		d.closeTree()
		return nil, fmt.Errorf("chunker: parse %s: %w", d.path, err)
	}
	o := &outline{li: l.li, src: src, ctx: ctx}
	root := tree.RootNode()
	if d.tree != nil && d.items != nil && !d.provisional {
		// Re-parsed from the kept tree: the nodes outside the edit and
		// outside the ranges whose syntax changed are those of the items.
		pre, _, newEnd := diffRange(d.text, text)
		dirty := append(changedRanges(d.tree, tree), [2]int{pre, newEnd})
		d.items = d.so.reitems(o, tree, shiftItems(d.items, d.text, text), dirty)
	} else {
		d.items = d.so.items(o, root, 0, 0)
	}
	d.provisional = false
	d.closeTree()
	d.tree = tree
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: %w", err)
	}
	needed := false
	chunks, err := l.layoutDecls(assemble(d.items, func() []decl { needed = true; return nil }))
	if err != nil || !needed {
		return chunks, err
	}
	return l.structuralChunks(d.g, root)
}

// DropTree frees the document's parsed tree but keeps the rest: edits
// still re-parse windows, and a whole parse, when one is needed, starts
// from scratch.
func (d *Document) DropTree() { d.closeTree() }

// window returns the top-level nodes of text: the previous version's
// outside a window around the edit, and the window's, parsed alone. ok is
// false when the window has a syntax error, touches a node that had one,
// or does not give back its boundary nodes, and when no window short of
// the whole file does (the caller then parses the whole file).
//
// In an update that may be provisional (d.quick), a window with a syntax
// error, or next to a node that had one, is taken too when it gives back
// its boundary nodes; provisional then says so (and stays set while the
// document's items are provisional). Otherwise a provisional document
// takes no window.
func (d *Document) window(ctx context.Context, l *layout, text string) (items []item, ok, provisional bool, err error) {
	old, its := d.text, d.items
	n := len(its)
	if n == 0 || !d.mayWindow() {
		return nil, false, false, nil
	}
	provisional = d.provisional
	pre, oldEnd, newEnd := diffRange(old, text)
	shift := newEnd - oldEnd
	// Items i0..i1 touch the edit (none when i0 > i1: it is between them).
	i0 := sort.Search(n, func(i int) bool { return its[i].end >= pre })
	i1 := sort.Search(n, func(i int) bool { return its[i].start > oldEnd }) - 1
	for margin := 1; ; margin *= 4 {
		lo, hi, ws, we := windowBounds(old, its, i0, i1, margin)
		if (lo == 0 && hi == n-1) || 2*(we-ws) > len(old) {
			return nil, false, false, nil // parse the whole file as such
		}
		nearBad := anyBad(its[max(lo-1, 0) : min(hi+1, n-1)+1])
		if nearBad && !d.quick {
			return nil, false, false, nil // an error's recovery may have reached it
		}
		wi, clean, err := d.parseWindow(ctx, l, text, ws, we+shift)
		if err != nil {
			return nil, false, false, err
		}
		if !clean && !d.quick {
			return nil, false, false, nil
		}
		if !boundsKept(wi, its, lo, hi, shift) {
			continue
		}
		lineShift := strings.Count(text[ws:we+shift], "\n") - strings.Count(old[ws:we], "\n")
		return splice(its, lo, hi, wi, shift, lineShift), true, provisional || nearBad || !clean, nil
	}
}

// mayWindow reports whether d may take a window: a provisional document
// takes one only in an update that may be provisional (d.quick).
func (d *Document) mayWindow() bool { return !d.provisional || d.quick }

// boundsKept reports whether the items wi of a window over its[lo..hi]
// give back its boundary nodes: the first is its[lo] unless lo is the
// first item, the last its[hi] (moved by shift) unless hi is the last.
func boundsKept(wi, its []item, lo, hi, shift int) bool {
	n := len(its)
	return len(wi) > 0 && (lo == 0 || sameItem(wi[0], its[lo], 0)) && (hi == n-1 || sameItem(wi[len(wi)-1], its[hi], shift))
}

// windowBounds widens the items i0..i1 that touch an edit by margin items
// each side, to whole lines of old: items lo..hi, bytes ws..we of old.
func windowBounds(old string, its []item, i0, i1, margin int) (lo, hi, ws, we int) {
	n := len(its)
	lo, hi = max(min(i0, i1+1)-margin, 0), min(max(i1, i0-1)+margin, n-1)
	for lo > 0 && !lineStart(old, its[lo].start) {
		lo--
	}
	if lo > 0 {
		ws = its[lo].start
	}
	we = len(old)
	for ; hi < n-1; hi++ {
		we = lineEnd(old, its[hi].end)
		if its[hi+1].start >= we {
			break
		}
	}
	if hi == n-1 {
		we = len(old)
	}
	return lo, hi, ws, we
}

// anyBad reports whether one of its holds a syntax error.
func anyBad(its []item) bool {
	for _, it := range its {
		if it.bad {
			return true
		}
	}
	return false
}

// splice replaces items lo..hi of its by the window's items wi and moves
// the items after them by shift bytes and lineShift lines.
func splice(its []item, lo, hi int, wi []item, shift, lineShift int) []item {
	items := make([]item, 0, lo+len(wi)+len(its)-1-hi)
	items = append(items, its[:lo]...)
	items = append(items, wi...)
	for _, it := range its[hi+1:] {
		it.start += shift
		it.end += shift
		it.first += lineShift
		it.last += lineShift
		items = append(items, it)
	}
	return items
}

// parseWindow parses text[ws:we] (ws on a line start) alone and returns
// its top-level nodes, placed in text, and whether it has no syntax error.
func (d *Document) parseWindow(ctx context.Context, l *layout, text string, ws, we int) ([]item, bool, error) {
	src := bytesOf(text[ws:we])
	tree, err := d.g.parse(ctx, nil, src)
	if err != nil {
		return nil, false, fmt.Errorf("chunker: parse %s: %w", d.path, err)
	}
	defer tree.Close()
	root := tree.RootNode()
	clean := !root.HasError()
	if !clean && !d.quick {
		return nil, false, nil
	}
	o := &outline{li: newLineIndex(src), src: src, ctx: ctx}
	items := d.so.items(o, root, ws, l.li.lineOf(ws))
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("chunker: %w", err)
	}
	return items, clean, nil
}

// items lists the top-level nodes under root of the source o outlines,
// which starts at byte off and line lineOff of the document.
func (so *siblingOutline) items(o *outline, root *sitter.Node, off, lineOff int) []item {
	kids := children(root)
	out := make([]item, 0, len(kids))
	for _, k := range kids {
		if o.ctx.Err() != nil {
			return nil
		}
		out = append(out, so.item(o, k, off, lineOff))
	}
	return out
}

// item describes the top-level node k.
func (so *siblingOutline) item(o *outline, k *sitter.Node, off, lineOff int) item {
	start, end := int(k.StartByte()), int(k.EndByte())
	first, last := o.li.span(start, end)
	it := item{
		start: start + off, end: end + off, first: first + lineOff, last: last + lineOff,
		sym: k.Symbol(), bad: k.HasError(),
		doc: isDocNode(k.Type()) && o.li.startsLine(start),
	}
	it.decls, it.primary = o.kidDecls(so.classify, so.sep, []*sitter.Node{k}, 0, "", true)
	for j := range it.decls {
		dc := &it.decls[j]
		dc.first -= first
		dc.last -= first
		dc.head -= first
		if dc.members != nil {
			dc.members = needMembers // the tree is closed after this
		}
	}
	return it
}

// reitems lists the top-level nodes of tree (a whole parse of o's
// source), taking those that lie outside the dirty byte ranges and match
// an item of old (same span, type and error state) from old instead of
// outlining them again. Too many dirty nodes and it outlines them all.
func (so *siblingOutline) reitems(o *outline, tree *sitter.Tree, old []item, dirty [][2]int) []item {
	root := tree.RootNode()
	kids := rootKids(tree)
	reuse := make([]int, len(kids)) // index in old + 1, or 0
	fresh := 0
	for i, j := 0, 0; i < len(kids); i++ {
		k := kids[i]
		if !touches(k.start, k.end, dirty) {
			for j < len(old) && old[j].start < k.start {
				j++
			}
			if j < len(old) && old[j].start == k.start && old[j].end == k.end && old[j].sym == k.sym && old[j].bad == k.bad {
				reuse[i] = j + 1
				continue
			}
		}
		if fresh++; fresh > 32 {
			return so.items(o, root, 0, 0) // a node by index costs a walk of its siblings
		}
	}
	out := make([]item, 0, len(kids))
	for i, k := range kids {
		if o.ctx.Err() != nil {
			return nil
		}
		if reuse[i] > 0 {
			out = append(out, old[reuse[i]-1])
			continue
		}
		out = append(out, so.item(o, root.Child(k.index), 0, 0))
	}
	return out
}

// touches reports whether bytes [start, end] meet one of the ranges.
func touches(start, end int, ranges [][2]int) bool {
	for _, r := range ranges {
		if start <= r[1] && end >= r[0] {
			return true
		}
	}
	return false
}

// shiftItems returns the items of the previous text that lie wholly
// outside the edit from old to text, placed in text.
func shiftItems(its []item, old, text string) []item {
	pre, oldEnd, newEnd := diffRange(old, text)
	shift := newEnd - oldEnd
	lineShift := strings.Count(text[pre:newEnd], "\n") - strings.Count(old[pre:oldEnd], "\n")
	out := make([]item, 0, len(its))
	for _, it := range its {
		switch {
		case it.end < pre:
		case it.start > oldEnd:
			it.start += shift
			it.end += shift
			it.first += lineShift
			it.last += lineShift
		default:
			continue
		}
		out = append(out, it)
	}
	return out
}

// assemble lists the top-level declarations of items, as the outline of
// the whole tree would: each item's own declaration takes the doc comments
// right above it, and neighbouring headers are grouped. A declaration
// with members gets members, which may only be called if the layout needs
// them.
func assemble(items []item, members func() []decl) []decl {
	n := 0
	for i := range items {
		n += len(items[i].decls)
	}
	out := make([]decl, 0, n)
	for i := range items {
		it := &items[i]
		for j, dc := range it.decls {
			dc.first += it.first
			dc.last += it.first
			dc.head += it.first
			if j == 0 && it.primary {
				dc.first = leadingDocItems(items[:i], dc.head)
			}
			if dc.members != nil {
				dc.members = members
			}
			out = append(out, dc)
		}
	}
	return groupHeaders(out)
}

// leadingDocItems is [outline.leadingDocs] over items.
func leadingDocItems(before []item, first int) int {
	for i := len(before) - 1; i >= 0; i-- {
		it := &before[i]
		if !it.doc || (it.last != first-1 && it.last != first) {
			break
		}
		first = it.first
	}
	return first
}

// sameItem reports whether a (from a window) is b moved by shift bytes.
func sameItem(a, b item, shift int) bool {
	return a.start == b.start+shift && a.end == b.end+shift && a.sym == b.sym && !a.bad && !b.bad
}

// lineStart reports whether offset off of s starts a line.
func lineStart(s string, off int) bool { return off == 0 || s[off-1] == '\n' }

// lineEnd returns the end of the line holding the byte before off (just
// after its newline), or len(s).
func lineEnd(s string, off int) int {
	if off > 0 && s[off-1] == '\n' {
		return off
	}
	if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(s)
}

// diffRange returns the edit from old to new: the common prefix ends at
// pre, and the common suffix (not overlapping it) starts at oldEnd in old
// and newEnd in new.
func diffRange(old, new string) (pre, oldEnd, newEnd int) {
	m := min(len(old), len(new))
	pre = commonPrefix(old[:m], new[:m])
	suf := commonSuffix(old[pre:], new[pre:])
	return pre, len(old) - suf, len(new) - suf
}

// commonPrefix is the length of the common prefix of a and b (of equal
// length), compared in blocks first.
func commonPrefix(a, b string) int {
	const block = 4096
	i := 0
	for i+block <= len(a) && a[i:i+block] == b[i:i+block] {
		i += block
	}
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the common suffix of a and b.
func commonSuffix(a, b string) int {
	const block = 4096
	n := 0
	for n+block <= min(len(a), len(b)) && a[len(a)-n-block:len(a)-n] == b[len(b)-n-block:len(b)-n] {
		n += block
	}
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// bytesOf returns the bytes of s without a copy; they are never written.
func bytesOf(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// stringOf returns b as a string without a copy; b is not written while
// the string is in use.
func stringOf(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// diffEdit describes the change from old to new text as one tree-sitter
// edit: the bytes after the common prefix and before the common suffix.
func diffEdit(old, new []byte) sitter.EditInput {
	pre, oldEnd, newEnd := diffRange(stringOf(old), stringOf(new))
	return sitter.EditInput{
		StartIndex:  uint32(pre),
		OldEndIndex: uint32(oldEnd),
		NewEndIndex: uint32(newEnd),
		StartPoint:  pointAt(new, pre), // the prefix is the same in both texts
		OldEndPoint: pointAt(old, oldEnd),
		NewEndPoint: pointAt(new, newEnd),
	}
}

// pointAt returns the tree-sitter point (0-based row, byte column) of
// offset off in src.
func pointAt(src []byte, off int) sitter.Point {
	head := src[:off]
	return sitter.Point{
		Row:    uint32(bytes.Count(head, []byte{'\n'})),
		Column: uint32(off - (bytes.LastIndexByte(head, '\n') + 1)),
	}
}
