package pack

import (
	"reflect"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// TestSpreadStep: with a step, every chunk of a file after its best keeps
// step × decay^k.
func TestSpreadStep(t *testing.T) {
	items := []*budget.Item{{Seq: 0, Path: "a.go"}, {Seq: 1, Path: "a.go"}, {Seq: 2, Path: "a.go"}}
	q := &query{feat: features{spreadDecay: 0.5, spreadStep: 0.8}, raw: []float64{4, 8, 2}}
	q.spread(items)
	// in score order: seq 1 ×1, seq 0 ×0.5·0.8, seq 2 ×0.25·0.8
	if want := []float64{1.6, 8, 0.4}; !nearAll(q.raw, want) {
		t.Errorf("raw = %v, want %v", q.raw, want)
	}
}

func nearAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestCoverFactors: a file's factor grows with the summed weight of the
// distinct query terms its chunks hold, relative to the best file.
func TestCoverFactors(t *testing.T) {
	q := &query{feat: newFeatures([]string{"+" + featCover, "coverw=0.5"}), terms: []string{"a", "b", "c"}, w: []float64{1, 2, 1}}
	q.addCover("x.go", []uint16{1, 0, 0})
	q.addCover("x.go", []uint16{0, 3, 0}) // another chunk of x.go
	q.addCover("y.go", []uint16{0, 0, 2})
	q.addCover("z.go", []uint16{0, 0, 0})
	want := map[string]float64{"x.go": 1.5, "y.go": 1 + 0.5*1.0/3}
	got := q.coverFactors()
	if len(got) != len(want) {
		t.Fatalf("coverFactors = %v, want %v", got, want)
	}
	for p, w := range want {
		if !near(got[p], w) {
			t.Errorf("%s: %v, want %v", p, got[p], w)
		}
	}
	q.feat.cover = false
	if got := q.coverFactors(); got != nil {
		t.Errorf("off: %v, want nil", got)
	}
}

func TestIsRequireBlock(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"'use strict';\n\nvar utils = require('./utils');\nvar buildURL = require('../helpers/buildURL');\n", true},
		{"// deps\nconst { a, b } = require(\"x\");\n", true},
		{"function f() {\n  var x = require('y');\n  return x(1);\n}\n", false},
		{"import x from 'y';\n", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isRequireBlock(tt.text); got != tt.want {
			t.Errorf("isRequireBlock(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestNameKey(t *testing.T) {
	for in, want := range map[string]string{"_status_codes": "statuscodes", "StatusCodes": "statuscodes", "status-codes": "statuscodes", "Cookies": "cookies"} {
		if got := nameKey(in); got != want {
			t.Errorf("nameKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTestNames: a test file named after a best library chunk's symbol
// (test_cookies.py ↔ class Cookies) or a best library file without its
// leading "_" (test_status_codes.py ↔ _status_codes.py) gains; with
// testtail its last chunk gains too.
func TestTestNames(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "httpx/_models.py", Name: "Cookies.set", StartLine: 10, EndLine: 20},
		{Seq: 1, Path: "httpx/_status_codes.py", Name: "codes", StartLine: 1, EndLine: 9},
		{Seq: 2, Path: "tests/test_cookies.py", Name: "test_cookies", StartLine: 1, EndLine: 30},
		{Seq: 3, Path: "tests/test_cookies.py", Name: "test_more", StartLine: 31, EndLine: 60},
		{Seq: 4, Path: "tests/test_status_codes.py", StartLine: 1, EndLine: 12},
		{Seq: 5, Path: "tests/test_client.py", StartLine: 1, EndLine: 12},
	}
	q := &query{feat: newFeatures([]string{"+" + featTestNames, "+" + featTestTail}), raw: []float64{10, 5, 1, 0.5, 1, 1},
		fileBest: map[string]float64{"httpx/_models.py": 10, "httpx/_status_codes.py": 5, "tests/test_cookies.py": 1,
			"tests/test_status_codes.py": 1, "tests/test_client.py": 1}}
	got := q.testNameFactors(items)
	want := map[string]float64{"tests/test_cookies.py": 1 + testPairWeight, "tests/test_status_codes.py": 1 + testPairWeight*0.5}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("testNameFactors = %v, want %v", got, want)
	}
	add := map[int]float64{}
	q.addTestTails(items, add)
	if want := map[int]float64{3: testTailWeight * 1, 4: testTailWeight * 1}; !reflect.DeepEqual(add, want) {
		t.Errorf("tails = %v, want %v", add, want)
	}
	q.feat.testNames = false
	if got := q.testNameFactors(items); got != nil {
		t.Errorf("off: %v", got)
	}
}

// TestTestCap: with testcap a partner's factor stops where its best chunk
// would pass the seed that named it.
func TestTestCap(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "context.go", Name: "(*Context).ClientIP", StartLine: 1, EndLine: 9},
		{Seq: 1, Path: "context_test.go", Name: "TestContextClientIP", StartLine: 1, EndLine: 9},
		{Seq: 2, Path: "router.go", Name: "Engine", StartLine: 1, EndLine: 9},
		{Seq: 3, Path: "router_test.go", StartLine: 1, EndLine: 9},
	}
	best := map[string]float64{"context.go": 10, "context_test.go": 8, "router.go": 2, "router_test.go": 4}
	for _, tt := range []struct {
		on   []string
		want map[string]float64
	}{
		{[]string{"+" + featTestNames}, map[string]float64{"context_test.go": 1.5, "router_test.go": 1.1}},
		// context_test.go stops at 10/8; router_test.go already scores above router.go: 1
		{[]string{"+" + featTestNames, "+" + featTestCap}, map[string]float64{"context_test.go": 1.25, "router_test.go": 1}},
	} {
		q := &query{feat: newFeatures(tt.on), raw: []float64{10, 8, 2, 4}, fileBest: best}
		got := q.testNameFactors(items)
		if len(got) != len(tt.want) {
			t.Fatalf("%v: %v, want %v", tt.on, got, tt.want)
		}
		for p, w := range tt.want {
			if !near(got[p], w) {
				t.Errorf("%v: %s %v, want %v", tt.on, p, got[p], w)
			}
		}
	}
}
