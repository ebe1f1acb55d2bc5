package chunker

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// classifyJS outlines JavaScript, TypeScript and TSX: imports and
// re-exports (one header chunk), functions, classes (methods and fields are
// members), interfaces and object type aliases (their properties are
// members), other type aliases, enums, namespaces and modules (their
// statements are members), const/let/var declarations (kind "function" when
// they bind a function or arrow function; an object literal's properties are
// members), assignments and calls taking a function (see [jsStatement]), and
// export statements wrapping any of these.
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
		d := nodeDecl{kind: "type", name: o.field(n, "name")}
		if v := n.ChildByFieldName("value"); v != nil && v.Type() == "object_type" {
			d.body = v // its properties and methods are members
		}
		return d, true
	case "enum_declaration":
		return nodeDecl{kind: "enum", name: o.field(n, "name")}, true
	case "internal_module", "module":
		name := strings.Trim(o.field(n, "name"), "\"'`")
		return nodeDecl{kind: "module", name: name, body: n.ChildByFieldName("body")}, true
	case "ambient_declaration", "expression_statement":
		if n.Type() == "expression_statement" {
			if d, ok := jsStatement(o, n); ok {
				return d, true
			}
		}
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
			switch v.Type() {
			case "object": // export default {…}: its properties are members
				d.body, d.flat = v, true
			case "class":
				d.body = v.ChildByFieldName("body")
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
	// Members of an object literal.
	case "pair":
		kind := "field"
		if jsValueKind(n.ChildByFieldName("value")) == "function" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: strings.Trim(o.field(n, "key"), "\"'`")}, true
	}
	return nodeDecl{}, false
}

// testCallees are the functions of test frameworks (Jest, Mocha, Jasmine,
// Vitest, AVA, node:test) whose calls declare tests and suites.
var testCallees = map[string]bool{
	"describe": true, "fdescribe": true, "xdescribe": true, "suite": true, "context": true,
	"it": true, "fit": true, "xit": true, "test": true, "xtest": true, "specify": true,
	"beforeEach": true, "afterEach": true, "beforeAll": true, "afterAll": true, "before": true, "after": true,
}

// jsStatement classifies a top-level (or member) expression statement:
// assignments (`obj.method = function …`, `exports.x = …`,
// `module.exports = {…}`; an object or class assigned has its members), and
// calls that take a function — test-framework calls (`describe`, `it`,
// `test`, kind "test", named after the callee and the title) and others
// (`utils.forEach(list, function …)`, `app.get("/", fn)`, an IIFE; kind
// "call") — whose callback's statements are their members.
func jsStatement(o *outline, n *sitter.Node) (nodeDecl, bool) {
	kids := children(n)
	if len(kids) == 0 {
		return nodeDecl{}, false
	}
	e := kids[0]
	switch e.Type() {
	case "assignment_expression":
		left, right := e.ChildByFieldName("left"), e.ChildByFieldName("right")
		for right != nil && right.Type() == "assignment_expression" { // a = b = function …
			right = right.ChildByFieldName("right")
		}
		if left == nil || right == nil {
			return nodeDecl{}, false
		}
		d := nodeDecl{kind: jsValueKind(right), name: oneLineName(o.text(left), 80), flat: true}
		switch right.Type() {
		case "object":
			d.body = right
		case "class":
			d.body = right.ChildByFieldName("body")
			d.flat = false
		}
		return d, true
	case "call_expression":
		callee := e.ChildByFieldName("function")
		fn := jsCallback(e)
		if callee == nil || fn == nil {
			return nodeDecl{}, false
		}
		for callee.Type() == "call_expression" { // test.each(table)("title", fn)
			callee = callee.ChildByFieldName("function")
		}
		d := nodeDecl{kind: "call", flat: true}
		if callee.Type() != "parenthesized_expression" {
			d.name = oneLineName(o.text(callee), 60)
		}
		if testCallees[jsBaseName(o, callee)] {
			d.kind = "test"
		}
		if t := jsTitle(o, e); t != "" {
			d.name += " " + strconvQuote(oneLineName(t, 60))
		}
		d.name = strings.TrimSpace(d.name)
		if b := fn.ChildByFieldName("body"); b != nil && b.Type() == "statement_block" {
			d.body = b
		}
		return d, true
	}
	return nodeDecl{}, false
}

// jsCallback returns the function a call passes as its last function
// argument, or the function an IIFE calls; nil when there is none.
func jsCallback(call *sitter.Node) *sitter.Node {
	var fn *sitter.Node
	for _, a := range children(call.ChildByFieldName("arguments")) {
		if jsValueKind(a) == "function" {
			fn = a
		}
	}
	if fn != nil {
		return fn
	}
	c := call.ChildByFieldName("function")
	for c != nil && c.Type() == "parenthesized_expression" {
		k := children(c)
		if len(k) != 1 {
			return nil
		}
		c = k[0]
	}
	if c != nil && jsValueKind(c) == "function" {
		return c
	}
	return nil
}

// jsBaseName returns the leftmost identifier of a callee ("test" for
// test.serial, "describe" for describe.only).
func jsBaseName(o *outline, callee *sitter.Node) string {
	for callee != nil {
		switch callee.Type() {
		case "identifier":
			return o.text(callee)
		case "member_expression":
			callee = callee.ChildByFieldName("object")
		case "call_expression":
			callee = callee.ChildByFieldName("function")
		default:
			return ""
		}
	}
	return ""
}

// jsTitle returns the first argument of a call when it is a string literal
// (a test's title, a route), without quotes.
func jsTitle(o *outline, call *sitter.Node) string {
	args := children(call.ChildByFieldName("arguments"))
	if len(args) == 0 {
		return ""
	}
	switch args[0].Type() {
	case "string", "template_string":
		t := o.text(args[0])
		if len(t) >= 2 {
			return t[1 : len(t)-1]
		}
	}
	return ""
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
	if decls := children(n); len(names) == 1 {
		for _, v := range decls {
			if v.Type() != "variable_declarator" {
				continue
			}
			switch val := v.ChildByFieldName("value"); {
			case val == nil:
			case val.Type() == "object":
				d.body = val // const defaults = {…}: its properties are members
			case val.Type() == "class":
				d.body = val.ChildByFieldName("body")
			}
		}
	}
	return d
}

// jsValueKind returns the kind of a declaration binding the value v.
func jsValueKind(v *sitter.Node) string {
	if v == nil {
		return "variable"
	}
	switch v.Type() {
	case "arrow_function", "function_expression", "function", "generator_function":
		return "function"
	case "class":
		return "class"
	}
	return "variable"
}
