package chunker

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lines joins its arguments as the lines of a file.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// TestSplitStructural checks, per language, the declarations each rule
// yields (with merging off, so each declaration shows on its own).
func TestSplitStructural(t *testing.T) {
	big := Options{PreferStructural: true, NoMerge: true, MaxTokens: 1 << 20}
	tests := []struct {
		name, path, src string
		opts            Options
		want            []span
	}{
		{
			name: "go package, imports, doc comments, methods",
			path: "a.go",
			src: lines(
				"// Package a does things.", // 1
				"package a",
				"",
				"import \"fmt\"",
				"",
				"// T is a type.", // 6
				"type T struct{}",
				"",
				"// M is a method.", // 9
				"func (t *T) M() { fmt.Println() }",
				"",
				"func (T) V()                   {}", // 12
				"func (s *Set[K]) Add(k K)      {}",
				"",
				"type (", // 15
				"\tA = int",
				"\tB interface{ M() }",
				")",
			),
			opts: big,
			want: []span{
				{1, 5, "imports", "a", false},
				{6, 8, "struct", "T", true},
				{9, 11, "method", "(*T).M", true},
				{12, 12, "method", "T.V", true},
				{13, 14, "method", "(*Set).Add", true},
				{15, 18, "type", "A, B", true},
			},
		},
		{
			name: "go declarations sharing a line are aligned to whole lines",
			path: "a.go",
			src:  lines("package a", "func F() {}; func G() {", "}", "var x = 1"),
			opts: big,
			want: []span{
				{1, 1, "package", "a", false},
				{2, 2, "function", "F, G", true},
				{3, 3, "function", "G", true},
				{4, 4, "var", "x", true},
			},
		},
		{
			name: "python decorators, docstrings, comments and loose statements",
			path: "a.py",
			src: lines(
				"import os", // 1
				"",
				"X = 1", // 3
				"",
				"# Doc for C.", // 5
				"@dataclass",
				"class C:",
				"    \"\"\"Docstring.\"\"\"",
				"    def m(self):",
				"        return os.sep",
				"",
				"@cache", // 12
				"async def f():",
				"    pass",
				"",
				"if __name__ == '__main__':", // 16
				"    f()",
			),
			opts: big,
			want: []span{
				{1, 2, "imports", "", false},
				{3, 4, "lines", "", false},
				{5, 11, "class", "C", true},
				{12, 15, "function", "f", true},
				{16, 17, "lines", "", false},
			},
		},
		{
			name: "python class over max splits into header and methods",
			path: "a.py",
			src: lines(
				"class Service:", // 1
				"    \"\"\"Checks carts out.\"\"\"",
				"    retries = 3",
				"",
				"    def checkout(self, cart):", // 5
				"        return sum(i.price for i in cart)",
				"",
				"    @property", // 8
				"    def name(self):",
				"        return 'checkout'",
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 30},
			want: []span{
				{1, 4, "class", "Service", true},
				{5, 7, "method", "Service.checkout", false},
				{8, 10, "method", "Service.name", false},
			},
		},
		{
			name: "javascript imports, exports, arrow functions, class members",
			path: "a.js",
			src: lines(
				"import a from 'a';", // 1
				"export * from 'b';",
				"",
				"export const f = (x) => x;", // 4
				"let n = 1;",
				"export default class K {", // 6
				"  #p = 1;",
				"  get p() { return this.#p; }",
				"}",
				"module.exports = f;", // 10
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 12},
			want: []span{
				{1, 3, "imports", "", false},
				{4, 4, "function", "f", true},
				{5, 5, "variable", "n", true},
				{6, 6, "class", "K", true},
				{7, 7, "field", "K.#p", false},
				{8, 9, "method", "K.p", false},
				{10, 10, "variable", "module.exports", true}, // an assignment is a declaration
			},
		},
		{
			name: "typescript interfaces, types, enums, namespaces, declare",
			path: "a.ts",
			src: lines(
				"export interface I { a: number }", // 1
				"type U = 'a' | 'b';",
				"const enum E { A }",
				"namespace N { export const x = 1; }",
				"declare function g(): void;", // 5
				"declare module 'm' { }",
				"abstract class A { abstract m(): void; }",
			),
			opts: big,
			want: []span{
				{1, 1, "interface", "I", true},
				{2, 2, "type", "U", true},
				{3, 3, "enum", "E", true},
				{4, 4, "module", "N", true},
				{5, 5, "function", "g", true},
				{6, 6, "module", "m", true},
				{7, 7, "class", "A", true},
			},
		},
		{
			name: "tsx components",
			path: "a.tsx",
			src: lines(
				"import React from 'react';",
				"export function App() {", // 2
				"  return <div>hi</div>;",
				"}",
				"const Btn = () => <button />;", // 5
			),
			opts: big,
			want: []span{
				{1, 1, "imports", "", false},
				{2, 4, "function", "App", true},
				{5, 5, "function", "Btn", true},
			},
		},
		{
			name: "java members when the class is too big",
			path: "A.java",
			src: lines(
				"package p;", // 1
				"import java.util.List;",
				"/** A doc. */", // 3
				"@Deprecated",
				"public class A {",
				"  private int x;", // 6
				"  /** m doc */",   // 7
				"  public void m() {}",
				"  A() {}",          // 9
				"  enum E { X, Y }", // 10
				"}",
				"record R(int a) {}", // 12
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 25},
			want: []span{
				{1, 2, "imports", "p", false},
				{3, 5, "class", "A", true},
				{6, 6, "field", "A.x", false},
				{7, 8, "method", "A.m", false},
				{9, 9, "constructor", "A.A", false},
				{10, 11, "enum", "A.E", false},
				{12, 12, "record", "R", true},
			},
		},
		{
			name: "csharp block namespace is a container, not a chunk",
			path: "A.cs",
			src: lines(
				"using System;", // 1
				"namespace N {", // 2
				"  /// <summary>A.</summary>",
				"  [Serializable] class A { }",
				"  struct S { }", // 5
				"}",
			),
			opts: big,
			want: []span{
				{1, 1, "imports", "", false},
				{2, 2, "lines", "", false},
				{3, 4, "class", "A", true},
				{5, 5, "struct", "S", true},
				{6, 6, "lines", "", false},
			},
		},
		{
			name: "csharp file-scoped namespace joins the header; members when too big",
			path: "A.cs",
			src: lines(
				"using System;", // 1
				"namespace N.M;",
				"",
				"public class A {", // 4
				"  public int P { get; set; }",
				"  public A() { }", // 6
				"  public void M() { }",
				"}",
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 20},
			want: []span{
				{1, 3, "imports", "N.M", false},
				{4, 4, "class", "A", true},
				{5, 5, "property", "A.P", false},
				{6, 6, "constructor", "A.A", false},
				{7, 8, "method", "A.M", false},
			},
		},
		{
			name: "rust attributes and doc comments, impl methods when too big",
			path: "a.rs",
			src: lines(
				"use std::fmt;", // 1
				"/// S doc.",    // 2
				"#[derive(Debug)]",
				"pub struct S;",
				"impl fmt::Display for S {", // 5
				"    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }",
				"}",
				"mod m;", // 8
				"macro_rules! id { ($e:expr) => { $e } }",
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 20},
			want: []span{
				{1, 1, "imports", "", false},
				{2, 4, "struct", "S", true},
				{5, 5, "impl", "fmt::Display for S", true},
				{6, 7, "method", "S::fmt", false},
				{8, 8, "module", "m", true},
				{9, 9, "macro", "id", true},
			},
		},
		{
			name: "c includes, prototypes, typedefs, macros, preprocessor containers",
			path: "a.c",
			src: lines(
				"#include <stdio.h>", // 1
				"#define N 3",
				"typedef unsigned long ulong;", // 3
				"int f(int);",
				"/* g doc */", // 5
				"static int *g(void) { return 0; }",
				"#ifdef X", // 7
				"int h(void) { return 1; }",
				"#endif",
				"struct s { int a; } v;", // 10
			),
			opts: big,
			want: []span{
				{1, 1, "imports", "", false},
				{2, 2, "macro", "N", true},
				{3, 3, "type", "ulong", true},
				{4, 4, "function", "f", true},
				{5, 6, "function", "g", true},
				{7, 7, "lines", "", false},
				{8, 8, "function", "h", true},
				{9, 9, "lines", "", false},
				{10, 10, "struct", "s", true},
			},
		},
		{
			name: "cpp namespaces, templates, classes split into members",
			path: "a.cpp",
			src: lines(
				"namespace n {", // 1
				"template <typename T>",
				"T id(T v) { return v; }",
				"class C {", // 4
				" public:",
				"  void m() {}", // 6
				"  int x;",
				"  int y;",
				"};",
				"}", // 10
				"void n::C::q() {}",
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 12},
			want: []span{
				{1, 1, "lines", "", false},
				{2, 3, "function", "id", true},
				{4, 5, "class", "C", true},
				{6, 6, "method", "C::m", false},
				{7, 7, "field", "C::x", false},
				{8, 9, "field", "C::y", false},
				{10, 10, "lines", "", false},
				{11, 11, "function", "n::C::q", true},
			},
		},
		{
			name: "markdown sections, setext headings, code blocks",
			path: "README.md",
			src: lines(
				"Intro.", // 1
				"# A",
				"```",
				"# not a heading",
				"```",
				"## A.1", // 6
				"text",
				"",
				"B", // 9
				"=",
				"## B.1 ##", // 11
			),
			opts: big,
			want: []span{
				{1, 1, "preamble", "", false},
				{2, 8, "section", "A", true},
				{9, 11, "section", "B", true},
			},
		},
		{
			name: "markdown section over max splits into subsections",
			path: "README.md",
			src: lines(
				"# Title", // 1
				"Some intro text here.",
				"## One", // 3
				"First section text.",
				"### Deep", // 5
				"Deep text.",
				"## Two", // 7
				"Second.",
			),
			opts: Options{PreferStructural: true, NoMerge: true, MaxTokens: 11},
			want: []span{
				{1, 2, "section", "Title", true},
				{3, 4, "section", "One", false},
				{5, 6, "section", "Deep", false},
				{7, 8, "section", "Two", false},
			},
		},
		{
			name: "no grammar: line windows",
			path: "notes.txt",
			src:  lines("aaaa", "bbbb", "cccc"),
			opts: Options{PreferStructural: true, MaxTokens: 3},
			want: []span{{1, 2, "lines", "", false}, {3, 3, "lines", "", false}},
		},
		{
			name: "structural off: line windows",
			path: "a.go",
			src:  lines("package a", "func F() {}"),
			opts: Options{MaxTokens: 100},
			want: []span{{1, 2, "lines", "", false}},
		},
		{
			name: "syntax errors: what parses still chunks",
			path: "a.go",
			src:  lines("package a", "func F() {", "}", "var = = 3", "func G() {}"),
			opts: big,
			want: []span{
				{1, 1, "package", "a", false},
				{2, 3, "function", "F", true},
				{4, 4, "lines", "", false},
				{5, 5, "function", "G", true},
			},
		},
		{
			name: "empty file",
			path: "a.go",
			src:  "",
			opts: big,
			want: []span{},
		},
		{
			name: "blank file is one lines chunk",
			path: "a.py",
			src:  "\n\n",
			opts: big,
			want: []span{{1, 2, "lines", "", false}},
		},
		{
			name: "no final newline, CRLF",
			path: "a.go",
			src:  "package a\r\n\r\nfunc F() {}",
			opts: big,
			want: []span{{1, 2, "package", "a", false}, {3, 3, "function", "F", true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := Split(context.Background(), tt.path, []byte(tt.src), quarter, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkChunks(t, []byte(tt.src), cs, quarter, tt.opts)
			if diff := cmp.Diff(tt.want, spans(cs)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLensRecipe checks the options the code lens path uses: no merging and
// no size limit give exactly one TopLevel chunk per top-level declaration.
func TestLensRecipe(t *testing.T) {
	src := lines(
		"package a",
		"",
		"import \"fmt\"",
		"",
		"type T struct{ a, b, c, d, e, f, g, h int }",
		"",
		"// Big is big.",
		"func Big() {",
		"\tfmt.Println(\""+strings.Repeat("x", 5000)+"\")",
		"}",
		"func Small() {}",
	)
	opts := Options{PreferStructural: true, NoMerge: true, MaxTokens: math.MaxInt}
	cs, err := Split(t.Context(), "a.go", []byte(src), quarter, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkChunks(t, []byte(src), cs, quarter, opts)
	var top []string
	for _, c := range cs {
		if c.TopLevel {
			top = append(top, c.Name)
		}
	}
	if diff := cmp.Diff([]string{"T", "Big", "Small"}, top); diff != "" {
		t.Errorf("top-level chunks (-want +got):\n%s", diff)
	}
}
