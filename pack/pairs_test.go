package pack

import (
	"reflect"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

func TestPairStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"context.go", "context"},
		{"context_test.go", "context"},
		{"tests/test_cookies.py", "cookies"},
		{"httpx/_cookies.py", "_cookies"},
		{"gson/src/test/java/com/google/gson/JsonParserTest.java", "jsonparser"},
		{"gson/src/main/java/com/google/gson/JsonParser.java", "jsonparser"},
		{"test/specs/core/AxiosError.spec.js", "axioserror"},
		{"lib/core/AxiosError.js", "axioserror"},
		{"test/hooks.test.ts", "hooks"},
		{".eslintrc.js", ".eslintrc"},
		{"test.py", "test"},
	}
	for _, tt := range tests {
		if got := pairStem(tt.in); got != tt.want {
			t.Errorf("pairStem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTestPairFactors(t *testing.T) {
	best := map[string]float64{
		"context.go":      4,
		"gin.go":          2,
		"context_test.go": 1,
		"gin_test.go":     0.5,
		"tree_test.go":    3, // its library file is not a seed
		"README.md":       1,
	}
	got := testPairFactors(best, 0.5)
	want := map[string]float64{"context_test.go": 1.5, "gin_test.go": 1.25}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testPairFactors = %v, want %v", got, want)
	}
	if got := testPairFactors(best, 0); got != nil {
		t.Errorf("weight 0: %v, want nil", got)
	}
	if got := testPairFactors(map[string]float64{"a_test.go": 1}, 0.5); got != nil {
		t.Errorf("no library file: %v, want nil", got)
	}
}

func TestSpread(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.go"}, {Seq: 1, Path: "a.go"}, {Seq: 2, Path: "a.go"}, {Seq: 3, Path: "b.go"},
	}
	q := &query{feat: features{spreadDecay: 0.5}, raw: []float64{1, 4, 2, 3}, best: 4}
	q.spread(items)
	// a.go in score order: seq 1 (×1), seq 2 (×0.5), seq 0 (×0.25); b.go alone.
	if want := []float64{0.25, 4, 1, 3}; !reflect.DeepEqual(q.raw, want) {
		t.Errorf("raw = %v, want %v", q.raw, want)
	}
	if q.best != 4 {
		t.Errorf("best = %v, want 4", q.best)
	}
}

func TestStripIssueRefs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Remove proxies from Request docstring (#839)", "Remove proxies from Request docstring ( )"},
		{"Support negotiation wildcards, fix #391 (#1112)", "Support negotiation wildcards, fix   ( )"},
		{"fix GH-42: close body", "fix  : close body"},
		{"#12", "#12"}, // nothing else: kept
		{"color #fff and a&#39;b", "color #fff and a&#39;b"}, // not references
		{"http2 support", "http2 support"},
	}
	for _, tt := range tests {
		if got := stripIssueRefs(tt.in); got != tt.want {
			t.Errorf("stripIssueRefs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNewFeatures(t *testing.T) {
	def := newFeatures(nil)
	if !def.spread || !def.vendored || !def.graph || def.testPairs || def.issueRefs || def.codeNames {
		t.Fatalf("defaults: %+v", def)
	}
	f := newFeatures([]string{"spread", " +testpairs", "history", "graphw=0.6", "spreadd=x", "nosuch", "recentw=-1"})
	if f.spread || !f.testPairs || f.recent || f.cochange || !f.graph {
		t.Errorf("switches: %+v", f)
	}
	if f.graphW != 0.6 || f.spreadDecay != spreadDecay || f.recentW != recentFactor {
		t.Errorf("weights: graphW %v spreadDecay %v recentW %v", f.graphW, f.spreadDecay, f.recentW)
	}
}
