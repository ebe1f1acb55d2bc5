package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyCSharp outlines C#: using directives and a file-scoped namespace
// line (one header chunk); namespaces are containers, not chunks; classes,
// structs, interfaces, records and enums have their methods, constructors,
// properties, fields, events and nested types as members.
func classifyCSharp(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	if r, ok := csDecls[n.Type()]; ok {
		return r.decl(o, n, in), true
	}
	if kind, ok := csTypes[n.Type()]; ok {
		return csType(o, n, kind), true
	}
	switch n.Type() {
	case "file_scoped_namespace_declaration":
		// Depending on the grammar version the declarations after the line
		// are children of this node or its siblings; the line itself joins
		// the header and the children are scanned as siblings.
		return nodeDecl{kind: "package", name: o.field(n, "name"), header: true, last: n.ChildByFieldName("name")}, true
	case "field_declaration", "event_field_declaration", "event_declaration":
		return nodeDecl{kind: "field", name: csFieldName(o, n)}, true
	}
	return nodeDecl{}, false
}

// csDecls are the C# node types classifyCSharp reads from the type alone.
var csDecls = declRules(
	rule(transparentRule, "ERROR", "declaration_list"),
	rule(importsRule, "using_directive", "extern_alias_directive"),
	rule(declRule{transparent: true, body: true}, "namespace_declaration"),
	rule(declRule{kind: "type", name: "name"}, "delegate_declaration"),
	rule(declRule{kind: "method", name: "name", unnamed: "operator"},
		"method_declaration", "operator_declaration", "conversion_operator_declaration", "local_function_statement"),
	rule(declRule{kind: "constructor", name: "name"}, "constructor_declaration", "destructor_declaration"),
	rule(declRule{kind: "property", name: "name", unnamed: "this"}, "property_declaration", "indexer_declaration"),
	rule(declRule{kind: "field", name: "name"}, "enum_member_declaration"),
)

// csTypes are the C# type declarations and their kinds.
var csTypes = map[string]string{
	"class_declaration":         "class",
	"struct_declaration":        "struct",
	"record_struct_declaration": "struct",
	"interface_declaration":     "interface",
	"record_declaration":        "record",
	"enum_declaration":          "enum",
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
