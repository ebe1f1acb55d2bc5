package lsp

import (
	"encoding/json"
	"math"
	"testing"

	"go.lsp.dev/protocol"
)

// TestAppendLensesMatchesEncoding: the hand-written lens JSON is byte for
// byte encoding/json's encoding of the same lenses as protocol values,
// with states unknown and known (labels, in context, to fit, not packed),
// strings that need escaping, and scores of every magnitude.
func TestAppendLensesMatchesEncoding(t *testing.T) {
	items := []lensItem{
		{line: 0, end: 99, tokens: 12345, title: "12,345 tokens · 12.3% of budget", st: fitState{in: true, score: 0.5}, whole: true},
		{line: 3, end: 9, tokens: 7, title: "7 tokens", st: fitState{toFit: 1200, score: 1e-7}},
		{line: 10, end: 10, tokens: 1, title: "≈1 tokens", st: fitState{reason: `secret "<key>" & \ more`, score: 3e21}},
		{line: 11, end: 12, tokens: 0, title: "0 tokens"},
		{line: 4000000, end: 4000001, tokens: 2, title: "bad \xff utf-8 \u2028 \x01", st: fitState{in: true, score: math.NaN()}},
		{line: 13, end: 14, tokens: 2, title: "2 tokens", st: fitState{toFit: -1, score: 123.456}},
	}
	commons := []lensCommon{
		{uri: "file:///w/a.go", path: "/w/a.go", total: 100000, available: 90000},
		{uri: "file:///w/a.go", path: "/w/a.go", total: 100000, available: 90000, known: true},
		{uri: "untitled:Untitled-1", total: 5, available: -3, known: true},
		{uri: "file:///w/%C3%A9%20x.go", path: "/w/é x<y>.go", total: 1, available: 1, known: true},
	}
	for _, c := range commons {
		values := make([]protocol.CodeLens, 0, len(items))
		for _, it := range items {
			if math.IsNaN(it.st.score) {
				it.st.score = 0 // encoding/json refuses NaN; appendLens leaves it out
			}
			values = append(values, lensValue(it, c))
		}
		want, err := json.Marshal(values)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendLenses(nil, items, c); string(got) != string(want) {
			t.Errorf("appendLenses(%+v) =\n%s\nwant\n%s", c, got, want)
		}
	}
	if got := appendLenses(nil, nil, commons[0]); string(got) != "[]" {
		t.Errorf("no lenses = %s, want []", got)
	}
}
