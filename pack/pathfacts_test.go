package pack

import (
	"slices"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
)

// TestPathFacts checks that the remembered path facts score and classify
// every path as pathScore and isProseF do, for queries with and without
// stems, across packs that share the memo (new paths, a reset).
func TestPathFacts(t *testing.T) {
	paths := []string{
		"net/http/server.go", "net/http/Server_Close.go", "docs/README.md", "CHANGES", "site/Index.HTML",
		"a/b/pooling.go", "StringPool.java", "x", ".", "/abs/idle_conn.go", "dir.d/file.tar.gz",
		"src/handlers/merge.ts", "naïve/Überzeug.go", "timeouts/request_timeout_test.go", "",
	}
	queries := []string{"how does the server close idle connections", "merging pooling strings", "readme index", "überzeug naïve request"}
	matched := 0
	for _, off := range [][]string{nil, {"+" + featStemNames}, {featHTML}} {
		feat := newFeatures(off)
		f := newPathFacts()
		for _, text := range queries {
			terms := queryTerms(text)
			q := &query{feat: feat, terms: terms, index: map[string]int{}, w: make([]float64, len(terms)), lens: newLengths(terms)}
			for i, term := range terms {
				q.index[term] = i
				q.w[i] = float64(i + 1)
			}
			q.setStems()
			files := make([]*fileScan, len(paths))
			for k, p := range paths {
				files[k] = &fileScan{ref: collector.FileRef{Path: p}}
			}
			facts, pt := f.lookup(files, q)
			for k, p := range paths {
				if got, want := facts[k].isProseF(feat), isProseF(p, feat); got != want {
					t.Errorf("%v: isProseF(%q) = %v, want %v", off, p, got, want)
				}
				if got, want := pt.score(q, facts[k]), q.pathScore(p); got != want {
					t.Errorf("%v %q: pathScore(%q) = %v, want %v", off, text, p, got, want)
				} else if got > 0 {
					matched++
				}
			}
		}
		f.reset()
		if facts, _ := f.lookup(nil, &query{index: map[string]int{}}); len(facts) != 0 {
			t.Errorf("facts of no files: %v", facts)
		}
	}
	if matched < 10 {
		t.Errorf("only %d names matched a query term: the test checks too little", matched)
	}
	if facts, _ := (*pathFacts)(nil).lookup([]*fileScan{{}}, &query{}); facts != nil {
		t.Errorf("a nil memo gave facts")
	}
}

// TestPathFactsNewWalk: packs of new walks (the same paths as other
// strings) score as pathScore, and the memo keeps the entries of the last
// walk only, not one per walk; a pack of a few new paths among known ones
// keeps the known.
func TestPathFactsNewWalk(t *testing.T) {
	paths := []string{"net/http/server.go", "net/http/transport.go", "docs/README.md", "a/b/pooling.go", "idle/conn_pool.go", ""}
	terms := queryTerms("server transport idle pooling")
	q := &query{feat: newFeatures(nil), terms: terms, index: map[string]int{}, w: make([]float64, len(terms)), lens: newLengths(terms)}
	for i, term := range terms {
		q.index[term] = i
		q.w[i] = float64(i + 1)
	}
	q.setStems()
	walk := func(ps []string) []*fileScan {
		files := make([]*fileScan, len(ps))
		for k, p := range ps {
			files[k] = &fileScan{ref: collector.FileRef{Path: strings.Clone(p)}} // a new walk's strings
		}
		return files
	}
	f := newPathFacts()
	for round := 0; round < 4; round++ {
		files := walk(paths)
		facts, pt := f.lookup(files, q)
		for k, s := range files {
			if got, want := pt.score(q, facts[k]), q.pathScore(s.ref.Path); got != want {
				t.Errorf("walk %d: pathScore(%q) = %v, want %v", round, s.ref.Path, got, want)
			}
			if got, want := facts[k].isProseF(q.feat), isProseF(s.ref.Path, q.feat); got != want {
				t.Errorf("walk %d: isProseF(%q) = %v, want %v", round, s.ref.Path, got, want)
			}
		}
		if len(f.m) != len(paths)-1 {
			t.Errorf("walk %d: the memo holds %d paths, want the last walk's %d", round, len(f.m), len(paths)-1)
		}
		again, _ := f.lookup(files, q) // the same strings: all known
		if !slices.Equal(again, facts) {
			t.Errorf("walk %d: facts asked again differ", round)
		}
	}
	known := len(f.m)
	f.lookup(walk([]string{"new/one.go"}), q) // new, but not a walk of the five known
	if len(f.m) != known+1 {
		t.Errorf("a pack of one new path left %d entries, want %d", len(f.m), known+1)
	}
}
