package chunker

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// heading is a markdown heading: its first line and level (1-6).
type heading struct {
	line, level int
	text        string
}

// outlineMarkdown outlines markdown into sections by heading. A section runs
// from its heading to the next heading of the same or a higher level; its
// subsections are its members. Lines before the first heading (front
// matter, preamble) are one "preamble" chunk. Headings inside block quotes
// and lists do not start sections.
func outlineMarkdown(o *outline, root *sitter.Node) []decl {
	var hs []heading
	o.collectHeadings(root, &hs)
	var ds []decl
	if len(hs) == 0 || hs[0].line > 0 {
		end := o.li.count() - 1
		if len(hs) > 0 {
			end = hs[0].line - 1
		}
		ds = append(ds, decl{first: 0, last: end, kind: "preamble", sig: -1})
	}
	return append(ds, sections(hs, 0, len(hs), o.li.count()-1, true)...)
}

// sections returns the outermost sections among headings hs[a:b], the last
// one ending on line end.
func sections(hs []heading, a, b, end int, top bool) []decl {
	var out []decl
	for j := a; j < b; {
		e := j + 1
		for e < b && hs[e].level > hs[j].level {
			e++
		}
		last := end
		if e < b {
			last = hs[e].line - 1
		}
		d := decl{first: hs[j].line, last: last, kind: "section", name: hs[j].text, top: top, head: hs[j].line, sig: hs[j].line}
		if e > j+1 {
			from, to := j+1, e
			d.members = func() []decl { return sections(hs, from, to, last, false) }
		}
		out = append(out, d)
		j = e
	}
	return out
}

// collectHeadings appends the headings found in document and section nodes.
func (o *outline) collectHeadings(n *sitter.Node, hs *[]heading) {
	for _, k := range children(n) {
		if o.ctx.Err() != nil {
			return
		}
		switch k.Type() {
		case "section", "document":
			o.collectHeadings(k, hs)
		case "atx_heading":
			level := 1
			for _, m := range children(k) {
				if t, ok := strings.CutPrefix(m.Type(), "atx_h"); ok && len(t) > 0 {
					level = int(t[0] - '0')
				}
			}
			text := strings.TrimRight(strings.TrimSpace(o.field(k, "heading_content")), "#")
			*hs = append(*hs, heading{line: o.li.lineOf(int(k.StartByte())), level: level, text: strings.TrimSpace(text)})
		case "setext_heading":
			level := 1
			if firstOfType(k, "setext_h2_underline") != nil {
				level = 2
			}
			text := strings.Join(strings.Fields(o.field(k, "heading_content")), " ")
			*hs = append(*hs, heading{line: o.li.lineOf(int(k.StartByte())), level: level, text: text})
		}
	}
}
