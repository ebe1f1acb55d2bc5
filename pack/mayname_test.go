package pack

import (
	"io/fs"
	"math/rand"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMayNameExact: nameMatch with the needles' prefilter scores every
// name as the scan alone does — GOROOT's paths as pathScore builds names
// of them, and random names of the query's words, stems, plurals,
// camel case, underscores and non-ASCII letters — with and without stems;
// and the prefilter rules out most GOROOT names.
func TestMayNameExact(t *testing.T) {
	var paths []string
	root := runtime.GOROOT()
	filepath.WalkDir(filepath.Join(root, "src"), func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, strings.TrimPrefix(p, root+"/"))
		}
		return nil
	})
	pieces := []string{"Server", "server", "close", "Closing", "closed", "idle", "IDLE", "conn", "Connections", "connection", "request", "Requests", "timeout", "Time", "_", "__", "x", "2", "ſerver", "\u212aill", "é", " ", "/", "pool", "pooling", "handler"}
	rng := rand.New(rand.NewSource(17))
	var names []string
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := rng.Intn(6); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		names = append(names, b.String())
	}
	for _, stems := range []bool{true, false} {
		feat := newFeatures(nil)
		feat.stemNames = stems
		terms := queryTerms("how does the server close idle connections after a request timeout pooling")
		q := &query{feat: feat, terms: terms, index: map[string]int{}, w: make([]float64, len(terms)), lens: newLengths(terms)}
		for i, term := range terms {
			q.index[term] = i
			q.w[i] = float64(i + 1)
		}
		q.setStems()
		if q.needles == nil {
			t.Fatal("no needles")
		}
		plain := *q
		plain.needles = nil
		ruled := 0
		for _, p := range paths {
			if got, want := q.pathScore(p), plain.pathScore(p); got != want {
				t.Fatalf("stems %v, %q: pathScore %v, want %v", stems, p, got, want)
			}
			if !q.mayName(p) {
				ruled++
			}
		}
		for _, n := range names {
			if got, want := q.nameMatch(n, 2), plain.nameMatch(n, 2); got != want {
				t.Fatalf("stems %v, %q: nameMatch %v, want %v", stems, n, got, want)
			}
		}
		if ruled < len(paths)/2 {
			t.Errorf("stems %v: %d of %d paths ruled out, want most", stems, ruled, len(paths))
		}
	}
}
