package pack

import (
	"path"
	"sort"
	"strings"
)

// Test partners (docs/ranking.md "File signals"): a change to a library
// file often changes its test file too (context.go and context_test.go,
// cookies.py and tests/test_cookies.py, JsonParser.java and
// JsonParserTest.java). The test file whose name, stripped of its test
// marks, is the name of one of the best lexically ranked library files
// gains a factor, as a co-change partner does — from the names alone, so
// it works outside git and on files without history.
const (
	featTestPairs = "testpairs"
	// testPairSeeds are the best library files whose tests gain.
	testPairSeeds = 5
	// testPairWeight scales the gain: at most 1 + testPairWeight, in
	// proportion to the seed's score over the best.
	testPairWeight = 0.5
)

// pairStem is a file's name without its directory, extension and test
// marks, lower-cased: "context_test.go", "test_context.py",
// "ContextTest.java", "context.spec.ts" and "context.go" all give
// "context".
func pairStem(p string) string {
	b := strings.ToLower(path.Base(p))
	if i := strings.IndexByte(b[min(1, len(b)):], '.'); i >= 0 {
		b = b[:i+min(1, len(b))] // every extension and .test/.spec mark
	}
	b = strings.TrimPrefix(b, "test_")
	for _, s := range []string{"_test", "tests", "test"} {
		if strings.HasSuffix(b, s) && len(b) > len(s) {
			b = strings.TrimSuffix(b, s)
			break
		}
	}
	return strings.TrimRight(b, "_-.")
}

// testPairFactors is the factor of each test file (by path) that is the
// partner of one of the testPairSeeds best library files in fileBest;
// nil when none is.
func testPairFactors(fileBest map[string]float64, weight float64) map[string]float64 {
	if weight <= 0 || len(fileBest) == 0 {
		return nil
	}
	best := 0.0
	for _, s := range fileBest {
		best = max(best, s)
	}
	lib := bestFiles(fileBest, testPairSeeds, func(p string) bool { return !isTest(p) })
	if best <= 0 || len(lib) == 0 {
		return nil
	}
	seed := map[string]float64{}
	for _, f := range lib {
		st := pairStem(f.path)
		if len(st) >= 3 {
			seed[st] = max(seed[st], f.score/best)
		}
	}
	var out map[string]float64
	for p := range fileBest {
		if !isTest(p) {
			continue
		}
		if s, ok := seed[pairStem(p)]; ok {
			if out == nil {
				out = map[string]float64{}
			}
			out[p] = 1 + weight*min(1, s)
		}
	}
	return out
}

// fileScore is a file's path and score.
type fileScore struct {
	path  string
	score float64
}

// bestFiles is the n files of scores with the best positive scores that
// keep accepts, best first (ties: path asc).
func bestFiles(scores map[string]float64, n int, keep func(string) bool) []fileScore {
	var out []fileScore
	for p, s := range scores {
		if s > 0 && keep(p) {
			out = append(out, fileScore{p, s})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].path < out[j].path
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
