package pack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// readAllPack packs req as a map that reads and holds every file's text
// (mapReadsAll): the output a map's rounds must give.
func readAllPack(t *testing.T, root string, req Request) (*Result, error) {
	t.Helper()
	mapReadsAll = true
	defer func() { mapReadsAll = false }()
	return planEngine(t, root, nil).Pack(context.Background(), req, nil, nil)
}

// treeBytes is the size of the regular files under root.
func treeBytes(t *testing.T, root string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(root, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		n += fi.Size()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// lowerWalkLimit sets collector.MaxWalkBytes to limit for the test.
func lowerWalkLimit(t *testing.T, limit int64) {
	saved := collector.MaxWalkBytes
	t.Cleanup(func() { collector.MaxWalkBytes = saved })
	collector.MaxWalkBytes = limit
}

// TestMapWithoutIndexPastWalkLimit: a map of a tree whose texts together
// pass the walk's limit packs without an index (the pack keeps the facts
// of what it read and let go of, leanmem.go) — where a map that holds
// every text fails with maxBytesRead — and packs what that map packs
// under the full limit; a map with an index, cold and warm, packs the
// same.
func TestMapWithoutIndexPastWalkLimit(t *testing.T) {
	for _, model := range []string{"", "claude-sonnet-4-5"} {
		t.Run("model="+model, func(t *testing.T) {
			root := planTree(t, 60)
			req := planRequest(root, 1500)
			req.Model = model
			want, err := readAllPack(t, root, req)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(want.Content)) > treeBytes(t, root)/3 {
				t.Fatalf("the map packs %d of the tree's %d bytes: the test needs a budget that packs less", len(want.Content), treeBytes(t, root))
			}
			lowerWalkLimit(t, treeBytes(t, root)/2)
			_, err = readAllPack(t, root, req)
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != errcode.PackFailed || pe.Data["limit"] != "maxBytesRead" {
				t.Fatalf("a map holding every text under the lowered limit: %v; want maxBytesRead (the limit must bite)", err)
			}
			none := planEngine(t, root, nil)
			got := packText(t, none, req)
			if model != "" && none.chunks.Len() == 0 {
				// The engine's cache keeps no estimates' chunks but
				// those of the texts a round read again (reuseCut).
				t.Error("the texts the rounds read again were cut again")
			}
			if got.Content != want.Content || !slices.Equal(got.Warnings, want.Warnings) || got.TokenCount != want.TokenCount {
				t.Errorf("the map without an index differs from the map reading every file:\n%s\n---\n%s\n%q\n%q", got.Content, want.Content, got.Warnings, want.Warnings)
			}
			idx := newMemSetIndex()
			e := planEngine(t, root, idx)
			for _, round := range []string{"cold", "warm"} {
				res := packText(t, e, req)
				if res.Content != want.Content || !slices.Equal(res.Warnings, want.Warnings) {
					t.Errorf("%s: the map with an index differs from the map reading every file:\n%s\n---\n%s", round, res.Content, want.Content)
				}
			}
			if model != "" && idx.hits != 0 {
				// An estimate's counts are not kept in the index: the
				// facts are this pack's.
				t.Errorf("a map counting estimates answered %d files from the index, want none", idx.hits)
			}
			if model == "" && idx.hits < 30 {
				t.Errorf("the warm map answered %d files from the index, want most of 60", idx.hits)
			}
		})
	}
}

// TestMapWithoutIndexReadsAgainForFewFiles: a map without an index keeps
// each file's identifiers as far as a graph of a quarter of the listed
// files scans; when fewer files have chunks (the rest binary), the graph
// scans further and the files cut short are read again: the map equals
// the one reading every file, though the uses between files lie past
// what the walk first kept.
func TestMapWithoutIndexReadsAgainForFewFiles(t *testing.T) {
	root := t.TempDir()
	const files = 24
	pad := strings.Repeat("// "+strings.Repeat("filler words here ", 8)+"\n", 8*mapScanMin/150+1)
	for i := range files {
		src := fmt.Sprintf("package p\n\n%s\nfunc Handler%03d() {\n\tHandler%03d()\n", pad, i, (i+1)%files)
		if i%3 == 0 {
			src += fmt.Sprintf("\tHandler%03d()\n", (i+2)%files)
		}
		writeFile(t, filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(src+"}\n"))
	}
	for i := range mapScanBytes/mapScanMin + 8 {
		writeFile(t, filepath.Join(root, "bin", fmt.Sprintf("e%05d.txt", i)), []byte("\x00\x01binary\x00"))
	}
	total, zero := 4000, 0
	req := Request{Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	want, err := readAllPack(t, root, req)
	if err != nil {
		t.Fatal(err)
	}
	e := planEngine(t, root, nil)
	if lean := e.leanFor(req); lean == nil || !lean.memOnly() {
		t.Fatal("a map without an index is not a map of facts kept in the pack")
	}
	got := packText(t, e, req)
	if got.Content != want.Content {
		t.Errorf("the map without an index differs from the map reading every file:\n%s\n---\n%s", got.Content, want.Content)
	}
}

// TestLeanCountsWith: a map counting estimates keeps its facts in the
// pack (none from or to the index), and a round counting otherwise than
// the first (a factor calibrated meanwhile) answers nothing from facts.
func TestLeanCountsWith(t *testing.T) {
	reg := tokenizer.NewRegistry()
	exact, err := reg.Get("", tokenizer.O200kBase, 0)
	if err != nil {
		t.Fatal(err)
	}
	est, err := reg.Get("claude-sonnet-4-5", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := reg.Get("claude-opus-4-7", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if est.Exact() || est.Encoding() == other.Encoding() {
		t.Fatalf("the test needs two estimating tokenizers of different encodings: %q %q", est.Encoding(), other.Encoding())
	}
	idx := newMemSetIndex()
	si, red := mapStores(idx)
	l := &leanMap{si: si, red: red}
	if l.memOnly() || !l.countsWith(exact) || l.memOnly() || !l.countsWith(exact) {
		t.Fatal("a map counting exactly with an index does not use it")
	}
	l = &leanMap{si: si, red: red}
	if !l.countsWith(est) || !l.memOnly() || l.red != nil {
		t.Fatal("a map counting estimates uses the index's facts")
	}
	if l.countsWith(other) {
		t.Error("a round counting with another factor answers from the first round's facts")
	}
	if si, _ := mapStores(nil); si != (noSets{}) {
		t.Errorf("without an index the map stores facts in %T", si)
	}
}

// TestReuseCutOnlyForTheSameText: a map whose facts stay in the pack
// gives a text it reads again the chunks of its facts (through the
// engine's chunk cache, where the cut finds them) only when the text is
// the one they were cut from, and only with facts kept at the file's
// stat; a map from the index leaves the cache alone.
func TestReuseCutOnlyForTheSameText(t *testing.T) {
	root := t.TempDir()
	text := "package p\n\nfunc A() int { return 1 }\n"
	abs := filepath.Join(root, "a.go")
	writeFile(t, abs, []byte(text))
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatal(err)
	}
	ref := &collector.FileRef{Abs: abs, Path: "a.go", Info: fi}
	reg := tokenizer.NewRegistry()
	tok, err := reg.Get("claude-sonnet-4-5", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	facts := &fileFacts{chunks: slices.Clip([]chunker.Chunk{{StartByte: 0, EndByte: len(text), StartLine: 1, EndLine: 3, Tokens: 9}})}
	cases := []struct {
		name   string
		si     SetIndex
		kept   string // the text the facts were noted of
		read   string // the text read again
		restat bool   // the file's stat changed since
		reused bool
	}{
		{name: "same text", si: noSets{}, kept: text, read: text, reused: true},
		{name: "changed text", si: noSets{}, kept: text, read: strings.Replace(text, "1", "2", 1)},
		{name: "changed stat", si: noSets{}, kept: text, read: text, restat: true},
		{name: "from the index", si: newMemSetIndex(), kept: text, read: text},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := planEngine(t, root, nil)
			lean := &leanMap{si: tc.si}
			lean.keep(ref, facts, 0)
			lean.noteText(ref, tc.kept)
			p := &pipeline{e: e, lean: lean, tok: tok}
			r := ref
			if tc.restat {
				r = &collector.FileRef{Abs: abs, Path: "a.go", Info: restat{fi}}
			}
			p.reuseCut(r, collector.Source{Path: "a.go", Content: tc.read})
			got, ok := e.chunks.Get(chunkKey("a.go", tc.read, p.chunkOptions(), tok.Encoding()))
			if ok != tc.reused || ok && !slices.Equal(got, facts.chunks) {
				t.Errorf("chunks in the cache %v (%v); want reused %v", ok, got, tc.reused)
			}
			if !tc.reused && e.chunks.Len() != 0 {
				t.Errorf("%d entries put in the cache; want none", e.chunks.Len())
			}
		})
	}
}

// restat is a stat of another modification time.
type restat struct{ os.FileInfo }

func (r restat) ModTime() time.Time { return r.FileInfo.ModTime().Add(time.Second) }
