package pack

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"parseHTTPRequest2", []string{"parse", "http", "request", "parsehttprequest2"}}, // "2": one letter
		{"normalize_path", []string{"normalize", "path", "normalizepath"}},
		{"normalizePath", []string{"normalize", "path", "normalizepath"}},
		{"__init__", []string{"init"}},
		{"Client.close()", []string{"client", "close"}},
		{"redirects carts class", []string{"redirect", "cart", "class"}},
		{"Fix the bug in a cart", []string{"fix", "bug", "cart"}},
		{"Größe_ändern", []string{"größe", "ändern", "größeändern"}},
	}
	for _, tt := range tests {
		if got := Terms(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The length-and-prefix filter must never hide a word that becomes a query
// term: matching with it equals matching without it.
func TestScanFilterIsExact(t *testing.T) {
	query := "getRandomValues redirect parsing normalize_path proxies X1 ab"
	text := "func GetRandomValues() { redirected(parsed, normalizePath, proxy, x1, AB, __ab__, abs) } parsing_proxies"
	terms := uniq(Terms(query))
	lens := newLengths(terms)
	want := map[string]bool{}
	for _, t := range terms {
		want[t] = true
	}
	var all, filtered []string
	scanTerms(text, false, nil, func(b []byte) {
		if want[string(b)] {
			all = append(all, string(b))
		}
	})
	scanTerms(text, false, lens, func(b []byte) {
		if want[string(b)] {
			filtered = append(filtered, string(b))
		}
	})
	if !reflect.DeepEqual(all, filtered) || len(all) == 0 {
		t.Fatalf("filtered scan found %q, unfiltered %q", filtered, all)
	}
}

func items(specs ...[3]string) []*budget.Item {
	var out []*budget.Item
	for i, s := range specs {
		out = append(out, &budget.Item{Path: s[0], Name: s[1], Content: s[2], Tokens: max(1, len(s[2])/4), Seq: i})
	}
	return out
}

func TestRelevanceOrder(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor sit amet consectetur adipiscing elit ", 40)
	tests := []struct {
		name   string
		query  string
		items  []*budget.Item
		better int // this item must score above every other one
	}{
		{"tf saturation and length normalisation: the short chunk about the words wins",
			"request timeout",
			items([3]string{"a.go", "", filler + " timeout " + filler + " request " + filler},
				[3]string{"b.go", "", "func f() { request.timeout = d; if request.timeout > 0 { return } }"},
				[3]string{"c.go", "", "unrelated code"}),
			1},
		{"the chunk that defines the named symbol beats one that mentions it",
			"fix normalize_path for empty paths",
			items([3]string{"urls.py", "", "def other():\n    return normalize_path(x)  # normalize the path of an empty url\n"},
				[3]string{"urlparse.py", "normalize_path", "def normalize_path(path):\n    if not path:\n        return path\n"},
				[3]string{"x.py", "", "pass"}),
			1},
		{"code beats a changelog that repeats the query's words",
			"Fix `Context.Keys` race",
			items([3]string{"CHANGELOG.md", "", "- fix race in Context.Keys\n- fix race\n- fix Keys race in context\n"},
				[3]string{"context.go", "(*Context).Set", "func (c *Context) Set(key string, value any) {\n\tc.Keys[key] = value\n}\n"},
				[3]string{"other.go", "", "func unrelated() {}"}),
			1},
		{"the source beats its built copy",
			"wrap errors to improve async stack trace",
			items([3]string{"dist/axios.js", "", "function wrap(err) { // improve async stack trace\n  return errors.wrap(err)\n}\n"},
				[3]string{"lib/core/Axios.js", "", "function wrap(err) { // improve async stack trace\n  return errors.wrap(err)\n}\n"},
				[3]string{"lib/other.js", "", "x"}),
			1},
		{"a file name that the query names",
			"fix(utils): replace random values",
			items([3]string{"lib/helpers.js", "", "const values = random()"},
				[3]string{"lib/utils.js", "", "const values = random()"}),
			1},
		{"the library beats its example",
			"retry the request on timeout",
			items([3]string{"examples/retry/main.go", "", "func retry(request) { if timeout { retry() } }"},
				[3]string{"retry.go", "", "func retry(request) { if timeout { retry() } }"},
				[3]string{"other.go", "", "x"}),
			1},
		{"code beats CI configuration",
			"run the lint step before build",
			items([3]string{".github/workflows/ci.yml", "", "steps:\n  - run: lint\n  - run: build before\n"},
				[3]string{"Makefile", "", "steps:\n  - run: lint\n  - run: build before\n"},
				[3]string{"other.go", "", "x"}),
			1},
		{"rendered HTML documentation is prose",
			"`Session.mount` adapter prefix",
			items([3]string{"docs/api.html", "", "<p>Session.mount registers an adapter for a prefix</p>"},
				[3]string{"sessions.py", "", "def mount(self, prefix, adapter):  # Session.mount: adapter for a prefix"},
				[3]string{"other.py", "", "x"}),
			1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := newQuery(tt.query, tt.items, newFeatures(nil), nil)
			best := q.relevance(tt.items[tt.better])
			if best != 1 {
				t.Errorf("the best chunk has relevance %v, want 1", best)
			}
			for i, it := range tt.items {
				if r := q.relevance(it); i != tt.better && r >= best {
					t.Errorf("%s scored %v, not below %s's %v", it.Path, r, tt.items[tt.better].Path, best)
				}
				if r := q.relevance(it); r < 0 || r > 1 {
					t.Errorf("relevance %v outside [0,1]", r)
				}
			}
		})
	}
}

func TestNamesCode(t *testing.T) {
	for q, want := range map[string]bool{
		"Fix `TypeAdapter.toJson` throwing": true, "replace getRandomValues with crypto": true,
		"Fast path for normalize_path cases": true, "call close() twice": true,
		"Preserve HTTP method when following redirect (#1758)": false, "Fix it. Then go": false,
	} {
		if namesCode(q) != want {
			t.Errorf("namesCode(%q) = %v", q, !want)
		}
	}
}

// Recency comes from the user's activity only: a file's modification time
// gives none, an open document's last change does (docs/design.md#rule-5).
func TestRecencyFromActivityOnly(t *testing.T) {
	dir := t.TempDir()
	for name, age := range map[string]time.Duration{"old.go": 30 * 24 * time.Hour, "new.go": 0} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("package x\n\nfunc F() {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Now().Add(-age)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := collector.New(collector.Options{Roots: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(config.Default(), ws)
	res, err := e.Pack(context.Background(), Request{Paths: []string{dir}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Included {
		if want := 0.2 * 0.8; it.Score != want {
			t.Errorf("walked %s: score %v, want %v (no recency from a file time)", it.Path, it.Score, want)
		}
	}
	open := []OpenDoc{{AbsPath: filepath.Join(dir, "old.go"), Modified: time.Now()}}
	res, err = e.Pack(context.Background(), Request{}, open, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Included) != 1 || res.Included[0].Score != 0.3+0.16 {
		t.Fatalf("open document: %+v, want score 0.46 (recency 1)", res.Included)
	}
}

// A chunk right after a relevant one (same file, touching lines) gains part
// of its score; one further away in the same file does not.
func TestNeighbours(t *testing.T) {
	text := budget.NewText("func ClientIP() {\n\tparse(header)\n}\nfunc next() {\n\treturn\n}\nfunc far() {\n\treturn\n}\n")
	mk := func(seq, a, b int) *budget.Item {
		return &budget.Item{Path: "context.go", Source: text, StartLine: a, EndLine: b, Content: text.Slice(a, b), Tokens: 8, Seq: seq}
	}
	its := []*budget.Item{mk(0, 1, 3), mk(1, 4, 6), mk(2, 8, 9)}
	for _, off := range [][]string{{featFile}, {featFile, featNeigh}} {
		q := newQuery("ClientIP header parsing", its, newFeatures(off), nil)
		next, far := q.relevance(its[1]), q.relevance(its[2])
		withNeighbours := len(off) == 1
		if withNeighbours && !(next > far && q.relevance(its[0]) == 1) {
			t.Errorf("neighbours on: next %v, far %v", next, far)
		}
		if !withNeighbours && next != far {
			t.Errorf("neighbours off: next %v, far %v, want equal", next, far)
		}
	}
}

func TestCodeMarked(t *testing.T) {
	got := codeMarked("Fix `cookie jar` leak in clearCookie and normalize_path, call Client.close() — see https://x.io/a_b #12_3")
	for _, w := range []string{"cookie", "jar", "clear", "clearcookie", "normalize", "path", "normalizepath", "client", "close"} {
		if !got[w] {
			t.Errorf("%q not marked as code (got %v)", w, got)
		}
	}
	for _, w := range []string{"fix", "leak", "call", "see", "io"} {
		if got[w] {
			t.Errorf("%q marked as code", w)
		}
	}
}

// A generic word of the task earns no name bonus when the workspace's
// prose uses it more than its code; a word the query marks as code does.
func TestNameBonusOnlyForCode(t *testing.T) {
	its := items(
		[3]string{"command.go", "Command", "package x // unrelated body"},
		[3]string{"flags.go", "parseFlags", "package x // other body"},
		[3]string{"README.md", "", "Run the command to do things. The command is easy."},
		[3]string{"GUIDE.md", "", "Every command has a help command."},
		[3]string{"x.go", "", "func x() {}"},
	)
	on := newQuery("improve the command help", its, newFeatures([]string{"+" + featCodeNames}), nil)
	off := newQuery("improve the command help", its, newFeatures(nil), nil)
	if !(on.relevance(its[0]) < off.relevance(its[0])) {
		t.Errorf("prose word 'command' still scores through the file and symbol name: on %v, off %v", on.relevance(its[0]), off.relevance(its[0]))
	}
	marked := newQuery("improve the `Command` help", its, newFeatures([]string{"+" + featCodeNames}), nil)
	if marked.relevance(its[0]) != 1 {
		t.Errorf("a word marked as code lost its name bonus: %v", marked.relevance(its[0]))
	}
}

// An import block joins its file's score when it imports what the query
// names; without such a name it does not.
func TestImportBlock(t *testing.T) {
	text := budget.NewText("import (\n\t\"net/url\"\n)\n\nfunc Parse() {\n\tvalidate()\n}\n")
	mk := func(seq, a, b int, kind, name string) *budget.Item {
		return &budget.Item{Path: "p.go", Source: text, StartLine: a, EndLine: b, Content: text.Slice(a, b), Tokens: 8, Seq: seq, Kind: kind, Name: name}
	}
	other := budget.NewText("import \"net/url\"\n\n\n\nfunc other() { url.x() }\n")
	its := []*budget.Item{mk(0, 1, 3, "imports", ""), mk(1, 5, 7, "function", "Parse"),
		{Path: "o.go", Source: other, StartLine: 1, EndLine: 1, Content: other.Slice(1, 1), Tokens: 8, Seq: 2, Kind: "imports"},
		{Path: "o.go", Source: other, StartLine: 5, EndLine: 5, Content: other.Slice(5, 5), Tokens: 8, Seq: 3, Kind: "function", Name: "other"}}
	q := newQuery("Parse should use `net/url` to validate", its, newFeatures([]string{featNeigh}), nil)
	off := newQuery("Parse should use `net/url` to validate", its, newFeatures([]string{featNeigh, featImports}), nil)
	if !(q.relevance(its[0]) > off.relevance(its[0])) {
		t.Errorf("import block: %v with the feature, %v without", q.relevance(its[0]), off.relevance(its[0]))
	}
	plain := newQuery("Parse should use url to validate", its, newFeatures([]string{featNeigh}), nil)
	plainOff := newQuery("Parse should use url to validate", its, newFeatures([]string{featNeigh, featImports}), nil)
	if plain.relevance(its[0]) != plainOff.relevance(its[0]) {
		t.Errorf("an unmarked word lifted the import block: %v vs %v", plain.relevance(its[0]), plainOff.relevance(its[0]))
	}
}

// A query word names a symbol or file by its stem: "pooling" → StringPool,
// "merging" → merge.ts; without the feature it does not.
func TestStemNames(t *testing.T) {
	its := items(
		[3]string{"src/utils/merge.ts", "", "export const deepMerge = (a, b) => ({...a, ...b})"},
		[3]string{"src/core/other.ts", "", "export const deepMerge2 = (a, b) => ({...a, ...b})"},
		[3]string{"StringPool.java", "StringPool", "final class StringPool { String get(char[] c) { return new String(c); } }"},
		[3]string{"Reader.java", "Reader", "final class Reader { String get(char[] c) { return new String(c); } }"},
	)
	on := newQuery("Fix signal merging; string pooling", its, newFeatures([]string{"+" + featStemNames}), nil)
	off := newQuery("Fix signal merging; string pooling", its, newFeatures(nil), nil)
	if !(on.relevance(its[0]) > on.relevance(its[1])) || off.relevance(its[0]) != off.relevance(its[1]) {
		t.Errorf("merge.ts: on %v vs %v, off %v vs %v", on.relevance(its[0]), on.relevance(its[1]), off.relevance(its[0]), off.relevance(its[1]))
	}
	if !(on.relevance(its[2]) > on.relevance(its[3])) {
		t.Errorf("StringPool: %v vs %v", on.relevance(its[2]), on.relevance(its[3]))
	}
	for in, want := range map[string]string{"pooling": "pool", "merging": "merg", "merge": "merg", "parsed": "pars", "parse": "pars", "bed": "bed", "ring": "ring"} {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPlaceFactor(t *testing.T) {
	all := newFeatures(nil)
	for p, want := range map[string]float64{
		"examples/basic/main.go": exampleFactor, "docs/_examples/a.py": exampleFactor, "Demo/x.js": exampleFactor,
		".github/workflows/ci.yml": ciFactor, ".travis.yml": ciFactor, "sub/Jenkinsfile": ciFactor,
		"lib/example.go": 1, "context.go": 1, "github/x.go": 1, "": 1,
	} {
		if got := placeFactor(p, all); got != want {
			t.Errorf("placeFactor(%q) = %v, want %v", p, got, want)
		}
	}
	if placeFactor("examples/a.go", newFeatures([]string{featExamples})) != 1 || placeFactor(".github/a.yml", newFeatures([]string{featCI})) != 1 {
		t.Error("ablated place priors still apply")
	}
	if !isProseF("docs/index.html", all) || isProseF("docs/index.html", newFeatures([]string{featHTML})) || isProseF("a.go", all) {
		t.Error("html as prose")
	}
}
