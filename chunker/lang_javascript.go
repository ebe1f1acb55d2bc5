package chunker

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// classifyJS outlines JavaScript, TypeScript and TSX: imports and
// re-exports (one header chunk), functions, classes (methods and fields are
// members), interfaces, type aliases, enums, namespaces and modules (their
// statements are members), const/let/var declarations (kind "function" when
// they bind a function or arrow function), and export statements wrapping
// any of these.
func classifyJS(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR":
		return nodeDecl{transparent: true}, true
	case "import_statement":
		return nodeDecl{kind: "imports", header: true}, true
	case "function_declaration", "generator_function_declaration", "function_signature":
		return nodeDecl{kind: "function", name: o.field(n, "name")}, true
	case "class_declaration", "abstract_class_declaration", "class":
		return nodeDecl{kind: "class", name: o.field(n, "name"), body: n.ChildByFieldName("body")}, true
	case "interface_declaration":
		return nodeDecl{kind: "interface", name: o.field(n, "name"), body: n.ChildByFieldName("body")}, true
	case "type_alias_declaration":
		return nodeDecl{kind: "type", name: o.field(n, "name")}, true
	case "enum_declaration":
		return nodeDecl{kind: "enum", name: o.field(n, "name")}, true
	case "internal_module", "module":
		name := strings.Trim(o.field(n, "name"), "\"'`")
		return nodeDecl{kind: "module", name: name, body: n.ChildByFieldName("body")}, true
	case "ambient_declaration", "expression_statement":
		// declare …; a TS namespace parses as an expression statement.
		for _, k := range children(n) {
			if k.Type() == "statement_block" { // declare global { … }
				return nodeDecl{kind: "module", name: "global", body: k}, true
			}
			if d, ok := classifyJS(o, k, in); ok && !d.transparent {
				return d, true
			}
		}
		return nodeDecl{}, false
	case "lexical_declaration", "variable_declaration":
		return jsVariables(o, n), true
	case "export_statement":
		if d := n.ChildByFieldName("declaration"); d != nil {
			return classifyJS(o, d, in)
		}
		if n.ChildByFieldName("source") != nil { // export … from "…"
			return nodeDecl{kind: "imports", header: true}, true
		}
		if v := n.ChildByFieldName("value"); v != nil {
			d := nodeDecl{kind: jsValueKind(v), name: o.field(v, "name")}
			if d.name == "" {
				d.name = "default"
			}
			return d, true
		}
		return nodeDecl{kind: "export"}, true
	// Members of a class or interface body.
	case "method_definition", "method_signature", "abstract_method_signature":
		return nodeDecl{kind: "method", name: o.field(n, "name")}, true
	case "field_definition":
		return nodeDecl{kind: "field", name: o.field(n, "property")}, true
	case "public_field_definition", "property_signature":
		return nodeDecl{kind: "field", name: o.field(n, "name")}, true
	}
	return nodeDecl{}, false
}

// jsVariables classifies a const/let/var declaration by its declarators.
func jsVariables(o *outline, n *sitter.Node) nodeDecl {
	d := nodeDecl{kind: "variable"}
	var names []string
	for _, v := range children(n) {
		if v.Type() != "variable_declarator" {
			continue
		}
		names = append(names, o.field(v, "name"))
		if val := v.ChildByFieldName("value"); val != nil {
			if k := jsValueKind(val); k != "variable" && d.kind == "variable" {
				d.kind = k
			}
		}
	}
	d.name = joinNames(names)
	return d
}

// jsValueKind returns the kind of a declaration binding the value v.
func jsValueKind(v *sitter.Node) string {
	switch v.Type() {
	case "arrow_function", "function_expression", "function", "generator_function":
		return "function"
	case "class":
		return "class"
	}
	return "variable"
}
