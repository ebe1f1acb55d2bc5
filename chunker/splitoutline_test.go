package chunker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// outlineInputs returns the golden input of every grammar and real files
// of several languages, by name.
func outlineInputs(t *testing.T) (names []string, datas [][]byte) {
	t.Helper()
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		names, datas = append(names, ar.Files[0].Name), append(datas, ar.Files[0].Data)
	}
	for _, path := range editCorpus(t)[:7] {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		names, datas = append(names, filepath.Base(path)), append(datas, data)
	}
	return names, datas
}

// TestFindBodyC checks that signatures found in one call into C
// (findBodyC) end where findBody's, node by node, end: the outline of
// every input is the same both ways, and so is the signature end of
// every declaration and member.
func TestFindBodyC(t *testing.T) {
	names, datas := outlineInputs(t)
	sigs := 0
	for i, name := range names {
		lang := Language(name)
		if lang == "" {
			continue
		}
		g := grammarFor(lang)
		tree, err := g.parse(context.Background(), nil, datas[i])
		if err != nil {
			t.Fatal(err)
		}
		outlineWay := func(bodies []uint8) ([]LineRange, []int) {
			o := &outline{li: newLineIndex(datas[i]), src: datas[i], ctx: context.Background(), sigs: true, bodies: bodies}
			var ends []int
			var walk func(ds []decl)
			walk = func(ds []decl) {
				for _, d := range ds {
					ends = append(ends, d.sig)
					if d.members != nil {
						walk(d.members())
					}
				}
			}
			ds := g.outline(o, tree.RootNode())
			walk(ds)
			return outlineRanges(context.Background(), ds), ends
		}
		wantRanges, wantEnds := outlineWay(nil)
		gotRanges, gotEnds := outlineWay(g.bodyFlags())
		tree.Close()
		if diff := cmp.Diff(wantEnds, gotEnds); diff != "" {
			t.Errorf("%s: signature ends differ (-findBody +findBodyC):\n%s", name, diff)
		}
		if diff := cmp.Diff(wantRanges, gotRanges); diff != "" {
			t.Errorf("%s: outline differs (-findBody +findBodyC):\n%s", name, diff)
		}
		sigs += len(wantEnds)
	}
	if sigs < 400 {
		t.Errorf("%d signatures compared, want at least 400", sigs)
	}
}

// TestSplitOutlineMatches checks that SplitOutline, one parse, returns
// what Split and Outline return with a parse each, on the golden input of
// every grammar and on real files of several languages, with the chunk
// sizes that make the layout split declarations into members and those
// that keep them whole, merged or not.
func TestSplitOutlineMatches(t *testing.T) {
	names, datas := outlineInputs(t)
	type input struct {
		name string
		data []byte
	}
	var ins []input
	for i := range names {
		ins = append(ins, input{names[i], datas[i]})
	}
	langs := map[string]bool{}
	outlined := 0
	for _, in := range ins {
		langs[Language(in.name)] = true
		for _, opts := range []Options{
			{PreferStructural: true},
			{PreferStructural: true, NoMerge: true},
			{PreferStructural: true, MaxTokens: 40, MinTokens: 10},
		} {
			ctx := context.Background()
			want, err1 := Split(ctx, in.name, in.data, quarter, opts)
			wantOutline, err2 := Outline(ctx, in.name, in.data)
			got, gotOutline, parsed, err3 := SplitOutline(ctx, in.name, in.data, quarter, opts)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatal(in.name, err1, err2, err3)
			}
			if parsed != (Language(in.name) != "") {
				t.Errorf("%s: parsed %v, want %v", in.name, parsed, !parsed)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s %+v: chunks differ from Split's (-Split +SplitOutline):\n%s", in.name, opts, diff)
			}
			if !parsed {
				if gotOutline != nil {
					t.Errorf("%s: outline %v without a parse", in.name, gotOutline)
				}
				continue
			}
			if diff := cmp.Diff(wantOutline, gotOutline); diff != "" {
				t.Errorf("%s %+v: outline differs from Outline's (-Outline +SplitOutline):\n%s", in.name, opts, diff)
			}
			if len(gotOutline) > 0 {
				outlined++
			}
		}
	}
	for lang := range grammars {
		if !langs[lang] {
			t.Errorf("no input of %s", lang)
		}
	}
	if outlined < 3*len(grammars) {
		t.Errorf("%d non-empty outlines compared, want at least %d", outlined, 3*len(grammars))
	}
}

// TestSplitOutlineUnparsed checks that SplitOutline leaves the outline
// unknown when Split does not parse: line windows asked for, no grammar,
// no text; and that a cancelled context is an error.
func TestSplitOutlineUnparsed(t *testing.T) {
	src := []byte("package p\n\n// F does.\nfunc F() {}\n")
	for _, tt := range []struct {
		name, path string
		src        []byte
		opts       Options
	}{
		{"line windows", "p.go", src, Options{}},
		{"no grammar", "p.txt", src, Options{PreferStructural: true}},
		{"empty", "p.go", nil, Options{PreferStructural: true}},
	} {
		_, rs, parsed, err := SplitOutline(context.Background(), tt.path, tt.src, quarter, tt.opts)
		if err != nil || parsed || rs != nil {
			t.Errorf("%s: outline %v, parsed %v, err %v; want none", tt.name, rs, parsed, err)
		}
	}
	_, rs, parsed, err := SplitOutline(context.Background(), "p.go", src, quarter, Options{PreferStructural: true})
	if err != nil || !parsed || len(rs) != 1 || rs[0] != (LineRange{3, 4}) {
		t.Errorf("p.go: outline %v, parsed %v, err %v; want [{3 4}]", rs, parsed, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := SplitOutline(ctx, "p.go", src, quarter, Options{PreferStructural: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
