package chunker

import (
	"bytes"
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// Document keeps the parsed tree of one open file so that each edit is
// re-parsed incrementally. A Document is for one goroutine at a time (the
// language server's document store serialises edits per file); Close frees
// its C memory.
type Document struct {
	path string
	g    *grammar // nil when the language has no grammar
	src  []byte
	tree *sitter.Tree
}

// NewDocument returns an empty document for path.
func NewDocument(path string) *Document {
	return &Document{path: path, g: grammarFor(Language(path))}
}

// Update replaces the document's text with src and returns its chunks, as
// [Split] would. With a previous tree, the change is described to
// tree-sitter as one edit (the bytes between the common prefix and the
// common suffix of the old and new text, with row/column points) and the
// tree is re-parsed incrementally from the old one.
//
// A tree re-parsed after an edit can differ from a fresh parse inside
// syntax errors (tree-sitter's error recovery depends on history); on valid
// code the chunks equal those of [Split].
func (d *Document) Update(ctx context.Context, src []byte, count Counter, opts Options) ([]Chunk, error) {
	if count == nil {
		return nil, fmt.Errorf("chunker: update %s: nil counter", d.path)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: update %s: %w", d.path, err)
	}
	src = append([]byte(nil), src...) // the old text must survive the caller's buffer
	l := newLayout(ctx, src, count, opts)
	if d.g == nil || !l.opts.PreferStructural {
		d.closeTree()
		d.src = src
		return l.pieceChunks(0, l.li.count()-1)
	}
	old := d.tree
	if old != nil {
		editTree(old, diffEdit(d.src, src))
	}
	tree, err := d.g.parse(ctx, old, src)
	if err != nil {
		d.closeTree() // the old tree was edited; it no longer matches d.src
		d.src = nil
		return nil, fmt.Errorf("chunker: parse %s: %w", d.path, err)
	}
	d.closeTree()
	d.tree, d.src = tree, src
	if l.li.count() == 0 {
		return []Chunk{}, nil
	}
	return l.structuralChunks(d.g, tree.RootNode())
}

// Close frees the document's tree. The document can be reused: the next
// Update parses from scratch.
func (d *Document) Close() {
	d.closeTree()
	d.src = nil
}

func (d *Document) closeTree() {
	if d.tree != nil {
		d.tree.Close()
		d.tree = nil
	}
}

// diffEdit describes the change from old to new text as one tree-sitter
// edit: the bytes after the common prefix and before the common suffix.
func diffEdit(old, new []byte) sitter.EditInput {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	oldEnd, newEnd := len(old)-suf, len(new)-suf
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
