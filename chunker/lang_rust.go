package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyRust outlines Rust: use and extern crate (one header chunk),
// functions, structs, unions, enums, traits and impl blocks (their items are
// members, named "Type::item"), modules with a body (members too), consts,
// statics, type aliases and macro_rules. Outer attributes and doc comments
// above an item belong to it.
func classifyRust(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR":
		return nodeDecl{transparent: true}, true
	case "use_declaration", "extern_crate_declaration":
		return nodeDecl{kind: "imports", header: true}, true
	case "function_item", "function_signature_item":
		kind := "function"
		if in != "" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: o.field(n, "name")}, true
	case "struct_item", "union_item":
		return nodeDecl{kind: "struct", name: o.field(n, "name")}, true
	case "enum_item":
		return nodeDecl{kind: "enum", name: o.field(n, "name")}, true
	case "trait_item":
		return nodeDecl{kind: "trait", name: o.field(n, "name"), body: n.ChildByFieldName("body")}, true
	case "impl_item":
		t := n.ChildByFieldName("type")
		name := o.text(t)
		if tr := n.ChildByFieldName("trait"); tr != nil {
			name = o.text(tr) + " for " + name
		}
		if t != nil && t.Type() == "generic_type" {
			t = t.ChildByFieldName("type")
		}
		return nodeDecl{kind: "impl", name: name, body: n.ChildByFieldName("body"), prefix: o.text(t)}, true
	case "mod_item", "foreign_mod_item":
		return nodeDecl{kind: "module", name: o.field(n, "name"), body: n.ChildByFieldName("body")}, true
	case "const_item":
		return nodeDecl{kind: "const", name: o.field(n, "name")}, true
	case "static_item":
		return nodeDecl{kind: "static", name: o.field(n, "name")}, true
	case "type_item", "associated_type":
		return nodeDecl{kind: "type", name: o.field(n, "name")}, true
	case "macro_definition":
		return nodeDecl{kind: "macro", name: o.field(n, "name")}, true
	}
	return nodeDecl{}, false
}
