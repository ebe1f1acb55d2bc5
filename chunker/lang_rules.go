package chunker

import sitter "github.com/smacker/go-tree-sitter"

// declRule says what a node type is when its declaration follows from the
// type alone: the classifiers look a node's type up in their language's
// table first and handle only the types that need more in code.
type declRule struct {
	kind string
	// inKind, when set, is the kind inside a container (a function
	// declared in a class or impl is a method).
	inKind string
	// name is the field holding the name ("" for none); unnamed is the
	// name when that field is empty (an operator, an indexer).
	name, unnamed string
	// body: the node's "body" field holds its members.
	body        bool
	header      bool // imports, includes: grouped into one chunk
	transparent bool // a container that is no chunk (namespaces, #ifdef)
}

// decl builds the declaration of n, inside the container named in ("" at
// top level).
func (r declRule) decl(o *outline, n *sitter.Node, in string) nodeDecl {
	d := nodeDecl{kind: r.kind, header: r.header, transparent: r.transparent}
	if in != "" && r.inKind != "" {
		d.kind = r.inKind
	}
	if r.name != "" {
		if d.name = o.field(n, r.name); d.name == "" {
			d.name = r.unnamed
		}
	}
	if r.body {
		d.body = n.ChildByFieldName("body")
	}
	return d
}

// declRules builds a table from rules listed with every node type they
// cover.
func declRules(entries ...declEntry) map[string]declRule {
	t := map[string]declRule{}
	for _, e := range entries {
		for _, typ := range e.types {
			t[typ] = e.rule
		}
	}
	return t
}

// declEntry is one rule and the node types it covers.
type declEntry struct {
	types []string
	rule  declRule
}

func rule(r declRule, types ...string) declEntry { return declEntry{types, r} }

var (
	transparentRule = declRule{transparent: true}
	importsRule     = declRule{kind: "imports", header: true}
)
