package pack

import (
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// TestIntraFile: inside a best file, the helper the best chunk calls and
// the function calling it gain; a chunk of another file with the same
// names, and an unrelated chunk of the file, do not.
func TestIntraFile(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.go", Name: "Keys", Content: "func Keys() { lockMap(); }"},
		{Seq: 1, Path: "a.go", Name: "lockMap", Content: "func lockMap() {}"},
		{Seq: 2, Path: "a.go", Name: "Copy", Content: "func Copy() { Keys() }"},
		{Seq: 3, Path: "a.go", Name: "Other", Content: "func Other() {}"},
		{Seq: 4, Path: "b.go", Name: "lockMap", Content: "func lockMap() { Keys() }"},
	}
	for _, tc := range []struct {
		name   string
		ablate []string
		want   []float64
	}{
		{"off", []string{featImportsAll}, []float64{4, 0, 0, 0, 1}},
		{"on", []string{"+" + featIntraFile, featImportsAll}, []float64{4, intraFileWeight * 4, intraFileWeight * 4, 0, 1}},
		{"callees", []string{"+" + featIntraFile, "intrafilemode=1", featImportsAll}, []float64{4, intraFileWeight * 4, 0, 0, 1}},
		{"callers", []string{"+" + featIntraFile, "intrafilemode=2", featImportsAll}, []float64{4, 0, intraFileWeight * 4, 0, 1}},
		{"no seeds", []string{"+" + featIntraFile, "intrafilek=0", featImportsAll}, []float64{4, 0, 0, 0, 1}},
		{"weight", []string{"+" + featIntraFile, "intrafilew=0.5", featImportsAll}, []float64{4, 2, 2, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := []float64{4, 0, 0, 0, 1}
			q := &query{feat: newFeatures(tc.ablate), raw: raw, fileBest: map[string]float64{"a.go": 4, "b.go": 1}}
			q.expand(items)
			for i, w := range tc.want {
				if !near(q.raw[i], w) {
					t.Errorf("chunk %d: %v, want %v (all %v)", i, q.raw[i], w, q.raw)
				}
			}
		})
	}
}
