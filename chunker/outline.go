package chunker

import (
	"context"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// outline finds the declarations of one parsed source.
type outline struct {
	ctx  context.Context
	li   *lineIndex
	src  []byte
	sigs bool // find where each declaration's signature ends (for Outline)
	// bodies, when set, are the flags of the grammar's symbols
	// (bodyFlags) with which signatures end in one call into C.
	bodies []uint8
}

// nodeDecl is what a language's classifier says about one syntax node.
type nodeDecl struct {
	kind, name string
	// body holds the node's members (class body, impl block); with
	// transparent set, its declarations count as siblings of the node.
	body        *sitter.Node
	transparent bool // a container that is no chunk (namespaces, #ifdef)
	header      bool // package clause, imports, includes: grouped into one chunk
	// prefix qualifies member names (defaults to name): "Service" in
	// "Service.checkout".
	prefix string
	flat   bool // members are not qualified by the container's name
	// last, when set, ends the declaration (for a file-scoped namespace
	// whose node also spans what follows it).
	last *sitter.Node
}

// classifier reports whether n, a child of a declaration list inside the
// container named in ("" at top level), is a declaration.
type classifier func(o *outline, n *sitter.Node, in string) (nodeDecl, bool)

// outlineWith builds an outline function from a classifier; sep joins a
// container name and a member name.
func outlineWith(classify classifier, sep string) func(*outline, *sitter.Node) []decl {
	return func(o *outline, root *sitter.Node) []decl {
		return o.decls(classify, sep, root, "", true)
	}
}

// decls lists the declarations among the children of parent.
func (o *outline) decls(classify classifier, sep string, parent *sitter.Node, in string, top bool) []decl {
	kids := children(parent)
	var out []decl
	for i := range kids {
		if o.ctx.Err() != nil {
			return nil
		}
		ds, _ := o.kidDecls(classify, sep, kids, i, in, top)
		out = append(out, ds...)
	}
	return groupHeaders(out)
}

// kidDecls lists the declarations kids[i] makes (before header grouping):
// its own, with the doc comments among kids[:i] right above it (primary
// is then set and it is the first), and those of the children it is
// transparent for or that follow its end.
func (o *outline) kidDecls(classify classifier, sep string, kids []*sitter.Node, i int, in string, top bool) (out []decl, primary bool) {
	n := kids[i]
	nd, ok := classify(o, n, in)
	if !ok {
		return nil, false
	}
	if nd.transparent {
		body := nd.body
		if body == nil {
			body = n
		}
		return o.decls(classify, sep, body, in, top), false
	}
	end := n
	if nd.last != nil {
		end = nd.last
	}
	first, last := o.li.span(int(n.StartByte()), int(end.EndByte()))
	d := decl{first: o.leadingDocs(kids[:i], first), last: last, kind: nd.kind, name: nd.name, top: top, head: first}
	if o.sigs {
		d.sig = o.signatureEnd(n, first, last)
	}
	if nd.header {
		d.kind, d.top = "header:"+d.kind, false
	}
	if in != "" && d.name != "" {
		d.name = in + sep + d.name
	}
	if nd.body != nil {
		body := nd.body
		prefix := nd.prefix
		if prefix == "" {
			prefix = nd.name
		}
		if in != "" {
			prefix = in + sep + prefix
		}
		if nd.flat {
			prefix = in
		}
		d.members = func() []decl { return o.decls(classify, sep, body, prefix, false) }
	}
	out = append(out, d)
	if nd.last != nil { // the rest of the node is scanned as siblings
		out = append(out, o.decls(classify, sep, n, in, top)...)
	}
	return out, true
}

// groupHeaders merges runs of neighbouring header declarations (package
// clause, imports) into one "imports" declaration, or "package" when the
// run holds no import. The name is the package's, if any.
func groupHeaders(ds []decl) []decl {
	out := make([]decl, 0, len(ds))
	inRun := false
	for _, d := range ds {
		kind, isHeader := strings.CutPrefix(d.kind, "header:")
		if !isHeader {
			out = append(out, d)
			inRun = false
			continue
		}
		d.kind = kind
		if !inRun {
			out = append(out, d)
			inRun = true
			continue
		}
		g := &out[len(out)-1]
		g.last = max(g.last, d.last)
		if d.kind == "imports" {
			g.kind = "imports"
		}
		if g.name == "" {
			g.name = d.name
		}
	}
	return out
}

// leadingDocs extends a declaration starting on line first upward over the
// comments (and attributes) right above it: each must start its own line
// and end on the line just above what it attaches to.
func (o *outline) leadingDocs(before []*sitter.Node, first int) int {
	for i := len(before) - 1; i >= 0; i-- {
		n := before[i]
		if !isDocNode(n.Type()) || !o.li.startsLine(int(n.StartByte())) {
			break
		}
		f, l := o.li.span(int(n.StartByte()), int(n.EndByte()))
		if l != first-1 && l != first {
			break
		}
		first = f
	}
	return first
}

// isDocNode reports whether a node of type t attaches to the declaration
// below it.
func isDocNode(t string) bool {
	switch t {
	case "comment", "line_comment", "block_comment", "attribute_item", "html_comment":
		return true
	}
	return false
}

// children returns the named children of n (a tree cursor keeps this linear
// in the number of children).
func children(n *sitter.Node) []*sitter.Node {
	if n == nil {
		return nil
	}
	c := sitter.NewTreeCursor(n)
	defer c.Close()
	var out []*sitter.Node
	for ok := c.GoToFirstChild(); ok; ok = c.GoToNextSibling() {
		if k := c.CurrentNode(); k.IsNamed() {
			out = append(out, k)
		}
	}
	return out
}

// text returns the source text of n (nil-safe).
func (o *outline) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return string(o.src[n.StartByte():n.EndByte()])
}

// field returns the text of n's child in field f (nil-safe).
func (o *outline) field(n *sitter.Node, f string) string {
	if n == nil {
		return ""
	}
	return o.text(n.ChildByFieldName(f))
}

// firstOfType returns the first named child of n of one of the types.
func firstOfType(n *sitter.Node, types ...string) *sitter.Node {
	for _, k := range children(n) {
		for _, t := range types {
			if k.Type() == t {
				return k
			}
		}
	}
	return nil
}

// joinNames joins up to three names and marks the rest with "…".
func joinNames(names []string) string {
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}

// oneLineName keeps a name taken from source text on one line (white space
// runs become one space) and cuts it to at most n runes with "…".
func oneLineName(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// strconvQuote quotes a title for a name: "…" with inner quotes escaped.
func strconvQuote(s string) string { return strconv.Quote(s) }
