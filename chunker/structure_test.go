package chunker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSplitStructure checks the structure that keeps chunks small where
// code has no declarations in the usual sense: JavaScript assignments and
// test-framework calls, object literals and object types, and containers
// (classes, impl blocks, describe blocks) split into their members once
// they pass half of MaxTokens. Merging is off so each unit shows.
func TestSplitStructure(t *testing.T) {
	tests := []struct {
		name, path, src string
		max             int
		want            []span
	}{
		{
			name: "javascript prototype-style library: assignments are declarations",
			path: "lib/response.js",
			max:  1000,
			src: lines(
				"'use strict';", // 1
				"",
				"var methods = require('methods');", // 3
				"var res = module.exports = Object.create(http.ServerResponse.prototype);",
				"",
				"/**", // 6
				" * Set the HTTP status code.",
				" */",
				"res.status = function status(code) {",
				"  this.statusCode = code;",
				"  return this;",
				"};",
				"",
				"/**", // 14
				" * Send a JSON response.",
				" */",
				"res.json = function json(obj) {",
				"  var body = JSON.stringify(obj);",
				"  this.set('Content-Type', 'application/json');",
				"  return this.send(body);",
				"};",
				"",
				"exports.isAbsolute = function (path) {", // 23
				"  return path[0] === '/';",
				"};",
				"",
				"methods.forEach(function (method) {", // 27
				"  res[method] = function (path) {",
				"    return this.route(path, method);",
				"  };",
				"});",
			),
			want: []span{
				{1, 2, "lines", "", false},
				{3, 3, "variable", "methods", true},
				{4, 5, "variable", "res", true},
				{6, 13, "function", "res.status", true},
				{14, 22, "function", "res.json", true},
				{23, 26, "function", "exports.isAbsolute", true},
				{27, 31, "call", "methods.forEach", true},
			},
		},
		{
			name: "javascript module.exports object over half of max: its properties",
			path: "lib/utils.js",
			max:  100,
			src: lines(
				"module.exports = {", // 1
				"  // isString reports whether v is a string.",
				"  isString: function (v) {",
				"    return typeof v === 'string';",
				"  },",
				"  isArray: Array.isArray,", // 6
				"  trim(str) {",             // 7
				"    return str.trim ? str.trim() : str.replace(/^\\s+|\\s+$/g, '');",
				"  },",
				"};",
			),
			want: []span{
				{1, 1, "variable", "module.exports", true},
				{2, 5, "method", "isString", false},
				{6, 6, "field", "isArray", false},
				{7, 10, "method", "trim", false},
			},
		},
		{
			name: "javascript tests: describe blocks over half of max split into hooks, tests and nested suites",
			path: "test/url.test.js",
			max:  160,
			src: lines(
				"const assert = require('assert');", // 1
				"",
				"describe('parseUrl', () => {", // 3
				"  beforeEach(() => {",
				"    process.env.TZ = 'UTC';",
				"  });",
				"",
				"  it('keeps the hostname', () => {", // 8
				"    const u = parseUrl('http://example.com:8080/a');",
				"    assert.strictEqual(u.hostname, 'example.com');",
				"  });",
				"",
				"  it('throws when the hostname is not present', () => {", // 13
				"    assert.throws(() => parseUrl('http://:80/'), /hostname/);",
				"  });",
				"",
				"  describe('ports', () => {", // 17
				"    it('defaults to 80', () => {",
				"      assert.strictEqual(parseUrl('http://a/').port, 80);",
				"    });",
				"  });",
				"});",
				"",
				"test.each([[1, 2]])('adds %i', (a, b) => {", // 24
				"  expect(a + 1).toBe(b);",
				"});",
			),
			want: []span{
				{1, 2, "variable", "assert", true},
				{3, 3, "test", `describe "parseUrl"`, true},
				{4, 7, "test", "beforeEach", false},
				{8, 12, "test", `it "keeps the hostname"`, false},
				{13, 16, "test", `it "throws when the hostname is not present"`, false},
				{17, 23, "test", `describe "ports"`, false},
				{24, 26, "test", `test.each "adds %i"`, true},
			},
		},
		{
			name: "javascript export default object over half of max: its properties",
			path: "src/component.js",
			max:  60,
			src: lines(
				"export default {", // 1
				"  name: 'cart-view',",
				"  data() {", // 3
				"    return { items: [], total: 0, loading: false };",
				"  },",
				"  computed: {", // 6
				"    empty() { return this.items.length === 0; },",
				"  },",
				"};",
			),
			want: []span{
				{1, 1, "variable", "default", true},
				{2, 2, "field", "name", false},
				{3, 5, "method", "data", false},
				{6, 9, "field", "computed", false},
			},
		},
		{
			name: "typescript: an object type alias over half of max splits into its members",
			path: "src/types.ts",
			max:  80,
			src: lines(
				"export type Options = {", // 1
				"\t/** Retries before giving up. */",
				"\tretry?: number;",
				"\t/** Called before each request. */", // 4
				"\tbeforeRequest(request: Request): Promise<void>;",
				"\ttimeout: number | false;", // 6
				"};",
			),
			want: []span{
				{1, 1, "type", "Options", true},
				{2, 3, "field", "Options.retry", false},
				{4, 5, "method", "Options.beforeRequest", false},
				{6, 7, "field", "Options.timeout", false},
			},
		},
		{
			name: "python: a decorated class over half of max splits into methods with their decorators",
			path: "app/settings.py",
			max:  100,
			src: lines(
				"@dataclass(frozen=True)", // 1
				"class Settings:",
				"    \"\"\"Settings of the app, read once at start.\"\"\"",
				"",
				"    debug: bool = False",
				"",
				"    @classmethod", // 7
				"    def from_env(cls, env):",
				"        return cls(debug=env.get('DEBUG') == '1')",
				"",
				"    @property", // 11
				"    def url(self):",
				"        return 'http://localhost:%d' % self.port",
			),
			want: []span{
				{1, 6, "class", "Settings", true},
				{7, 10, "method", "Settings.from_env", false},
				{11, 13, "method", "Settings.url", false},
			},
		},
		{
			name: "java: a class over half of max splits into members",
			path: "src/Cart.java",
			max:  100,
			src: lines(
				"package shop;", // 1
				"",
				"/** A cart of items. */", // 3
				"public class Cart {",
				"    private final List<Item> items = new ArrayList<>();",
				"",
				"    /** Adds an item. */", // 7
				"    public void add(Item item) {",
				"        items.add(item);",
				"    }",
				"",
				"    /** The total in cents. */", // 12
				"    public long total() {",
				"        return items.stream().mapToLong(Item::price).sum();",
				"    }",
				"}",
			),
			want: []span{
				{1, 2, "package", "shop", false},
				{3, 4, "class", "Cart", true},
				{5, 6, "field", "Cart.items", false},
				{7, 11, "method", "Cart.add", false},
				{12, 16, "method", "Cart.total", false},
			},
		},
		{
			name: "rust: an impl block over half of max splits into items",
			path: "src/cart.rs",
			max:  100,
			src: lines(
				"impl Cart {", // 1
				"    /// Creates an empty cart.",
				"    pub fn new() -> Self {",
				"        Cart { items: Vec::new() }",
				"    }",
				"",
				"    /// The total in cents.", // 7
				"    pub fn total(&self) -> u64 {",
				"        self.items.iter().map(|i| i.price).sum()",
				"    }",
				"}",
			),
			want: []span{
				{1, 1, "impl", "Cart", true},
				{2, 6, "method", "Cart::new", false},
				{7, 11, "method", "Cart::total", false},
			},
		},
		{
			name: "a container under half of max stays whole",
			path: "src/cart.rs",
			max:  1000,
			src:  lines("impl Cart {", "    pub fn new() -> Self { Cart {} }", "    pub fn len(&self) -> usize { 0 }", "}"),
			want: []span{{1, 4, "impl", "Cart", true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{PreferStructural: true, NoMerge: true, MaxTokens: tt.max, MinTokens: 10}
			cs, err := Split(t.Context(), tt.path, []byte(tt.src), quarter, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkChunks(t, []byte(tt.src), cs, quarter, opts)
			if diff := cmp.Diff(tt.want, spans(cs)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPieces checks how an oversized declaration without members is cut:
// pieces of an eighth to a half of MaxTokens (aiming at a quarter to a
// half), cut where the next piece
// starts least indented and after a blank line, never on a closing bracket.
func TestPieces(t *testing.T) {
	// A Go raw-string template of 24 paragraphs of 6 lines (~40 tokens each).
	var tmpl strings.Builder
	tmpl.WriteString("package web\n\n// page is the status page.\nvar page = `<!DOCTYPE html>\n")
	for p := 0; p < 24; p++ {
		fmt.Fprintf(&tmpl, "<section id=\"s%d\">\n  <h2>Section %d</h2>\n  <p>{{.Body%d}}</p>\n  <ul>{{range .Items}}<li>{{.}}</li>{{end}}</ul>\n</section>\n\n", p, p, p)
	}
	tmpl.WriteString("`\n")
	// A Go test function with a long table.
	var table strings.Builder
	table.WriteString("package web\n\nfunc TestParse(t *testing.T) {\n\ttests := []struct {\n\t\tin, want string\n\t}{\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&table, "\t\t{\n\t\t\tin:   \"input number %d\",\n\t\t\twant: \"output %d\",\n\t\t},\n", i, i)
	}
	table.WriteString("\t}\n\tfor _, tt := range tests {\n\t\tif got := Parse(tt.in); got != tt.want {\n\t\t\tt.Errorf(\"got %q\", got)\n\t\t}\n\t}\n}\n")
	tests := []struct {
		name, path, src string
		kind            string
		afterBlank      bool // every piece but the last ends with a blank line
	}{
		{"go raw-string template", "web/page.go", tmpl.String(), "var", true},
		{"go table test", "web/parse_test.go", table.String(), "function", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{PreferStructural: true, MaxTokens: 400, MinTokens: 20}
			cs, err := Split(t.Context(), tt.path, []byte(tt.src), quarter, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkChunks(t, []byte(tt.src), cs, quarter, opts)
			li := newLineIndex([]byte(tt.src))
			var parts []Chunk
			for _, c := range cs {
				if c.Kind == tt.kind {
					parts = append(parts, c)
				}
			}
			if len(parts) < 3 {
				t.Fatalf("%d pieces of kind %s, want at least 3: %v", len(parts), tt.kind, spans(cs))
			}
			for i, c := range parts {
				if c.Tokens > 200 {
					t.Errorf("piece %d (lines %d-%d) has %d tokens, want at most half of max (200)", i, c.StartLine, c.EndLine, c.Tokens)
				}
				if i < len(parts)-1 && c.Tokens < 50 {
					t.Errorf("piece %d (lines %d-%d) has %d tokens, want at least half of a quarter of max (50)", i, c.StartLine, c.EndLine, c.Tokens)
				}
				if want := fmt.Sprintf("(part %d/%d)", i+1, len(parts)); !strings.HasSuffix(c.Name, want) {
					t.Errorf("piece %d is named %q, want the suffix %q", i, c.Name, want)
				}
				if i > 0 {
					first := strings.TrimSpace(string(li.text(c.StartLine-1, c.StartLine-1)))
					if strings.HasPrefix(first, "}") || strings.HasPrefix(first, ")") || first == "" {
						t.Errorf("piece %d starts with %q", i, first)
					}
				}
				if tt.afterBlank && i < len(parts)-1 && !li.blank(c.EndLine-1) {
					t.Errorf("piece %d (lines %d-%d) does not end at a paragraph break", i, c.StartLine, c.EndLine)
				}
			}
		})
	}
}
