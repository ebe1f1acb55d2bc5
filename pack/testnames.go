package pack

import (
	"sort"
	"strings"

	"github.com/acode-lsp/acode-lsp/budget"
)

// Test partners by name (issue 23, fourth pass; "+testnames"): a test file
// is named after what it tests, which is often a type rather than a file —
// httpx's tests/models/test_cookies.py tests the Cookies class of
// _models.py, test_status_codes.py the module _status_codes.py (the
// leading "_" of a private module is not part of the name). The seeds are
// the symbol names of the best-scored library chunks and the names of the
// best library files; a test file whose stem (pairStem without "_" and
// "-") is one of them gains 1 + testPairW × the seed's score over the
// best, as test partners by file name do (pairs.go). Off: it gained on
// the dev cases (test lines +0.07, file recall +0.01 at 8K) and lost on
// the held-out ones at 8K (line −0.016, library lines −0.050;
// docs/quality.md, "Issue 23, fourth pass"); "+testnames" turns it on.
const (
	featTestNames = "testnames"
	// testNameSeeds is the number of best library chunks whose symbol
	// names are seeds.
	testNameSeeds = 8
	// featTestTail ("+testtail", with "+testnames"): the last chunk of
	// each named test partner gains testTailWeight × the file's best
	// score — a new test is most often appended at the end of its file,
	// where no word of the task is yet ("testtailw=x").
	featTestTail   = "testtail"
	testTailWeight = 0.5
	// featTestCap ("+testcap"): a partner's factor does not lift the test
	// file's best chunk above the seed that named it (the test comes after
	// the code it tests).
	featTestCap = "testcap"
)

// nameKey is a name lower-cased without "_" and "-": "_status_codes",
// "StatusCodes" and "status-codes" all give "statuscodes".
func nameKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// testNameFactors is the factor of each test file among items named
// after a seed (see above), and records them as q.testPartners (with
// testPairW 0 each factor is 1: partners for testtail alone); nil when
// the switch is off or none is.
func (q *query) testNameFactors(items []*budget.Item) map[string]float64 {
	if !q.feat.testNames {
		return nil
	}
	seeds := q.testNameSeeds(items)
	var out map[string]float64
	for p := range q.fileBest {
		if !isTest(p) {
			continue
		}
		if s, ok := seeds[nameKey(pairStem(p))]; ok {
			if out == nil {
				out = map[string]float64{}
			}
			f := 1 + q.feat.testPairW*min(1, s.rel)
			if q.feat.testCap && q.fileBest[p] > 0 {
				// the test stays behind what it tests
				f = min(f, max(1, s.abs/q.fileBest[p]))
			}
			out[p] = f
		}
	}
	q.testPartners = out
	return out
}

// seedScore is a seed's score over the best file's (rel) and its own
// (abs).
type seedScore struct{ rel, abs float64 }

// testNameSeeds maps the name keys of the testPairSeeds best library
// files and of the symbols of the testNameSeeds best library chunks to
// their score over the best file's; nil when no file scores.
func (q *query) testNameSeeds(items []*budget.Item) map[string]seedScore {
	best := 0.0
	for _, s := range q.fileBest {
		best = max(best, s)
	}
	if best <= 0 {
		return nil
	}
	seeds := map[string]seedScore{}
	add := func(name string, score float64) {
		if k := nameKey(name); len(k) >= graphMinName && score > seeds[k].abs {
			seeds[k] = seedScore{rel: score / best, abs: score}
		}
	}
	for _, f := range bestFiles(q.fileBest, testPairSeeds, func(p string) bool { return !isTest(p) }) {
		add(pairStem(f.path), f.score)
	}
	var lib []*budget.Item
	for _, it := range items {
		if it.Name != "" && it.Path != "" && !isTest(it.Path) && q.raw[it.Seq] > 0 {
			lib = append(lib, it)
		}
	}
	sort.SliceStable(lib, func(i, j int) bool { return q.raw[lib[i].Seq] > q.raw[lib[j].Seq] })
	for _, it := range lib[:min(len(lib), testNameSeeds)] {
		identifiers(it.Name, func(w string) { add(w, q.raw[it.Seq]) })
	}
	return seeds
}

// addTestTails: the last chunk of each test partner (q.testPartners)
// gains testTailW × its file's best score (featTestTail).
func (q *query) addTestTails(items []*budget.Item, add map[int]float64) {
	if !q.feat.testTail || len(q.testPartners) == 0 {
		return
	}
	last := map[string]*budget.Item{}
	for _, it := range items {
		if _, ok := q.testPartners[it.Path]; ok && (last[it.Path] == nil || it.EndLine > last[it.Path].EndLine) {
			last[it.Path] = it
		}
	}
	for p, it := range last {
		add[it.Seq] = max(add[it.Seq], q.feat.testTailW*q.fileBest[p])
	}
}
