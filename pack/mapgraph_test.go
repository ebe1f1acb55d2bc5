package pack

import (
	"context"
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// refMapArcs is the map's graph as it was built before compact arrays (a
// map of weights per file, identifiers as strings): the reference
// mapGraph must equal bit for bit.
func refMapArcs(names [][]string, uses [][]mapIdent, limit int) [][]arc {
	n := len(names)
	definers := map[string][]int{}
	for f := range names {
		for _, name := range names[f] {
			addDefiner(definers, name, f)
		}
	}
	dropCommonNames(definers)
	out := make([]map[int]float64, n)
	for f := range out {
		out[f] = map[int]float64{}
	}
	for f := range uses {
		for _, u := range uses[f] {
			if u.at >= limit {
				break
			}
			d, ok := definers[u.w]
			if !ok {
				continue
			}
			for _, g := range d {
				if g == f {
					continue
				}
				share := 1 / float64(len(d))
				out[f][g] += share
				out[g][f] += graphBackWeight * share
			}
		}
	}
	return normalArcs(out)
}

// TestMapGraphSameAsReference: the map's graph from compact arrays has
// the arcs and weights (bit for bit) and the ranks of the graph of maps
// it replaced, whether a file's uses come from its text, from facts of a
// text at hand, or from facts decoded from the index (interned).
func TestMapGraphSameAsReference(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{2, 40, 700} {
		vocab := make([]string, 2*n+20)
		for i := range vocab {
			vocab[i] = fmt.Sprintf("%sWord%d", []string{"Serve", "open", "Read", "conn", "_tab"}[i%5], i)
		}
		vocab = append(vocab, "abc", "x1") // too short to define
		limit := mapScanLimit(n)
		files := make([]mapFile, n)
		names := make([][]string, n)
		uses := make([][]mapIdent, n)
		tab := newWordTab()
		for f := range files {
			for range rng.Intn(6) {
				name := vocab[rng.Intn(len(vocab))] // plain: its own word (plainName)
				if rng.Intn(3) > 0 {
					name += "." + vocab[rng.Intn(len(vocab))]
				}
				names[f] = append(names[f], name)
			}
			var parts []string
			for range 1 + rng.Intn(3) {
				var b strings.Builder
				for b.Len() < 40+rng.Intn(3)*limit/2 {
					b.WriteString(vocab[rng.Intn(len(vocab))])
					b.WriteString(" (9; ")
				}
				parts = append(parts, b.String())
			}
			uses[f] = fileIdents(parts, limit)
			files[f] = mapFile{path: fmt.Sprintf("f%04d.go", f), names: names[f]}
			switch f % 3 {
			case 0:
				files[f].parts = parts
			case 1: // facts of a text at hand
				files[f].facts = &fileFacts{ids: fileIdents(parts, mapIdentCap)}
			case 2: // facts from the index, trimmed past the graph's limit
				size := 0
				for _, p := range parts {
					size += len(p)
				}
				enc := encodeFacts(&fileFacts{marks: []string{strings.Repeat("m", markLen)}, split: []bool{false}, ids: fileIdents(parts, mapIdentCap)})
				var ff fileFacts
				if !decodeFacts(enc, &ff, int64(size)) {
					t.Fatal("decodeFacts refused encodeFacts")
				}
				trimIdents(&ff, limit+limit/3, tab)
				files[f].facts = &ff
			}
		}
		want := refMapArcs(names, uses, limit)
		g := mapGraph(files, tab)
		if n < 3 && g == nil {
			continue
		}
		if g == nil {
			t.Fatalf("n=%d: no graph", n)
		}
		ref := &refGraph{files: g.files}
		ref.setRows(want)
		if fmt.Sprint(ref.start, ref.to) != fmt.Sprint(g.start, g.to) {
			t.Fatalf("n=%d: arcs differ", n)
		}
		for k := range ref.w {
			if ref.w[k] != g.w[k] {
				t.Fatalf("n=%d: weight %d = %v, want %v", n, k, g.w[k], ref.w[k])
			}
		}
		if g.arcs() == 0 {
			t.Fatalf("n=%d: a graph without arcs", n)
		}
		pers := make([]float64, n)
		for i := range pers {
			pers[i] = 1 / float64(n)
		}
		r1, r2 := ref.pagerank(pers), g.pagerank(pers)
		for i := range r1 {
			if r1[i] != r2[i] {
				t.Fatalf("n=%d: rank of %d = %v, want %v", n, i, r2[i], r1[i])
			}
		}
	}
}

// TestMapFromFactsEqualsFromText: a repository map computed from facts
// (decoded from their encoding, as the index gives them) equals the map
// computed from the files' texts.
func TestMapFromFactsEqualsFromText(t *testing.T) {
	texts := map[string]string{
		"server.go": "package http\n\nfunc Serve(l Listener) error { return NewConn(l).Loop() }\n",
		"conn.go":   "package http\n\ntype Conn struct{}\n\nfunc NewConn(l Listener) *Conn { return &Conn{} }\n\nfunc (c *Conn) Loop() error { return nil }\n",
		"listen.go": "package http\n\ntype Listener interface{ Accept() (*Conn, error) }\n",
		"main.go":   "package main\n\nfunc main() { http.Serve(listen()) }\n",
	}
	fromText, fromFacts := []mapFile{}, []mapFile{}
	tab := newWordTab()
	for _, path := range []string{"conn.go", "listen.go", "main.go", "server.go"} {
		chunks, err := chunker.Split(t.Context(), path, []byte(texts[path]), func(s string) int { return len(s) / 4 }, chunker.Options{MaxTokens: 400, PreferStructural: true})
		if err != nil || len(chunks) == 0 {
			t.Fatalf("split %s: %v", path, err)
		}
		var names, parts []string
		for _, c := range chunks {
			if c.Name != "" {
				names = append(names, c.Name)
			}
			parts = append(parts, c.Content)
		}
		fromText = append(fromText, mapFile{path: path, names: names, parts: parts})
		var ff fileFacts
		if !decodeFacts(encodeFacts(factsOf(chunks)), &ff, int64(len(texts[path]))) {
			t.Fatalf("%s: facts refused", path)
		}
		trimIdents(&ff, mapIdentCap, tab)
		fromFacts = append(fromFacts, mapFile{path: path, names: names, facts: &ff})
	}
	a, b := newRepoMapOf(fromText, nil), newRepoMapOf(fromFacts, tab)
	if fmt.Sprint(a.order, a.central) != fmt.Sprint(b.order, b.central) {
		t.Fatalf("map from facts %v %v, from texts %v %v", b.order, b.central, a.order, a.central)
	}
	if a.central["conn.go"] <= a.central["main.go"] {
		t.Fatalf("conn.go (used by two files) ranks at or below main.go: %v", a.central)
	}
}

// TestMapRetrimsForFewFiles: a warm map's walk keeps each file's
// identifiers only as far as a graph of every listed file scans; when
// most listed files have no chunks (here, empty ones), the graph has few
// files and scans further, so the identifiers the walk cut are fetched
// again: the map from the index equals the map without one, though every
// use between the files lies past the first mapScanMin bytes.
func TestMapRetrimsForFewFiles(t *testing.T) {
	retrimCase(t, func(p string) { writeFile(t, p, nil) })
}

// TestMapRetrimsAfterReads: as TestMapRetrimsForFewFiles, with files that
// are listed and read but give no chunks (binary): a cold map's walk
// keeps the identifiers of each file it reads only as far as a graph of
// every listed file scans (a first map of a 100K-file tree held them all,
// up to mapIdentCap a file); the graph of the few files with chunks scans
// further, so what the reads cut is fetched again.
func TestMapRetrimsAfterReads(t *testing.T) {
	retrimCase(t, func(p string) { writeFile(t, p, []byte("\x00\x01binary\x00")) })
}

// retrimCase runs the retrim tests: fill writes each of the files that
// give the graph nothing.
func retrimCase(t *testing.T, fill func(path string)) {
	root := t.TempDir()
	const files = 24
	pad := strings.Repeat("// "+strings.Repeat("filler words here ", 8)+"\n", 2*mapScanMin/150+1)
	for i := range files {
		// file i defines Handler<i> and uses the names of files i+1 and
		// (for every third) i+2 — past mapScanMin.
		src := fmt.Sprintf("package p\n\n%s\nfunc Handler%03d() {\n\tHandler%03d()\n", pad, i, (i+1)%files)
		if i%3 == 0 {
			src += fmt.Sprintf("\tHandler%03d()\n", (i+2)%files)
		}
		src += "}\n"
		writeFile(t, filepath.Join(root, fmt.Sprintf("f%03d.go", i)), []byte(src))
	}
	empty := filepath.Join(root, "empty")
	for i := range mapScanBytes/mapScanMin + 8 {
		fill(filepath.Join(empty, fmt.Sprintf("e%05d.txt", i)))
	}
	total, zero := 4000, 0
	req := Request{Paths: []string{root}, Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	none, err := NewEngine(config.Default(), ws).Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	idx := newMemSetIndex()
	e.Index = idx
	for _, round := range []string{"cold", "warm"} {
		res, err := e.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", round, err)
		}
		if res.Content != none.Content {
			t.Errorf("%s: the map with an index differs from the one without:\n%s\n---\n%s", round, res.Content, none.Content)
		}
	}
	if idx.hits < files {
		t.Errorf("the warm map answered %d files from the index, want %d", idx.hits, files)
	}
}

// TestPlainName: a name mapDefiners takes as its own word is one that
// nameWords cuts into exactly itself.
func TestPlainName(t *testing.T) {
	names := []string{"Serve", "(*Server).Serve", "abc", "_under_score9", "9lives", "Type.Method", "a.b.ccc", "", "x",
		"Server.ServeHTTP", "héllo", "snake_case_1", "with space", "trailing.", hashedNamePrefix + "abcdefgh12345678"}
	for _, name := range names {
		var words []string
		nameWords(name, keepWord, func(w string) { words = append(words, w) })
		one := len(name) < graphMinName || slices.Equal(words, []string{name})
		var all []string
		identifiers(name, func(w string) { all = append(all, w) })
		want := slices.Equal(all, []string{name}) && !strings.HasPrefix(name, hashedNamePrefix)
		if got := plainName(name); got != want || got && !one {
			t.Errorf("plainName(%q) = %v, want %v (words %q)", name, got, want, words)
		}
	}
}
