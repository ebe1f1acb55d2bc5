package chunker

import (
	"context"
	"fmt"
	"sort"

	sitter "github.com/smacker/go-tree-sitter"
)

// LineRange is a run of whole lines, 1-based and inclusive.
type LineRange struct{ Start, End int }

// Outline limits: the doc comment lines and signature lines kept of one
// declaration.
const (
	outlineDocLines = 3
	outlineSigLines = 6
)

// bodyTypes are the node types that hold a declaration's body: the
// signature of a declaration ends on the line where the first of them
// starts.
var bodyTypes = map[string]bool{
	"block": true, "statement_block": true, "compound_statement": true, "constructor_body": true,
	"class_body": true, "interface_body": true, "enum_body": true, "annotation_type_body": true,
	"declaration_list": true, "field_declaration_list": true, "enum_variant_list": true,
	"object_type": true, "object": true, "record_declaration_body": true,
}

// signatureEnd returns the line where n's body starts (its signature ends
// there), or its first line when it has no body of more than one line.
func (o *outline) signatureEnd(n *sitter.Node, first, last int) int {
	if o.bodies != nil {
		return o.signatureEndC(n, first, last)
	}
	if b := findBody(n, 6); b != nil {
		line := o.li.lineOf(int(b.StartByte()))
		if line > first && o.li.startsLine(int(b.StartByte())) {
			// The body starts its own line (a Python block, a brace on its
			// own line): the signature ends above it, and a docstring that
			// opens the body belongs to it.
			line--
			if k := children(b); len(k) > 0 && k[0].Type() == "expression_statement" {
				if s := children(k[0]); len(s) == 1 && s[0].Type() == "string" {
					line = o.li.lineOf(int(k[0].EndByte()) - 1)
				}
			}
		}
		return max(first, min(last, line))
	}
	if last-first < 2 {
		return last // a short declaration (a field, a one-line type) is its own signature
	}
	return first
}

// signatureEndC is signatureEnd with the body found in one call into C
// (findBodyC, o.bodies), not a Node per child: on a cold map, which
// outlines every file it parses, findBody was a fifth of the parse's
// time.
func (o *outline) signatureEndC(n *sitter.Node, first, last int) int {
	start, docEnd, ok := findBodyC(n, 6, o.bodies)
	if !ok {
		if last-first < 2 {
			return last
		}
		return first
	}
	line := o.li.lineOf(start)
	if line > first && o.li.startsLine(start) {
		line-- // as in signatureEnd
		if docEnd >= 0 {
			line = o.li.lineOf(docEnd - 1)
		}
	}
	return max(first, min(last, line))
}

// findBody returns the first body node in n's subtree (pre-order, at most
// depth levels down), or nil.
func findBody(n *sitter.Node, depth int) *sitter.Node {
	if n == nil || depth < 0 {
		return nil
	}
	for _, k := range children(n) {
		if bodyTypes[k.Type()] {
			return k
		}
		if b := findBody(k, depth-1); b != nil {
			return b
		}
	}
	return nil
}

// Outline returns the lines of a file's outline (docs/design.md#rule-8): for every
// declaration, also the members of classes, impl blocks, describe blocks
// and sections, the first lines of its doc comment and its signature — from
// its first line to the line where its body starts — in line order, runs
// of neighbouring lines joined. Imports and code outside declarations are
// left out; a file without a grammar, or without declarations, has no
// outline (nil). The lines are the file's own, so an outline can be packed
// like chunks, bodies elided by gap markers.
func Outline(ctx context.Context, path string, src []byte) ([]LineRange, error) {
	lang := Language(path)
	if lang == "" || len(src) == 0 {
		return nil, nil
	}
	g := grammarFor(lang)
	tree, err := g.parse(ctx, nil, src)
	if err != nil {
		return nil, fmt.Errorf("chunker: outline %s: %w", path, err)
	}
	defer tree.Close()
	o := &outline{li: newLineIndex(src), src: src, ctx: ctx, sigs: true, bodies: g.bodyFlags()}
	rs := outlineRanges(ctx, g.outline(o, tree.RootNode()))
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("chunker: outline %s: %w", path, err)
	}
	return rs, nil
}

// outlineRanges returns the outline lines ([Outline]) of declarations ds,
// found with signatures (outline.sigs); their members are listed from the
// syntax tree, which must still be open.
func outlineRanges(ctx context.Context, ds []decl) []LineRange {
	var lines []LineRange
	var walk func(ds []decl)
	walk = func(ds []decl) {
		for _, d := range ds {
			if ctx.Err() != nil {
				return
			}
			if d.kind == "imports" || d.kind == "package" || d.kind == "preamble" || d.sig < 0 {
				continue
			}
			head := max(d.head, d.first)
			if head > d.first { // doc comment lines
				lines = append(lines, LineRange{d.first + 1, min(head, d.first+outlineDocLines)})
			}
			sig := min(max(d.sig, head), d.last, head+outlineSigLines-1)
			lines = append(lines, LineRange{head + 1, sig + 1})
			if d.members != nil {
				walk(d.members())
			}
		}
	}
	walk(ds)
	return joinRanges(lines)
}

// joinRanges sorts ranges and joins those that overlap or touch.
func joinRanges(rs []LineRange) []LineRange {
	if len(rs) == 0 {
		return nil
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Start <= last.End+1 {
			last.End = max(last.End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}
