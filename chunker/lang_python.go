package chunker

import sitter "github.com/smacker/go-tree-sitter"

// classifyPython outlines Python: imports (one header chunk), classes (the
// methods are members; the header keeps the class line, docstring and the
// attributes above the first method), functions, and decorated definitions
// with their decorators. Docstrings are inside their definition's node.
func classifyPython(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	switch n.Type() {
	case "ERROR":
		return nodeDecl{transparent: true}, true
	case "import_statement", "import_from_statement", "future_import_statement":
		return nodeDecl{kind: "imports", header: true}, true
	case "function_definition":
		kind := "function"
		if in != "" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: o.field(n, "name")}, true
	case "class_definition":
		return nodeDecl{kind: "class", name: o.field(n, "name"), body: n.ChildByFieldName("body")}, true
	case "decorated_definition":
		def := n.ChildByFieldName("definition")
		if def == nil {
			return nodeDecl{}, false
		}
		return classifyPython(o, def, in)
	}
	return nodeDecl{}, false
}
