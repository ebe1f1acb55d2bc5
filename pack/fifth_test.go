package pack

import (
	"reflect"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// The fifth pass's switches (feedback.go, graphadd.go, qtf.go, abbrev.go,
// spread.go's file quota): each is off by default and changes scores
// the way its doc comment says when on.

func TestFifthPassSwitchesOffByDefault(t *testing.T) {
	f := newFeatures(nil)
	if f.prf || f.prfOther || f.graphAdd || f.qtf || f.abbrev || f.fileQuota {
		t.Fatalf("a fifth-pass switch is on by default: %+v", f)
	}
	on := newFeatures([]string{"+prf", "+prfother", "+graphadd", "+qtf", "+abbrev", "+filequota", "prfk=2", "prfn=4", "prfw=0.1", "graphaddn=1", "graphaddw=0.2", "qtfk=3", "abbrevw=0.4", "filequotan=2", "filequotaf=0.5"})
	if !on.prf || !on.prfOther || !on.graphAdd || !on.qtf || !on.abbrev || !on.fileQuota {
		t.Fatalf("a switch did not turn on: %+v", on)
	}
	got := []float64{on.prfK, on.prfN, on.prfW, on.graphAddN, on.graphAddW, on.qtfK, on.abbrevW, on.fileQuotaN, on.fileQuotaF}
	want := []float64{2, 4, 0.1, 1, 0.2, 3, 0.4, 2, 0.5}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("weights = %v, want %v", got, want)
	}
}

// feedbackItems: the best file (client.go) is full of cookieJar, a word
// the query does not say; jar.go defines it; other.go has none of it.
func feedbackItems() []*budget.Item {
	return []*budget.Item{
		{Seq: 0, Path: "client.go", Tokens: 40, Content: "func send() { cookieJar.set(); cookieJar.get(); cookieJar.clear() }"},
		{Seq: 1, Path: "jar.go", Tokens: 40, Content: "type cookieJar struct{} // the jar"},
		{Seq: 2, Path: "other.go", Tokens: 40, Content: "func unrelated() { printLine() }"},
		{Seq: 3, Path: "more.go", Tokens: 40, Content: "func more() { printLine() }"},
		{Seq: 4, Path: "last.go", Tokens: 40, Content: "func last() { printLine() }"},
	}
}

func TestFeedback(t *testing.T) {
	for _, tt := range []struct {
		name string
		on   string
		// gains, by Seq, that must be positive (the others must be 0)
		gain []int
	}{
		{"prf", "+prf,prfk=1,importsall", []int{0, 1}},
		{"prfother", "+prf,+prfother,prfk=1,importsall", []int{1}},
		{"off", "importsall", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			items := feedbackItems()
			raw := []float64{2, 0, 0, 0, 0}
			q := &query{feat: newFeatures(strings.Split(tt.on, ",")), raw: append([]float64(nil), raw...),
				fileBest: map[string]float64{"client.go": 2}, index: map[string]int{"send": 0}, terms: []string{"send"}}
			q.expand(items)
			want := map[int]bool{}
			for _, s := range tt.gain {
				want[s] = true
			}
			for i := range raw {
				g := q.raw[i] - raw[i]
				if want[i] != (g > 0) || g < 0 {
					t.Errorf("chunk %d gained %v, want a gain: %v", i, g, want[i])
				}
				// bounded: no chunk gains more than prfWeight × the best
				if g > prfWeight*2+1e-9 {
					t.Errorf("chunk %d gained %v, more than %v", i, g, prfWeight*2)
				}
			}
		})
	}
}

func TestFeedbackCandidatesLeaveOutQueryShortAndNumbers(t *testing.T) {
	q := &query{index: map[string]int{"send": 0}}
	items := []*budget.Item{{Seq: 0, Path: "a.go", Content: "send send ctx 1234 cookieJar cookieJar"}}
	got := q.feedbackCandidates(items, []fileScore{{"a.go", 1}})
	var terms []string
	for _, c := range got {
		terms = append(terms, c.term)
	}
	// jar is shorter than prfMinLen; cookie and cookiejar tie, by term
	if strings.Join(terms, ",") != "cookie,cookiejar" {
		t.Fatalf("candidates = %v, want cookie, cookiejar", terms)
	}
	for _, x := range terms {
		if x == "send" || x == "ctx" || x == "1234" || len(x) < prfMinLen {
			t.Fatalf("candidate %q should be left out", x)
		}
	}
}

