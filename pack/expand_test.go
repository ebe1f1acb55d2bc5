package pack

import (
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// expandItems: a seed chunk in ky.ts calling mergeHeaders (defined in
// merge.ts) and defining request, used by a test; an unrelated chunk; the
// import blocks of both files.
func expandItems() []*budget.Item {
	return []*budget.Item{
		{Seq: 0, Path: "ky.ts", Kind: "imports", Content: "import {mergeHeaders} from './merge.js'"},
		{Seq: 1, Path: "ky.ts", Name: "request", Kind: "function", Content: "function request() { return mergeHeaders(a, b) }"},
		{Seq: 2, Path: "merge.ts", Kind: "imports", Content: "import x from 'y'"},
		{Seq: 3, Path: "merge.ts", Name: "mergeHeaders", Kind: "function", Content: "function mergeHeaders(a, b) {}"},
		{Seq: 4, Path: "test.ts", Name: "testRequest", Kind: "function", Content: "test(() => request())"},
		{Seq: 5, Path: "other.ts", Name: "other", Kind: "function", Content: "function other() {}"},
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name string
		on   string
		// gain of each chunk by Seq
		want []float64
	}{
		{"off", featImportsAll, []float64{0, 0, 0, 0, 0, 0}},
		// merge.ts defines mergeHeaders, which the best seed (score 10)
		// uses; ky.ts defines request, which the test (a seed of 0.5) uses.
		{"defs", "+" + featDefs + "," + featImportsAll, []float64{0, defsWeight * 0.5, 0, defsWeight * 10, 0, 0}},
		// the test calls request, defined by the best seed; ky.ts's import
		// block and request use mergeHeaders, defined by a seed of 1.
		{"callers", "+" + featCallers + "," + featImportsAll, []float64{callersWeight * 1, callersWeight * 1, 0, 0, callersWeight * 10, 0}},
		// the import block of the best files (ky.ts 10, merge.ts 1, ...);
		// on by default.
		// only the best file's with importsn=1.
		{"importsn", "importsn=1", []float64{importsAllWeight * 10, 0, 0, 0, 0, 0}},
		{"importsall", "", []float64{importsAllWeight * 10, 0, importsAllWeight * 1, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items := expandItems()
			raw := []float64{0, 10, 0, 1, 0.5, 0}
			q := &query{feat: newFeatures(strings.Split(tt.on, ",")), raw: append([]float64(nil), raw...),
				fileBest: map[string]float64{"ky.ts": 10, "merge.ts": 1, "test.ts": 0.5}}
			q.expand(items)
			for i := range raw {
				if got := q.raw[i] - raw[i]; !near(got, tt.want[i]) {
					t.Errorf("chunk %d gained %v, want %v", i, got, tt.want[i])
				}
			}
			// A gain that beats a file's best raises it (file evidence).
			if tt.name == "defs" && !near(q.fileBest["merge.ts"], 1+defsWeight*10) {
				t.Errorf("merge.ts best = %v, want %v", q.fileBest["merge.ts"], 1+defsWeight*10)
			}
		})
	}
}

// TestExpandCommonNames: a name defined by more than expandMaxDefiners
// chunks leads nowhere.
func TestExpandCommonNames(t *testing.T) {
	items := []*budget.Item{{Seq: 0, Path: "a.go", Name: "seed", Content: "Handle(x)"}}
	for i := 1; i <= expandMaxDefiners+1; i++ {
		items = append(items, &budget.Item{Seq: i, Path: "d.go", Name: "Handle", Content: "func Handle() {}"})
	}
	raw := make([]float64, len(items))
	raw[0] = 5
	q := &query{feat: newFeatures([]string{"+" + featDefs, featImportsAll}), raw: raw, fileBest: map[string]float64{"a.go": 5}}
	q.expand(items)
	for i := 1; i < len(items); i++ {
		if q.raw[i] != 0 {
			t.Errorf("chunk %d gained %v from a name of %d definers", i, q.raw[i], len(items)-1)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestImportsFloor: with importsfloor an import block is lifted to
// importsAllWeight × its file's best score, not raised by it: one that is
// itself its file's best chunk gains nothing.
func TestImportsFloor(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.go", Kind: "imports"},
		{Seq: 1, Path: "a.go", Kind: "function"},
		{Seq: 2, Path: "b.go", Kind: "imports"}, // b.go's only chunk
	}
	for _, tt := range []struct {
		on   string
		want []float64
	}{
		{"", []float64{importsAllWeight * 10, 0, importsAllWeight * 4}},
		{"+" + featImportsFloor, []float64{importsAllWeight*10 - 1, 0, 0}},
	} {
		raw := []float64{1, 10, 4}
		q := &query{feat: newFeatures([]string{tt.on}), raw: append([]float64(nil), raw...),
			fileBest: map[string]float64{"a.go": 10, "b.go": 4}}
		q.expand(items)
		for i := range raw {
			if got := q.raw[i] - raw[i]; !near(got, tt.want[i]) {
				t.Errorf("%q: chunk %d gained %v, want %v", tt.on, i, got, tt.want[i])
			}
		}
	}
}

// TestFileHead: with filehead the first chunk of a best file counts as
// its import block even when the chunker did not mark it (require lines).
func TestFileHead(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.js", Kind: "variable", StartLine: 1, EndLine: 3, Content: "const u = require('./u')"},
		{Seq: 1, Path: "a.js", Kind: "function", StartLine: 5, EndLine: 9},
	}
	for _, tt := range []struct {
		on   string
		want float64
	}{
		{"", 0},
		{"+" + featFileHead, importsAllWeight * 10},
	} {
		q := &query{feat: newFeatures([]string{tt.on}), raw: []float64{0, 10}, fileBest: map[string]float64{"a.js": 10}}
		q.expand(items)
		if !near(q.raw[0], tt.want) || q.raw[1] != 10 {
			t.Errorf("%q: raw = %v, want [%v 10]", tt.on, q.raw, tt.want)
		}
	}
}
