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
	if r, ok := jsDecls[n.Type()]; ok {
		return r.decl(o, n, in), true
	}
	switch n.Type() {
	case "type_alias_declaration":
		d := nodeDecl{kind: "type", name: o.field(n, "name")}
		if v := n.ChildByFieldName("value"); v != nil && v.Type() == "object_type" {
			d.body = v // its properties and methods are members
		}
		return d, true
	case "internal_module", "module":
		name := strings.Trim(o.field(n, "name"), "\"'`")
		return nodeDecl{kind: "module", name: name, body: n.ChildByFieldName("body")}, true
	case "expression_statement":
		if d, ok := jsStatement(o, n); ok {
			return d, true
		}
		return jsAmbient(o, n, in)
	case "ambient_declaration":
		return jsAmbient(o, n, in)
	case "lexical_declaration", "variable_declaration":
		return jsVariables(o, n), true
	case "export_statement":
		return jsExport(o, n, in)
	case "pair": // a member of an object literal
		kind := "field"
		if jsValueKind(n.ChildByFieldName("value")) == "function" {
			kind = "method"
		}
		return nodeDecl{kind: kind, name: strings.Trim(o.field(n, "key"), "\"'`")}, true
	}
	return nodeDecl{}, false
}

// jsDecls are the JavaScript and TypeScript node types classifyJS reads
// from the type alone.
var jsDecls = declRules(
	rule(transparentRule, "ERROR"),
	rule(importsRule, "import_statement"),
	rule(declRule{kind: "function", name: "name"}, "function_declaration", "generator_function_declaration", "function_signature"),
	rule(declRule{kind: "class", name: "name", body: true}, "class_declaration", "abstract_class_declaration", "class"),
	rule(declRule{kind: "interface", name: "name", body: true}, "interface_declaration"),
	rule(declRule{kind: "enum", name: "name"}, "enum_declaration"),
	// Members of a class or interface body.
	rule(declRule{kind: "method", name: "name"}, "method_definition", "method_signature", "abstract_method_signature"),
	rule(declRule{kind: "field", name: "property"}, "field_definition"),
	rule(declRule{kind: "field", name: "name"}, "public_field_definition", "property_signature"),
)

// jsAmbient classifies `declare …` and a TS namespace, which parses as an
// expression statement, by their first declaring child.
func jsAmbient(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	for _, k := range children(n) {
		if k.Type() == "statement_block" { // declare global { … }
			return nodeDecl{kind: "module", name: "global", body: k}, true
		}
		if d, ok := classifyJS(o, k, in); ok && !d.transparent {
			return d, true
		}
	}
	return nodeDecl{}, false
}

// jsExport classifies an export: of a declaration, from another module
// (imports), of a default value, or a bare export list.
func jsExport(o *outline, n *sitter.Node, in string) (nodeDecl, bool) {
	if d := n.ChildByFieldName("declaration"); d != nil {
		return classifyJS(o, d, in)
	}
	if n.ChildByFieldName("source") != nil { // export … from "…"
		return nodeDecl{kind: "imports", header: true}, true
	}
	v := n.ChildByFieldName("value")
	if v == nil {
		return nodeDecl{kind: "export"}, true
	}
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
	switch e := kids[0]; e.Type() {
	case "assignment_expression":
		return jsAssignment(o, e)
	case "call_expression":
		return jsCall(o, e)
	}
	return nodeDecl{}, false
}

// jsAssignment classifies `a.b = value` by its value (the last one of
// a = b = value).
func jsAssignment(o *outline, e *sitter.Node) (nodeDecl, bool) {
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
}

// jsCall classifies a call with a callback (describe("…", () => …),
// app.get("/", fn)): named by its callee and title, a test when the
// callee is a test function.
func jsCall(o *outline, e *sitter.Node) (nodeDecl, bool) {
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
