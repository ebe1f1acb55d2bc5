package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyCSharp outlines C#: using directives and a file-scoped namespace
// line (one header chunk); namespaces are containers, not chunks; classes,
// structs, interfaces, records and enums have their methods, constructors,
// properties, fields, events and nested types as members.
func classifyCSharp(o *outline, n *sitter.Node, _ string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR", "declaration_list":
		return nodeDecl{transparent: true}, true
	case "using_directive", "extern_alias_directive":
		return nodeDecl{kind: "imports", header: true}, true
	case "file_scoped_namespace_declaration":
		// Depending on the grammar version the declarations after the line
		// are children of this node or its siblings; the line itself joins
		// the header and the children are scanned as siblings.
		return nodeDecl{kind: "package", name: o.field(n, "name"), header: true, last: n.ChildByFieldName("name")}, true
	case "namespace_declaration":
		return nodeDecl{transparent: true, body: n.ChildByFieldName("body")}, true
	case "class_declaration":
		return csType(o, n, "class"), true
	case "struct_declaration", "record_struct_declaration":
		return csType(o, n, "struct"), true
	case "interface_declaration":
		return csType(o, n, "interface"), true
	case "record_declaration":
		return csType(o, n, "record"), true
	case "enum_declaration":
		return csType(o, n, "enum"), true
	case "delegate_declaration":
		return nodeDecl{kind: "type", name: o.field(n, "name")}, true
	case "method_declaration", "operator_declaration", "conversion_operator_declaration", "local_function_statement":
		name := o.field(n, "name")
		if name == "" {
			name = "operator"
		}
		return nodeDecl{kind: "method", name: name}, true
	case "constructor_declaration", "destructor_declaration":
		return nodeDecl{kind: "constructor", name: o.field(n, "name")}, true
	case "property_declaration", "indexer_declaration":
		name := o.field(n, "name")
		if name == "" {
			name = "this"
		}
		return nodeDecl{kind: "property", name: name}, true
	case "field_declaration", "event_field_declaration", "event_declaration":
		return nodeDecl{kind: "field", name: csFieldName(o, n)}, true
	case "enum_member_declaration":
		return nodeDecl{kind: "field", name: o.field(n, "name")}, true
	}
	return nodeDecl{}, false
}

func csType(o *outline, n *sitter.Node, kind string) nodeDecl {
	return nodeDecl{kind: kind, name: o.field(n, "name"), body: n.ChildByFieldName("body")}
}

// csFieldName names a field or event after its first declarator.
func csFieldName(o *outline, n *sitter.Node) string {
	if name := o.field(n, "name"); name != "" {
		return name
	}
	v := firstOfType(firstOfType(n, "variable_declaration"), "variable_declarator")
	if name := o.field(v, "name"); name != "" {
		return name
	}
	return o.text(firstOfType(v, "identifier"))
}
