package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyC outlines C and C++: includes and using declarations (one header
// chunk), functions, prototypes, structs, unions, enums, classes (members:
// methods and fields, named "Class::member"), typedefs and aliases, macros,
// and templates (the template line stays with what it declares).
// Namespaces, extern "C" blocks and preprocessor conditionals are
// containers, not chunks: their declarations count as top-level ones.
func classifyC(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	if r, ok := cDecls[n.Type()]; ok {
		return r.decl(o, n, in), true
	}
	switch n.Type() {
	case "linkage_specification":
		body := n.ChildByFieldName("body")
		if body == nil || body.Type() == "declaration_list" {
			return nodeDecl{transparent: true, body: body}, true
		}
		return classifyC(o, body, in)
	case "function_definition":
		kind := "function"
		if in != "" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: cDeclaratorName(o, n)}, true
	case "declaration", "field_declaration":
		return cDeclaration(o, n, in), true
	case "type_definition":
		return nodeDecl{kind: "type", name: cDeclaratorName(o, n)}, true
	case "template_declaration":
		for _, k := range children(n) {
			if d, ok := classifyC(o, k, in); ok && !d.transparent {
				return d, true
			}
		}
	}
	return nodeDecl{}, false
}

// cDecls are the C and C++ node types classifyC reads from the type alone.
var cDecls = declRules(
	rule(transparentRule, "ERROR", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"),
	rule(declRule{transparent: true, body: true}, "namespace_definition"),
	rule(importsRule, "preproc_include", "using_declaration"),
	rule(declRule{kind: "struct", name: "name", body: true}, "struct_specifier", "union_specifier"),
	rule(declRule{kind: "class", name: "name", body: true}, "class_specifier"),
	rule(declRule{kind: "enum", name: "name"}, "enum_specifier"),
	rule(declRule{kind: "type", name: "name"}, "alias_declaration", "concept_definition"),
	rule(declRule{kind: "macro", name: "name"}, "preproc_def", "preproc_function_def"),
)

// cDeclaration classifies a declaration: a prototype, a variable, or a
// struct/class/enum definition with a trailing declarator.
func cDeclaration(o *outline, n *sitter.Node, in string) nodeDecl {
	name := cDeclaratorName(o, n)
	if hasFunctionDeclarator(n.ChildByFieldName("declarator")) {
		kind := "function"
		if in != "" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: name}
	}
	if t := n.ChildByFieldName("type"); t != nil && t.ChildByFieldName("body") != nil {
		if d, ok := classifyC(o, t, in); ok {
			if d.name == "" {
				d.name = name
			}
			return d
		}
	}
	kind := "variable"
	if n.Type() == "field_declaration" {
		kind = "field"
	}
	return nodeDecl{kind: kind, name: name}
}

// hasFunctionDeclarator reports whether a declarator chain declares a function.
func hasFunctionDeclarator(d *sitter.Node) bool {
	for ; d != nil; d = d.ChildByFieldName("declarator") {
		if d.Type() == "function_declarator" {
			return true
		}
	}
	return false
}

// cDeclaratorName follows the declarator chain of n (pointers, arrays,
// functions, initialisers) to the declared name.
func cDeclaratorName(o *outline, n *sitter.Node) string {
	d := n.ChildByFieldName("declarator")
	for d != nil {
		switch d.Type() {
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier",
			"operator_name", "destructor_name", "primitive_type":
			return o.text(d)
		}
		next := d.ChildByFieldName("declarator")
		if next == nil {
			next = firstOfType(d, "identifier", "field_identifier", "type_identifier", "qualified_identifier", "operator_name", "destructor_name")
		}
		d = next
	}
	return ""
}
