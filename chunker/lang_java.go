package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyJava outlines Java: package and imports (one header chunk),
// classes, interfaces, enums, records and annotation types, whose methods,
// constructors, fields and nested types are their members.
func classifyJava(o *outline, n *sitter.Node, _ string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR", "enum_body_declarations":
		return nodeDecl{transparent: true}, true
	case "package_declaration":
		return nodeDecl{kind: "package", name: o.text(firstOfType(n, "scoped_identifier", "identifier")), header: true}, true
	case "import_declaration":
		return nodeDecl{kind: "imports", header: true}, true
	case "class_declaration":
		return javaType(o, n, "class"), true
	case "interface_declaration", "annotation_type_declaration":
		return javaType(o, n, "interface"), true
	case "enum_declaration":
		return javaType(o, n, "enum"), true
	case "record_declaration":
		return javaType(o, n, "record"), true
	case "method_declaration", "annotation_type_element_declaration":
		return nodeDecl{kind: "method", name: o.field(n, "name")}, true
	case "constructor_declaration", "compact_constructor_declaration":
		return nodeDecl{kind: "constructor", name: o.field(n, "name")}, true
	case "field_declaration", "constant_declaration":
		return nodeDecl{kind: "field", name: o.field(n.ChildByFieldName("declarator"), "name")}, true
	case "enum_constant":
		return nodeDecl{kind: "field", name: o.field(n, "name")}, true
	}
	return nodeDecl{}, false
}

func javaType(o *outline, n *sitter.Node, kind string) nodeDecl {
	return nodeDecl{kind: kind, name: o.field(n, "name"), body: n.ChildByFieldName("body")}
}
