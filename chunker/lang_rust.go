package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyRust outlines Rust: use and extern crate (one header chunk),
// functions, structs, unions, enums, traits and impl blocks (their items are
// members, named "Type::item"), modules with a body (members too), consts,
// statics, type aliases and macro_rules. Outer attributes and doc comments
// above an item belong to it.
func classifyRust(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	if r, ok := rustDecls[n.Type()]; ok {
		return r.decl(o, n, in), true
	}
	if n.Type() != "impl_item" {
		return nodeDecl{}, false
	}
	t := n.ChildByFieldName("type")
	name := o.text(t)
	if tr := n.ChildByFieldName("trait"); tr != nil {
		name = o.text(tr) + " for " + name
	}
	if t != nil && t.Type() == "generic_type" {
		t = t.ChildByFieldName("type")
	}
	return nodeDecl{kind: "impl", name: name, body: n.ChildByFieldName("body"), prefix: o.text(t)}, true
}

// rustDecls are the Rust node types classifyRust reads from the type
// alone.
var rustDecls = declRules(
	rule(transparentRule, "ERROR"),
	rule(importsRule, "use_declaration", "extern_crate_declaration"),
	rule(declRule{kind: "function", inKind: "method", name: "name"}, "function_item", "function_signature_item"),
	rule(declRule{kind: "struct", name: "name"}, "struct_item", "union_item"),
	rule(declRule{kind: "enum", name: "name"}, "enum_item"),
	rule(declRule{kind: "trait", name: "name", body: true}, "trait_item"),
	rule(declRule{kind: "module", name: "name", body: true}, "mod_item", "foreign_mod_item"),
	rule(declRule{kind: "const", name: "name"}, "const_item"),
	rule(declRule{kind: "static", name: "name"}, "static_item"),
	rule(declRule{kind: "type", name: "name"}, "type_item", "associated_type"),
	rule(declRule{kind: "macro", name: "name"}, "macro_definition"),
)