func TestGraphAdd(t *testing.T) {
	// a.go (the seed) calls helperFunc, defined in b.go, which has no
	// query word: only the additive graph gain reaches it.
	items := []*budget.Item{
		{Seq: 0, Path: "a.go", Name: "main", Content: "func main() { helperFunc() }"},
		{Seq: 1, Path: "b.go", Name: "helperFunc", Content: "func helperFunc() {}"},
		{Seq: 2, Path: "c.go", Name: "lonely", Content: "func lonely() {}"},
	}
	for _, on := range []bool{false, true} {
		sw := []string{"importsall"}
		if on {
			sw = append(sw, "+graphadd")
		}
		raw := []float64{1, 0, 0}
		q := &query{feat: newFeatures(sw), raw: append([]float64(nil), raw...), fileBest: map[string]float64{"a.go": 1}}
		q.expand(items)
		got := q.raw[1] - raw[1]
		want := 0.0
		if on {
			want = graphAddWeight * 1 * 1 * 0.5 // strength 1, best own 1, no own score: half
		}
		if !near(got, want) || q.raw[2] != 0 || q.raw[0] != 1 {
			t.Errorf("graphadd %v: b.go gained %v (want %v), c.go %v, a.go %v", on, got, want, q.raw[2], q.raw[0])
		}
	}
}

func TestQTF(t *testing.T) {
	terms := queryTerms("cookie jar: the cookie, again the Cookie")
	w := make([]float64, len(terms))
	for i := range w {
		w[i] = 1
	}
	applyQTF("cookie jar: the cookie, again the Cookie", terms, w, qtfK3)
	for i, term := range terms {
		want := 1.0
		if term == "cookie" {
			want = (qtfK3 + 1) * 3 / (qtfK3 + 3)
		}
		if !near(w[i], want) {
			t.Errorf("weight of %q = %v, want %v", term, w[i], want)
		}
	}
}

func TestRankTermsAbbrev(t *testing.T) {
	terms, orig := rankTerms("Fix the request error", newFeatures(nil))
	if strings.Join(terms, ",") != "fix,request,error" || orig != 3 {
		t.Fatalf("off: %v %d", terms, orig)
	}
	terms, orig = rankTerms("Fix the request error in ctx", newFeatures([]string{"+abbrev"}))
	if orig != 4 || strings.Join(terms, ",") != "fix,request,error,ctx,req,err,context" {
		t.Fatalf("on: %v %d, want the query's 4 terms then req, err, context", terms, orig)
	}
	w := []float64{1, 1, 1, 1, 2, 2, 2}
	scaleAdded(w, orig, newFeatures([]string{"+abbrev"}))
	if !reflect.DeepEqual(w, []float64{1, 1, 1, 1, 2 * abbrevWeight, 2 * abbrevWeight, 2 * abbrevWeight}) {
		t.Fatalf("scaled weights = %v", w)
	}
}

func TestFileQuota(t *testing.T) {
	items := []*budget.Item{
		{Seq: 0, Path: "a.go"}, {Seq: 1, Path: "a.go"}, {Seq: 2, Path: "b.go"}, {Seq: 3, Path: "c.go"},
	}
	q := &query{feat: newFeatures([]string{"+filequota", "filequotan=2", "filequotaf=0.5"}), raw: []float64{1, 0.8, 0.6, 0.7}}
	q.fileQuota(items)
	// files by best: a.go 1, c.go 0.7, b.go 0.6: b.go is past the quota
	if want := []float64{1, 0.8, 0.3, 0.7}; !reflect.DeepEqual(q.raw, want) || q.best != 1 {
		t.Fatalf("raw = %v (best %v), want %v", q.raw, q.best, want)
	}
}

func TestFileDoc(t *testing.T) {
	// big.go says cookie in each of its chunks (once each); small.go once.
	// As whole files big.go scores higher: its factor is 1 + w, small.go's
	// between 1 and that.
	q := &query{feat: newFeatures([]string{"+filedoc"}), terms: []string{"cookie"}, w: []float64{1}, index: map[string]int{"cookie": 0}}
	for i := 0; i < 3; i++ {
		q.addFileDoc("big.go", []uint16{1}, 100)
	}
	q.addFileDoc("small.go", []uint16{1}, 100)
	q.addFileDoc("none.go", []uint16{0}, 100)
	f := q.fileDocFactors()
	if !near(f["big.go"], 1+fileDocWeight) || !(f["small.go"] > 1 && f["small.go"] < f["big.go"]) {
		t.Fatalf("factors = %v", f)
	}
	if _, ok := f["none.go"]; ok {
		t.Fatalf("a file without a query term has a factor: %v", f)
	}
	off := &query{feat: newFeatures(nil), w: []float64{1}}
	off.addFileDoc("big.go", []uint16{1}, 100)
	if off.fileDocs != nil || off.fileDocFactors() != nil {
		t.Fatal("filedoc is on by default")
	}
}
