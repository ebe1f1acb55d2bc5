package chunker

import (
	"context"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sitter "github.com/smacker/go-tree-sitter"
	"go.uber.org/goleak"
	"golang.org/x/tools/txtar"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestEditTreeKeepsNewEndPoint guards the workaround in editTree: after an
// edit that adds lines, the edited tree must end at the new text's end point
// (sitter.Tree.Edit would leave the old one).
func TestEditTreeKeepsNewEndPoint(t *testing.T) {
	old := []byte("package a\n\nfunc F() {}\n")
	new := []byte("package a\n\n// G is new.\nfunc G() {}\n\nfunc F() {}\n")
	tree, err := grammarFor("go").parse(t.Context(), nil, old)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	e := diffEdit(old, new)
	wantEdit := sitter.EditInput{
		StartIndex: 11, OldEndIndex: 11, NewEndIndex: 37,
		StartPoint: sitter.Point{Row: 2}, OldEndPoint: sitter.Point{Row: 2}, NewEndPoint: sitter.Point{Row: 5},
	}
	if diff := cmp.Diff(wantEdit, e); diff != "" {
		t.Fatalf("diffEdit (-want +got):\n%s", diff)
	}
	editTree(tree, e)
	if got, want := tree.RootNode().EndPoint(), pointAt(new, len(new)); got != want {
		t.Errorf("edited tree ends at %+v, want %+v", got, want)
	}
}

func TestDiffEdit(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           sitter.EditInput
	}{
		{"same", "abc", "abc", sitter.EditInput{StartIndex: 3, OldEndIndex: 3, NewEndIndex: 3, StartPoint: sitter.Point{Column: 3}, OldEndPoint: sitter.Point{Column: 3}, NewEndPoint: sitter.Point{Column: 3}}},
		{"insert mid-line", "ab\ncd", "ab\ncXd", sitter.EditInput{StartIndex: 4, OldEndIndex: 4, NewEndIndex: 5, StartPoint: sitter.Point{Row: 1, Column: 1}, OldEndPoint: sitter.Point{Row: 1, Column: 1}, NewEndPoint: sitter.Point{Row: 1, Column: 2}}},
		{"delete lines", "a\nb\nc\n", "a\n", sitter.EditInput{StartIndex: 2, OldEndIndex: 6, NewEndIndex: 2, StartPoint: sitter.Point{Row: 1}, OldEndPoint: sitter.Point{Row: 3}, NewEndPoint: sitter.Point{Row: 1}}},
		{"replace all", "xy", "z", sitter.EditInput{StartIndex: 0, OldEndIndex: 2, NewEndIndex: 1, OldEndPoint: sitter.Point{Column: 2}, NewEndPoint: sitter.Point{Column: 1}}},
		{"repeated text", "aaaa", "aaaaaa", sitter.EditInput{StartIndex: 4, OldEndIndex: 4, NewEndIndex: 6, StartPoint: sitter.Point{Column: 4}, OldEndPoint: sitter.Point{Column: 4}, NewEndPoint: sitter.Point{Column: 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, diffEdit([]byte(tt.old), []byte(tt.new))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDocumentUpdate edits documents step by step: every Update must give
// the chunks a fresh Split gives.
func TestDocumentUpdate(t *testing.T) {
	opts := Options{PreferStructural: true, MaxTokens: 40, MinTokens: 5}
	tests := []struct {
		name  string
		path  string
		steps []string
		opts  Options
	}{
		{"go", "a.go", []string{
			"package a\n\nfunc F() {}\n",
			"package a\n\nimport \"fmt\"\n\nfunc F() {}\n",
			"package a\n\nimport \"fmt\"\n\n// F prints.\nfunc F() { fmt.Println(\"a long line that needs its own window\") }\n",
			"package a\n\nimport \"fmt\"\n\ntype T struct{}\n\n// F prints.\nfunc F() { fmt.Println(\"a long line that needs its own window\") }\n",
			"",
			"package b\n",
		}, opts},
		{"python", "a.py", []string{
			"class A:\n    def f(self):\n        return 1\n",
			"class A:\n    def f(self):\n        x = 1\n        return x\n\n    def g(self):\n        return 2\n",
			"import os\n\nclass A:\n    def g(self):\n        return 2\n",
		}, opts},
		{"markdown", "a.md", []string{
			"# A\n\ntext\n",
			"# A\n\ntext\n\n## B\n\nmore\n",
			"intro\n\n# A\n\ntext\n\n## B\n\nmore\n",
		}, opts},
		{"no grammar", "a.txt", []string{"one\ntwo\n", "one\n2\ntwo\n"}, opts},
		{"structural off", "a.go", []string{"package a\n", "package a\n\nfunc F() {}\n"}, Options{MaxTokens: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDocument(tt.path)
			defer d.Close()
			for i, src := range tt.steps {
				got, err := d.Update(t.Context(), []byte(src), quarter, tt.opts)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				want, err := Split(t.Context(), tt.path, []byte(src), quarter, tt.opts)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("step %d (-Split +Update):\n%s", i, diff)
				}
			}
		})
	}
}

// TestDocumentReuse checks that a document keeps working after Close and
// after a failed (cancelled) update.
func TestDocumentReuse(t *testing.T) {
	src := []byte("package a\n\nfunc F() {}\n")
	opts := Options{PreferStructural: true}
	want, err := Split(t.Context(), "a.go", src, quarter, opts)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDocument("a.go")
	defer d.Close()
	if _, err := d.Update(t.Context(), []byte("package a\n"), quarter, opts); err != nil {
		t.Fatal(err)
	}
	d.Close()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := d.Update(ctx, src, quarter, opts); err == nil {
		t.Errorf("Update with a cancelled context succeeded")
	}
	if _, err := d.Update(t.Context(), src, nil, opts); err == nil {
		t.Errorf("Update with a nil counter succeeded")
	}
	got, err := d.Update(t.Context(), src, quarter, opts)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestParseAfterCancelledContext guards the workaround in guardCancel: a
// context that ends right after a parse must not poison the pooled parser
// for the next parse.
func TestParseAfterCancelledContext(t *testing.T) {
	g := grammarFor("go")
	small := []byte("package a\n")
	big := []byte("package a\n\n" + strings.Repeat("func F() { println(1, 2, 3) }\n", 200))
	for i := range 300 {
		ctx, cancel := context.WithCancel(t.Context())
		tree, err := g.parse(ctx, nil, small)
		cancel()
		if err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
		tree.Close()
		tree, err = g.parse(context.Background(), nil, big)
		if err != nil {
			t.Fatalf("iteration %d: parse after a cancelled context: %v", i, err)
		}
		tree.Close()
	}
}

// editCorpus lists real files of several languages for TestDocumentRandomEdits:
// sources of the Go distribution and of this repository.
func editCorpus(t *testing.T) []string {
	t.Helper()
	goroot := runtime.GOROOT()
	files := []string{
		filepath.Join(goroot, "src", "net", "http", "cookie.go"),
		filepath.Join(goroot, "src", "strings", "strings.go"),
		filepath.Join(goroot, "src", "runtime", "runtime-gdb.py"),
		filepath.Join(goroot, "src", "cmd", "vendor", "github.com", "google", "pprof", "internal", "driver", "html", "common.js"),
		filepath.Join(goroot, "src", "runtime", "HACKING.md"),
		filepath.Join(goroot, "src", "regexp", "testdata", "testregex.c"),
		filepath.Join("..", "editors", "vscode", "src", "commands.ts"),
	}
	golden, _ := filepath.Glob("testdata/golden/*.txtar")
	return append(files, golden...)
}

// contentCount is a counter that depends on every byte, so that a count
// reused for a text it was not made for shows.
func contentCount(s string) int { return len(strings.Fields(s)) + int(crc32.ChecksumIEEE([]byte(s))%7) }

// randomEdit returns text with one edit at or near pos, as a user makes
// them: typing a letter in a word, typing any character (a bracket, a
// quote, a comment marker, white space, a newline), deleting a few
// characters or whole lines, pasting a line from elsewhere, inserting a
// blank or comment line (in the language's comment syntax), or undoing
// back to an earlier version.
func randomEdit(r *rand.Rand, path, text string, pos int, history []string) string {
	lineAt := func(p int) (int, int) {
		s := strings.LastIndexByte(text[:p], '\n') + 1
		e := strings.IndexByte(text[p:], '\n')
		if e < 0 {
			return s, len(text)
		}
		return s, p + e + 1
	}
	comment := "// note\n"
	if Language(path) == "python" {
		comment = "# note\n"
	}
	typed := []string{"a", "7", "_", " ", "\t", "\n", "{", "}", "(", ")", "[", "]", ";", ",", ".", "\"", "'", "`", "/", "*", "#", "=", "<", ">", ":", "\r\n", "é", "//", "/*", "*/"}
	switch k := r.IntN(20); {
	case k < 5: // type a letter in a word
		for p := pos; p < min(pos+40, len(text)); p++ {
			if c := text[p]; c >= 'a' && c <= 'z' {
				return text[:p] + string(rune('a'+r.IntN(26))) + text[p:]
			}
		}
		return text[:pos] + "x" + text[pos:]
	case k < 8: // type anything
		return text[:pos] + typed[r.IntN(len(typed))] + text[pos:]
	case k < 10: // delete a few bytes
		end := min(pos+1+r.IntN(3), len(text))
		return text[:pos] + text[end:]
	case k < 11: // delete whole lines
		s, e := lineAt(pos)
		for range r.IntN(3) {
			if e < len(text) {
				_, e = lineAt(e)
			}
		}
		return text[:s] + text[e:]
	case k < 12: // paste a line from elsewhere at a line start
		s, _ := lineAt(pos)
		ps, pe := lineAt(r.IntN(len(text) + 1))
		return text[:s] + text[ps:pe] + text[s:]
	case k < 15: // a blank line or a comment line
		s, _ := lineAt(pos)
		ins := []string{"\n", "\n\n", comment, "  \n"}[r.IntN(4)]
		return text[:s] + ins + text[s:]
	case k < 18 && len(history) > 0: // undo to an earlier version
		return history[r.IntN(len(history))]
	default: // replace a line with another
		s, e := lineAt(pos)
		ps, pe := lineAt(r.IntN(len(text) + 1))
		return text[:s] + text[ps:pe] + text[e:]
	}
}

// TestDocumentRandomEdits is the proof of the incremental update: real
// files in every language with a grammar are edited at random, many edits
// in one place then a jump elsewhere, and after every edit the document's
// chunks must equal those of a fresh Split of the same text (spans, kinds,
// names, contents and counts), with syntax errors or without; and most
// edits of a file of many declarations must have been done by a window
// (not a whole parse). The lens options (one chunk per declaration) are used, and for
// some files the packing options (members, merging), whose layout needs
// the tree when a container is split.
func TestDocumentRandomEdits(t *testing.T) {
	lens := Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}
	edits := 40
	if testing.Short() {
		edits = 30
	}
	total, inErrors, windows := 0, 0, 0
	for fi, path := range editCorpus(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := path
		if strings.HasSuffix(path, ".txtar") {
			ar := txtar.Parse(data)
			name, data = ar.Files[0].Name, ar.Files[0].Data
		}
		if Language(name) == "" {
			continue
		}
		for _, opts := range []Options{lens, {PreferStructural: true, MaxTokens: 300, MinTokens: 40}} {
			if opts != lens && fi%2 == 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", filepath.Base(name), opts.MaxTokens), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(fi), uint64(opts.MaxTokens)))
				d := NewDocument(name)
				defer d.Close()

				text := string(data)
				var history []string
				lastClean, clean := text, true
				pos := r.IntN(len(text) + 1)
				for i := 0; i <= edits; i++ {
					if i > 0 {
						if r.IntN(8) == 0 { // jump elsewhere
							pos = r.IntN(len(text) + 1)
						}
						pos = min(max(pos+r.IntN(5)-2, 0), len(text))
						history = append(history, text)
						if !clean && r.IntN(2) == 0 {
							text = lastClean // the edit is undone or completed
						} else {
							undo := append([]string{string(data)}, history[max(len(history)-8, 0):]...)
							text = randomEdit(r, name, text, pos, undo)
						}
						pos = min(pos, len(text))
					}
					got, err := d.UpdateText(t.Context(), text, contentCount, opts)
					if err != nil {
						t.Fatalf("edit %d: %v", i, err)
					}
					want, err := Split(t.Context(), name, []byte(text), contentCount, opts)
					if err != nil {
						t.Fatal(err)
					}
					total++
					if clean = !hasSyntaxError(t, name, text); clean {
						lastClean = text
					} else {
						inErrors++
					}
					if diff := cmp.Diff(want, got); diff != "" {
						pre, oe, ne := diffRange(history[len(history)-1], text)
						t.Fatalf("edit %d at byte %d (%q → %q), syntax errors: %v; chunks differ (-Split +Update):\n%s", i, pre,
							history[len(history)-1][max(pre-30, 0):min(oe+30, len(history[len(history)-1]))],
							text[max(pre-30, 0):min(ne+30, len(text))], !clean, diff)
					}
				}
				windows += d.windows
				t.Logf("%d of %d edits re-chunked by a window", d.windows, edits)
			})
		}
	}
	t.Logf("%d versions, %d with syntax errors, %d re-chunked by a window", total, inErrors, windows)
	if windows*6 < total || inErrors*6 < total {
		t.Errorf("%d versions: %d by a window, %d with syntax errors; want each over a sixth, or the test misses a path", total, windows, inErrors)
	}
}

// hasSyntaxError reports whether a fresh parse of text has an error.
func hasSyntaxError(t *testing.T, path, text string) bool {
	t.Helper()
	tree, err := grammarFor(Language(path)).parse(t.Context(), nil, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	return tree.RootNode().HasError()
}

// TestRootKids guards the C mirror of tree-sitter's structs in rootKids:
// its list must be that of the bindings, and each index must lead back to
// the same node.
func TestRootKids(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "cookie.go"))
	if err != nil {
		t.Fatal(err)
	}
	src = append(src, "\nfunc broken( {\n"...) // a node with an error
	tree, err := grammarFor("go").parse(t.Context(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	root := tree.RootNode()
	want := children(root)
	got := rootKids(tree)
	if len(got) != len(want) || len(got) < 20 {
		t.Fatalf("rootKids gave %d children, the bindings %d", len(got), len(want))
	}
	bad := 0
	for i, k := range got {
		n := want[i]
		if k.start != int(n.StartByte()) || k.end != int(n.EndByte()) || k.sym != n.Symbol() || k.bad != n.HasError() {
			t.Errorf("child %d: rootKids %+v, bindings %d-%d symbol %d error %v", i, k, n.StartByte(), n.EndByte(), n.Symbol(), n.HasError())
		}
		if c := root.Child(k.index); c.StartByte() != n.StartByte() || c.Symbol() != n.Symbol() {
			t.Errorf("child %d: index %d leads to another node", i, k.index)
		}
		if k.bad {
			bad++
		}
	}
	if bad == 0 {
		t.Errorf("no child with an error: the error flag is not checked")
	}
}

// BenchmarkDocumentEdit re-chunks after a one-character edit in the
// middle of a file, with the lens options: "go5000" is 5,000 lines of
// small Go functions, "real1MB" the Go files of net/http up to 1 MB.
// "word" types a letter in a function's name (the file still parses: a
// window), "typo" a digit at the start of a statement (a syntax error: a
// whole incremental re-parse); "typo-quick" the same typed with
// UpdateQuick (the window parsed alone, provisional, as lenses do).
// cpu-ms/op is the process's CPU time.
func BenchmarkDocumentEdit(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("package big\n\n")
	for i, lines := 0, 2; lines < 5000-10; i, lines = i+1, lines+9 {
		fmt.Fprintf(&sb, "// F%d adds numbers.\nfunc F%d(a, b int) int {\n\tc := a + b\n\tif c > %d {\n\t\treturn c - %d\n\t}\n\treturn c * 2\n}\n\n", i, i, i, i)
	}
	files := []struct{ name, text string }{{"go5000", sb.String()}, {"real1MB", string(netHTTPSource(b, 1<<20))}}
	lens := Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}
	for _, f := range files {
		for _, edit := range []string{"word", "typo", "typo-quick"} {
			b.Run(f.name+"/"+edit, func(b *testing.B) {
				text := f.text
				mid := len(text) / 2
				var off int
				if edit == "word" {
					off = mid + strings.Index(text[mid:], "\nfunc ") + len("\nfunc ") + 1
					if text[off-1] == '(' { // a method: into its name
						off += strings.Index(text[off:], ") ") + 3
					}
				} else {
					off = mid + strings.Index(text[mid:], "\n\treturn ") + 2
				}
				d := NewDocument("big.go")
				defer d.Close()
				if _, err := d.UpdateText(b.Context(), text, quarter, lens); err != nil {
					b.Fatal(err)
				}
				cpu0, ok0 := processCPU()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					typed := string(rune('a' + i%26))
					if edit != "word" {
						typed = string(rune('0' + i%10))
					}
					text = text[:off] + typed + text[off:]
					var err error
					if edit == "typo-quick" {
						_, _, err = d.UpdateQuick(b.Context(), text, quarter, lens)
					} else {
						_, err = d.UpdateText(b.Context(), text, quarter, lens)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				if cpu1, ok := processCPU(); ok && ok0 {
					b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
				}
				b.ReportMetric(float64(d.windows+d.quicks)/float64(d.windows+d.quicks+d.wholes-1), "windowed")
			})
		}
	}
}

// TestDocumentWindowEdges edits where a window's edges matter: nodes
// joined on one line, doc comments and attributes above the window,
// statements that automatic semicolon insertion joins, indentation that
// moves a statement to the top level, preprocessor blocks, a header group
// split and joined. Each version must chunk as Split does.
func TestDocumentWindowEdges(t *testing.T) {
	lens := Options{MaxTokens: 1 << 30, PreferStructural: true, NoMerge: true}
	fill := func(f string, n int) string { // n small declarations made by f
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, f, i, i)
		}
		return sb.String()
	}
	goFns := fill("// F%d doubles.\nfunc F%d(a int) int {\n\treturn a * 2\n}\n\n", 12)
	jsFns := fill("function f%d(a) {\n  return a * 2;\n}\n\nconst c%d = 1;\n", 10)
	pyFns := fill("def f%d(a):\n    return a * 2\n\n\nX%d = 1\n\n", 10)
	rsFns := fill("/// F%d doubles.\nfn f%d(a: i32) -> i32 {\n    a * 2\n}\n\n", 10)
	cFns := fill("int f%d(int a) {\n  return a * 2;\n}\n\nstatic int c%d = 1;\n", 10)
	tests := []struct {
		path  string
		steps []string
	}{
		{"a.go", []string{
			"package a\n\nimport \"fmt\"\n\n" + goFns,
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "}\n\n// F6", "}; func Z() {}\n\n// F6", 1),
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "}\n\n// F6", "}\n// F6", 1),
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "// F6 doubles.\n", "", 1),
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "// F6 doubles.\n", "// F6 doubles.\n//\n// More.\n", 1),
			"package a\n\nimport \"fmt\"\n\nimport \"os\"\n\n" + goFns,
			"package a\n\nimport \"fmt\"\n\nvar _ = 1\n\nimport \"os\"\n\n" + goFns,
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "func F6(a int) int {", "func F6(a int) int {\n\tx := `", 1),
			"package a\n\nimport \"fmt\"\n\n" + strings.Replace(goFns, "func F6(a int) int {", "func F6(a int) int {\n\tx := `\n`", 1),
			"package a\n\nimport \"fmt\"\n\n" + goFns,
		}},
		{"a.js", []string{
			jsFns,
			strings.Replace(jsFns, "const c5 = 1;\n", "const c5 = a\n(function () {})()\n", 1),
			strings.Replace(jsFns, "const c5 = 1;\n", "const c5 = a;\n(function () {})()\n", 1),
			strings.Replace(jsFns, "function f6(a) {", "// f6 doubles.\nfunction f6(a) {", 1),
			strings.Replace(jsFns, "function f6(a) {", "/** f6 doubles. */ function f6(a) {", 1),
			jsFns,
		}},
		{"a.py", []string{
			pyFns,
			strings.Replace(pyFns, "def f5(a):", "@cache\ndef f5(a):", 1),
			strings.Replace(pyFns, "    return a * 2\n\n\nX5", "return a * 2\n\n\nX5", 1),
			strings.Replace(pyFns, "def f5(a):\n    return a * 2", "class C:\n    def f5(self):\n        return 2", 1),
			pyFns,
		}},
		{"a.rs", []string{
			rsFns,
			strings.Replace(rsFns, "fn f5(", "#[inline]\nfn f5(", 1),
			strings.Replace(rsFns, "/// F5 doubles.\n", "#[test]\n", 1),
			strings.Replace(rsFns, "fn f5(a: i32) -> i32 {\n    a * 2\n}", "impl T {\n    fn f5(&self) -> i32 {\n        2\n    }\n}", 1),
			rsFns,
		}},
		{"a.c", []string{
			cFns,
			strings.Replace(cFns, "int f5(int a) {", "#ifdef X\nint f5(int a) {", 1),
			strings.Replace(cFns, "static int c5 = 1;\n", "static int c5 = 1;\n#endif\n", 1),
			strings.Replace(strings.Replace(cFns, "int f5(int a) {", "#ifdef X\nint f5(int a) {", 1), "static int c5 = 1;\n", "static int c5 = 1;\n#endif\n", 1),
			cFns,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			d := NewDocument(tt.path)
			defer d.Close()
			for i, text := range tt.steps {
				got, err := d.UpdateText(t.Context(), text, contentCount, lens)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				want, err := Split(t.Context(), tt.path, []byte(text), contentCount, lens)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("step %d (-Split +Update):\n%s", i, diff)
				}
			}
			if d.windows == 0 {
				t.Errorf("no step was re-chunked by a window")
			}
		})
	}
}
