package chunker

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// fuzzPaths picks the language of a fuzzed source.
var fuzzPaths = []string{"a.go", "a.py", "a.js", "a.ts", "a.tsx", "A.java", "a.rs", "a.c", "a.cpp", "A.cs", "a.md", "a.txt"}

// addGoldenSeeds adds every golden input, in its own language, as a seed.
func addGoldenSeeds(f *testing.F, add func(path int, src []byte)) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		in := ar.Files[0]
		lang := Language(in.Name)
		for i, p := range fuzzPaths {
			if Language(p) == lang {
				add(i, in.Data)
			}
		}
	}
}

// FuzzSplit checks the invariants of Split on any input in any language:
// chunks partition the file into whole lines in order, contents and counts
// match the source, none is over max unless it is a single oversize line,
// small neighbours are merged, and the output is deterministic.
func FuzzSplit(f *testing.F) {
	addGoldenSeeds(f, func(path int, src []byte) {
		f.Add(uint8(path), src, uint16(40), uint16(10), false)
		f.Add(uint8(path), src, uint16(7), uint16(3), true)
	})
	f.Add(uint8(0), []byte("package a\nfunc F() {}; func G() {}\n\xff\xfe"), uint16(3), uint16(1), false)
	f.Add(uint8(10), []byte("# a\n## b\n# c\n\n\n"), uint16(1), uint16(1), false)
	f.Add(uint8(1), []byte("\n\n\nclass A:\n  def f(self): pass\n\n\n"), uint16(2), uint16(0), false)
	f.Fuzz(func(t *testing.T, path uint8, src []byte, max, min uint16, noMerge bool) {
		p := fuzzPaths[int(path)%len(fuzzPaths)]
		opts := Options{MaxTokens: int(max), MinTokens: int(min), PreferStructural: true, NoMerge: noMerge}
		cs, err := Split(t.Context(), p, src, quarter, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkChunks(t, src, cs, quarter, opts)
		again, err := Split(t.Context(), p, src, quarter, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(cs, again); diff != "" {
			t.Errorf("second Split differs (-first +second):\n%s", diff)
		}
	})
}

// FuzzSplitLines checks that line windows of any range cover exactly that
// range (clamped to the file) in whole lines within max.
func FuzzSplitLines(f *testing.F) {
	addGoldenSeeds(f, func(_ int, src []byte) { f.Add(src, 3, 20, uint16(10)) })
	f.Add([]byte("a\nb\nc"), -1, 100, uint16(1))
	f.Add([]byte(""), 1, 1, uint16(1))
	f.Fuzz(func(t *testing.T, src []byte, start, end int, max uint16) {
		opts := Options{MaxTokens: int(max)}
		cs := SplitLines(src, start, end, quarter, opts)
		li := newLineIndex(src)
		first, last := maxInt(start, 1), minInt(end, li.count())
		if first > last {
			if len(cs) != 0 {
				t.Fatalf("empty range %d-%d gave %d chunks", start, end, len(cs))
			}
			return
		}
		next := first
		for _, c := range cs {
			if c.StartLine != next || c.EndLine < c.StartLine {
				t.Fatalf("chunk %d-%d, want it to start at %d", c.StartLine, c.EndLine, next)
			}
			next = c.EndLine + 1
			if c.StartByte != li.start(c.StartLine-1) || c.EndByte != li.end(c.EndLine-1) || c.Content != string(src[c.StartByte:c.EndByte]) {
				t.Errorf("chunk %d-%d is not whole source lines", c.StartLine, c.EndLine)
			}
			if c.Tokens > opts.withDefaults().MaxTokens && !(c.Oversize && c.StartLine == c.EndLine) {
				t.Errorf("chunk %d-%d has %d tokens", c.StartLine, c.EndLine, c.Tokens)
			}
		}
		if next != last+1 {
			t.Fatalf("chunks end at %d, want %d", next-1, last)
		}
	})
}

// FuzzDocumentUpdate applies an edit to a document: the result keeps the
// invariants of Split and, when the new text parses without errors, equals
// a fresh Split.
func FuzzDocumentUpdate(f *testing.F) {
	addGoldenSeeds(f, func(path int, src []byte) {
		f.Add(uint8(path), src, uint16(len(src)/2), uint16(3), []byte("\n\n// x\n"))
		f.Add(uint8(path), src, uint16(len(src)/3), uint16(40), []byte(""))
	})
	f.Fuzz(func(t *testing.T, path uint8, src []byte, at, del uint16, ins []byte) {
		p := fuzzPaths[int(path)%len(fuzzPaths)]
		opts := Options{MaxTokens: 30, MinTokens: 8, PreferStructural: true}
		d := NewDocument(p)
		defer d.Close()
		if _, err := d.Update(t.Context(), src, quarter, opts); err != nil {
			t.Fatal(err)
		}
		s := minInt(int(at), len(src))
		e := minInt(s+int(del), len(src))
		edited := append(append(append([]byte(nil), src[:s]...), ins...), src[e:]...)
		got, err := d.Update(t.Context(), edited, quarter, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkChunks(t, edited, got, quarter, opts)
		if g := grammarFor(Language(p)); g != nil {
			tree, err := g.parse(t.Context(), nil, edited)
			if err != nil {
				t.Fatal(err)
			}
			clean := !tree.RootNode().HasError()
			tree.Close()
			if !clean {
				return // error recovery may differ between fresh and incremental parses
			}
		}
		want, err := Split(t.Context(), p, edited, quarter, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-Split +Update):\n%s", diff)
		}
	})
}

func maxInt(a, b int) int { return max(a, b) }
func minInt(a, b int) int { return min(a, b) }
