package pack

import (
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestTermCounterMatchesScanTerms: the fast counter counts exactly what
// scanTerms yields, and termTable holds exactly its terms, on real code of every kind in GOROOT and on random
// strings of word pieces, separators and other scripts.
func TestTermCounterMatchesScanTerms(t *testing.T) {
	terms := queryTerms("parseHTTPRequest2 normalize_path carts Client.close() idle connections in µs Größe 配置 x2 v8 read")
	var texts []string
	root := filepath.Join(runtime.GOROOT(), "src")
	for _, dir := range []string{"net/http", "unicode", "strconv", "html/template"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	if len(texts) < 50 {
		t.Fatalf("found %d GOROOT files under %s", len(texts), root)
	}
	pieces := []string{"parse", "HTTP", "Request", "2", "_", "__", "normalize", "path", "Path", "cart", "Carts", "s", "ss", "CLIENT", "close", "µs", "Größe", "größe", "配置", "x", "X2", "v8", " ", "\n", ".", "()", "é", "\u00a0", "\xff", "read", "Reads", "idle", "connection", "a", "ÀB", "İ"}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for j := rng.Intn(30); j >= 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	// Texts long enough for count's prefilter, built to hit its edges:
	// terms split by underscores, camelCase, plurals, capitals, non-ASCII
	// words, the two non-ASCII letters that lower to ASCII ones.
	edges := []string{"h_t_t_p", "HTTP_Client", "httpClient", "_read_", "re_ad", "READS", "readss", "Bodies", "bodys",
		"idleConnections", "IDLE", "clo_se", "ré_ad", "readé", "éread", "\u212aread", "\u212aill", "\u0130dle", "x_x", "__", "_",
		"Read2", "2read", "µread", "reÿad", "â", "close.", "(body)", "filler", "text", "words",
		"Timeout", "timeou", "imeout", "conn", "Connection", "onnection", "connectio", "connectionconnection", "idl", "dle",
		"Server", "serve", "request", "reques", "handle", "Deadline", "after", "fter"}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for b.Len() < 600+rng.Intn(2000) {
			b.WriteString(edges[rng.Intn(len(edges))])
			b.WriteString([]string{" ", "", "\n", ".", "_", "é", "\t"}[rng.Intn(7)])
		}
		texts = append(texts, b.String())
	}
	asciiTerms := queryTerms("http client does not close idle connections after response body read httpClient re_ad kill")
	counters := []*termCounter{newTermCounter(terms), newTermCounter(asciiTerms)}
	if !counters[1].ascii {
		t.Fatalf("terms %q: want the ASCII prefilter", asciiTerms)
	}
	var windows []*termCounter
	// count's search skips by windows of the shortest term's length: 2
	// above; 4, 7 and 10 here (terms that share blocks, end in each
	// other's starts and repeat a block within one term).
	for _, q := range []struct {
		query string
		win   int
	}{
		{"how does the server close idle connections after a request timeout", 4},
		{"idleConnTimeout handler readDeadline", 4},
		{"connection timeout", 7},
		{"connections connectionsconnections", 10},
	} {
		c := newTermCounter(queryTerms(q.query))
		if !c.ascii || c.win != q.win {
			t.Fatalf("terms %q: ascii %v, window %d; want the ASCII prefilter with a window of %d", c.terms, c.ascii, c.win, q.win)
		}
		windows = append(windows, c)
	}
	for _, c := range counters {
		for _, text := range texts {
			countMatches(t, c, text)
		}
	}
	for _, c := range windows {
		for _, text := range texts {
			if want, got := scanCounts(c, text), countOf(c, text); !slices.Equal(want, got) {
				t.Fatalf("terms %q, window %d: count %v, scanTerms %v in %.200q", c.terms, c.win, got, want, text)
			}
		}
	}
}

// scanCounts counts c's terms in text as scanTerms yields them.
func scanCounts(c *termCounter, text string) []uint16 {
	want := make([]uint16, len(c.terms))
	scanTerms(text, false, c.lens, func(tb []byte) {
		if k, ok := c.index[string(tb)]; ok {
			want[k]++
		}
	})
	return want
}

// countOf counts c's terms in text with count.
func countOf(c *termCounter, text string) []uint16 {
	got := make([]uint16, len(c.terms))
	c.count(text, got)
	return got
}

// TestOnlyTwoLettersLowerToASCII: count's prefilter assumes the only
// non-ASCII letters whose lower case is ASCII are U+212A and U+0130.
func TestOnlyTwoLettersLowerToASCII(t *testing.T) {
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if l := unicode.ToLower(r); l < utf8.RuneSelf && r != 0x212a && r != 0x130 {
			t.Errorf("%U lowers to ASCII %q", r, l)
		}
	}
}

// sharedTab is reused by every countMatches, as a scan worker reuses its
// table from file to file.
var sharedTab = newTermTab()

