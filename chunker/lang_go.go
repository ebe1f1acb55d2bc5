package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyGo outlines Go: the package clause and imports (one header chunk),
// functions, methods named "(*T).M" or "T.M", type declarations, and
// const/var blocks (whose specs are their members).
func classifyGo(o *outline, n *sitter.Node, _ string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR":
		return nodeDecl{transparent: true}, true
	case "package_clause":
		return nodeDecl{kind: "package", name: o.text(firstOfType(n, "package_identifier")), header: true}, true
	case "import_declaration":
		return nodeDecl{kind: "imports", header: true}, true
	case "function_declaration":
		return nodeDecl{kind: "function", name: o.field(n, "name")}, true
	case "method_declaration":
		return nodeDecl{kind: "method", name: goMethodName(o, n)}, true
	case "type_declaration":
		return goGroup(o, n, "type")
	case "const_declaration":
		return goGroup(o, n, "const")
	case "var_declaration":
		return goGroup(o, n, "var")
	case "type_spec", "type_alias":
		return nodeDecl{kind: goTypeKind(n), name: o.field(n, "name")}, true
	case "const_spec", "var_spec":
		kind := "const"
		if n.Type() == "var_spec" {
			kind = "var"
		}
		return nodeDecl{kind: kind, name: o.field(n, "name")}, true
	}
	return nodeDecl{}, false
}

// goGroup classifies a type/const/var declaration, parenthesised or not.
// A group's specs are its members; it is named after its first specs.
func goGroup(o *outline, n *sitter.Node, kind string) (nodeDecl, bool) {
	list := n
	if l := firstOfType(n, "var_spec_list", "const_spec_list"); l != nil {
		list = l
	}
	var specs []*sitter.Node
	var names []string
	for _, k := range children(list) {
		switch k.Type() {
		case "type_spec", "type_alias", "const_spec", "var_spec":
			specs = append(specs, k)
			names = append(names, o.field(k, "name"))
		}
	}
	d := nodeDecl{kind: kind, name: joinNames(names)}
	if len(specs) == 1 && kind == "type" {
		d.kind = goTypeKind(specs[0])
	}
	if len(specs) > 1 {
		d.body, d.flat = list, true
	}
	return d, true
}

// goTypeKind returns "struct", "interface" or "type" for a type spec.
func goTypeKind(spec *sitter.Node) string {
	if t := spec.ChildByFieldName("type"); t != nil {
		switch t.Type() {
		case "struct_type":
			return "struct"
		case "interface_type":
			return "interface"
		}
	}
	return "type"
}

// goMethodName names a method after its receiver: "(*T).M" or "T.M"; type
// parameters of the receiver are dropped.
func goMethodName(o *outline, n *sitter.Node) string {
	name := o.field(n, "name")
	recv := firstOfType(n.ChildByFieldName("receiver"), "parameter_declaration", "variadic_parameter_declaration")
	if recv == nil {
		return name
	}
	t := recv.ChildByFieldName("type")
	pointer := false
	for t != nil && (t.Type() == "pointer_type" || t.Type() == "parenthesized_type") {
		pointer = pointer || t.Type() == "pointer_type"
		t = firstOfType(t, "type_identifier", "generic_type", "qualified_type", "pointer_type", "parenthesized_type")
	}
	if t != nil && t.Type() == "generic_type" {
		t = t.ChildByFieldName("type")
	}
	base := o.text(t)
	if pointer {
		return "(*" + base + ")." + name
	}
	return base + "." + name
}
