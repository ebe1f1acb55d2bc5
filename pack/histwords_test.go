package pack

import (
	"strings"
	"testing"
)

func TestParseHistoryMessages(t *testing.T) {
	log := "\x00Fix cookie jar\nThe jar lost sessions.\nSigned-off-by: A <a@b>\n\x1e\n\na.go\n" +
		"\x00Add router\n\x1e\n\nb.go\na.go\n" +
		"\x00Sweep\n\x1e\n\n" + strings.Repeat("w.go\n", historyWideCommit+1)
	for _, tc := range []struct {
		name string
		r    historyRead
		want []string // each read commit's terms
	}{
		{"none", historyRead{}, nil},
		{"subjects", historyRead{msgs: 1}, []string{"fix cookie jar", "add router"}},
		{"bodies", historyRead{msgs: 2}, []string{"fix cookie jar jar lost session", "add router"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := log
			if tc.r.msgs < 2 { // git prints no body and no end mark
				data = strings.NewReplacer("The jar lost sessions.\n", "", "Signed-off-by: A <a@b>\n", "", "\x1e\n", "").Replace(log)
			}
			h := parseHistory("/r", []byte(data), tc.r)
			if len(h.commits) != 2 || h.touched["/r/a.go"] != 2 {
				t.Fatalf("commits = %v", h.commits)
			}
			var got []string
			for _, c := range h.said {
				got = append(got, strings.Join(c.terms, " "))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("terms = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestParseHistoryMoreCommits: commits past historyCommits give their
// words but not co-change or recency.
func TestParseHistoryMoreCommits(t *testing.T) {
	var b strings.Builder
	for i := 0; i < historyCommits+5; i++ {
		b.WriteString("\x00Change thing\n\nx.go\n")
	}
	h := parseHistory("/r", []byte(b.String()), historyRead{msgs: 1, commits: historyCommits + 5})
	if len(h.commits) != historyCommits || h.touched["/r/x.go"] != historyCommits || len(h.said) != historyCommits+5 {
		t.Fatalf("commits %d, touched %d, said %d", len(h.commits), h.touched["/r/x.go"], len(h.said))
	}
	if r := (historyRead{}); r.count() != historyCommits || r.logFormat() != "--format=%x00" {
		t.Fatalf("without messages git log reads %d commits as %s", r.count(), r.logFormat())
	}
}

func TestHistoryWordFactors(t *testing.T) {
	h := &history{said: []saidCommit{
		{files: []string{"jar.go"}, terms: []string{"fix", "cookie", "jar"}},
		{files: []string{"jar.go", "client.go"}, terms: []string{"cookie", "expiry"}},
		{files: []string{"router.go"}, terms: []string{"fix", "router"}},
		{files: []string{"other.go"}, terms: []string{"add", "docs"}},
		{files: []string{"release.go"}, terms: []string{"fix", "release"}}, // not a candidate: "fix" is commoner
	}}
	cands := map[string]float64{"jar.go": 1, "client.go": 1, "router.go": 1, "other.go": 1}
	f := h.wordFactors([]string{"cookie", "fix"}, cands, 0.3)
	if !(f["jar.go"] > f["client.go"] && f["client.go"] > f["router.go"] && f["router.go"] > 1) {
		t.Fatalf("factors = %v", f)
	}
	if f["jar.go"] != 1.3 {
		t.Fatalf("best factor %v, want 1.3", f["jar.go"])
	}
	if _, ok := f["other.go"]; ok {
		t.Fatalf("a file whose history says no query word got a factor: %v", f)
	}
	delete(cands, "jar.go")
	if g := h.wordFactors([]string{"cookie"}, cands, 0.3); g["client.go"] != 1.3 || len(g) != 1 {
		t.Fatalf("only candidates score, relative to the best candidate: %v", g)
	}
	var none *history
	if f := none.wordFactors([]string{"cookie"}, cands, 0.3); f != nil {
		t.Fatalf("no history: %v", f)
	}
	if f := h.wordFactors([]string{"cookie"}, cands, 0); f != nil {
		t.Fatalf("weight 0: %v", f)
	}
}

func TestFeaturesHistoryRead(t *testing.T) {
	for _, tc := range []struct {
		ablate []string
		want   historyRead
	}{
		{nil, historyRead{}},
		{[]string{"+histwords"}, historyRead{msgs: 1, commits: historyCommits}},
		{[]string{"+histwords", "+histbody", "histwordsn=1000"}, historyRead{msgs: 2, commits: 1000}},
		{[]string{"+histwords", "histwordsw=0"}, historyRead{}},
	} {
		if got := newFeatures(tc.ablate).historyRead(); got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.ablate, got, tc.want)
		}
	}
}