func fnvTerm(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

func countMatches(t *testing.T, c *termCounter, text string) {
	t.Helper()
	terms := c.terms
	{
		want := make([]uint16, len(terms))
		scanTerms(text, false, c.lens, func(tb []byte) {
			if k, ok := c.index[string(tb)]; ok {
				want[k]++
			}
		})
		got := make([]uint16, len(terms))
		c.count(text, got)
		all := map[string]int{}
		scanTerms(text, true, nil, func(tb []byte) { all[string(tb)]++ })
		if diff := cmp.Diff(all, termTable(text)); diff != "" {
			t.Fatalf("term table differs (-scanTerms +termTable):\n%s", diff)
		}
		// The scan's table, reused from text to text as scanFiles' workers
		// reuse theirs: the same terms and counts, and the query's counts.
		sharedTab.scan(text)
		fromTab := map[string]int{}
		total := 0
		byHash := map[uint64]int{}
		for _, h := range sharedTab.hashed(func(b []byte) uint64 { return fnvTerm(string(b)) }) {
			byHash[h.Hash] += int(h.Count)
		}
		wantHash := map[uint64]int{}
		for term, n := range all {
			wantHash[fnvTerm(term)] += n
		}
		if diff := cmp.Diff(wantHash, byHash, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("hashed terms differ (-scanTerms +termTab.hashed):\n%s", diff)
		}
		for _, e := range sharedTab.ents {
			fromTab[string(sharedTab.arena[e.off:e.off+e.n])] += int(e.count)
			total += int(e.count)
		}
		if diff := cmp.Diff(all, fromTab, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("reused term table differs (-scanTerms +termTab):\n%s", diff)
		}
		if sum := sumCounts(all); total != sum || sharedTab.total != sum {
			t.Fatalf("term table holds %d terms (total %d), scanTerms yields %d", total, sharedTab.total, sum)
		}
		for _, q := range terms {
			if got := sharedTab.count(q); got != all[q] {
				t.Fatalf("termTab.count(%q) = %d, scanTerms %d", q, got, all[q])
			}
		}
		sharedTab.reset()
		if diff := cmp.Diff(want, got); diff != "" {
			short := text
			if len(short) > 200 {
				short = short[:200]
			}
			t.Fatalf("counts differ for %q (-scanTerms +counter):\n%s", short, diff)
		}
	}
}

// BenchmarkTermCount: the query-term scan of scanFiles over GOROOT's
// net/http, strconv and unicode sources, with count's prefilter ("count")
// and splitting every word ("countAll").
func BenchmarkTermCount(b *testing.B) {
	var texts []string
	var size int64
	root := filepath.Join(runtime.GOROOT(), "src")
	for _, dir := range []string{"net/http", "strconv", "unicode", "go/types"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
				size += int64(len(data))
			}
		}
	}
	c := newTermCounter(queryTerms("http client does not close idle connections after response body read"))
	for _, bc := range []struct {
		name string
		fn   func(string, []uint16)
	}{{"count", c.count}, {"countAll", c.countAll},
		{"termTab", func(text string, _ []uint16) { sharedTab.scan(text); sharedTab.reset() }},
		{"termTab+hash", func(text string, _ []uint16) {
			sharedTab.scan(text)
			sharedTab.hashed(func(b []byte) uint64 { return fnvTerm(string(b)) })
			sharedTab.reset()
		}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			row := make([]uint16, len(c.terms))
			for b.Loop() {
				for _, text := range texts {
					bc.fn(text, row)
				}
			}
		})
	}
}

// TestIsStopword: the packed table answers as the stopwords map for every
// stop word and for words one letter away.
func TestIsStopword(t *testing.T) {
	for w := range stopwords {
		if !isStopword([]byte(w)) {
			t.Errorf("isStopword(%q) = false", w)
		}
		for i := 0; i < len(w); i++ {
			for _, c := range []byte("aeiostz_9") {
				v := []byte(w)
				v[i] = c
				if got := isStopword(v); got != stopwords[string(v)] {
					t.Errorf("isStopword(%q) = %v", v, got)
				}
			}
		}
		for _, v := range []string{w + "s", w[1:], "x" + w} {
			if len(v) > 0 && len(v) <= 5 && isStopword([]byte(v)) != stopwords[v] {
				t.Errorf("isStopword(%q) = %v", v, !stopwords[v])
			}
		}
	}
}

// BenchmarkTermCountQuery: count over six GOROOT directories with the
// query of docs/benchmarks.md's scale runs (shortest term 4 bytes, so
// count's search moves by windows of 4).
func BenchmarkTermCountQuery(b *testing.B) {
	var texts []string
	var size int64
	root := filepath.Join(runtime.GOROOT(), "src")
	for _, dir := range []string{"net/http", "strconv", "unicode", "go/types", "cmd/compile/internal/ssa", "runtime"} {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
				size += int64(len(data))
			}
		}
	}
	c := newTermCounter(queryTerms("how does the server close idle connections after a request timeout"))
	b.SetBytes(size)
	row := make([]uint16, len(c.terms))
	for b.Loop() {
		for _, text := range texts {
			c.count(text, row)
		}
	}
}
