// Package invariant checks the rules every packed context keeps, whatever
// produced it: pack's fuzzers and golden tests (on a pack.Result) and the
// end-to-end tests (on the JSON of acode/packContext and pack --json) call
// the same [Check].
//
// The rules (docs/design.md):
//
//   - rule 3: the exact count of the final text is tokenCount, and it fits
//     the available budget;
//   - rule 6: no source line is included twice (the included chunks of a
//     path do not overlap);
//   - rule 8: one section per file, tool output and snippet; line ranges
//     1-based, ascending and disjoint; a body of exactly the ranges' lines
//     with one gap marker between two ranges, closed by its fence (or, in
//     the xml format, well-formed XML with one element per section); the
//     lines shown are the file's lines (except redacted ones, rule 9);
//     every included chunk of a file is shown in that file's section.
package invariant

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// Item is an included chunk.
type Item struct {
	Type      string
	Path      string // "" for content given without a path
	StartLine int    // 1-based
	EndLine   int
	Score     float64
}

// Pack is what the checks read of a packed context.
type Pack struct {
	Content    string
	TokenCount int
	Available  int
	Encoding   string
	Included   []Item
}

// FromJSON reads a pack from the JSON of a pack result (pack.Result, the
// result of acode/packContext, the output of pack --json): content,
// tokenCount, encoding, budget.available and the included items.
func FromJSON(raw []byte) (Pack, error) {
	var r struct {
		Content    string `json:"content"`
		TokenCount int    `json:"tokenCount"`
		Encoding   string `json:"encoding"`
		Budget     struct {
			Available int `json:"available"`
		} `json:"budget"`
		Included []struct {
			Type      string  `json:"type"`
			Path      string  `json:"path"`
			StartLine int     `json:"startLine"`
			EndLine   int     `json:"endLine"`
			Score     float64 `json:"score"`
		} `json:"included"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return Pack{}, fmt.Errorf("invariant: not a pack result: %w", err)
	}
	p := Pack{Content: r.Content, TokenCount: r.TokenCount, Encoding: r.Encoding, Available: r.Budget.Available}
	for _, it := range r.Included {
		p.Included = append(p.Included, Item{Type: it.Type, Path: it.Path, StartLine: it.StartLine, EndLine: it.EndLine, Score: it.Score})
	}
	return p, nil
}

// CheckJSON reports each violation of the rules by the pack result raw (see
// [FromJSON]) as an error of t.
func CheckJSON(t testing.TB, raw []byte, o Options) {
	t.Helper()
	p, err := FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	CheckT(t, p, o)
}

// Options are the references the checks compare with.
type Options struct {
	// Count counts a text under the pack's encoding. Nil uses
	// budget/tokenizer's encoding of that name.
	Count func(text string) int
	// Files maps paths, as the sections show them, to the text the pack
	// read (the editor's text for open documents). A section whose path is
	// here must show exactly its lines; the others are checked for shape.
	Files map[string]string
}

// Check returns every violation of the rules by p, or nil.
func Check(p Pack, o Options) []error {
	var c checker
	c.count(p, o)
	c.items(p)
	if strings.HasPrefix(p.Content, "<") {
		c.xml(p, o.Files)
	} else {
		c.markdown(p, o.Files)
	}
	return c.errs
}

// CheckT reports each violation of the rules by p as an error of t.
func CheckT(t testing.TB, p Pack, o Options) {
	t.Helper()
	for _, err := range Check(p, o) {
		t.Error(err)
	}
}

// ReadFiles returns the text of every regular file under root by its
// slash-separated path relative to root, for [Options.Files].
func ReadFiles(root string) (map[string]string, error) {
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	return files, err
}

type checker struct{ errs []error }

func (c *checker) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// count checks rule 3.
func (c *checker) count(p Pack, o Options) {
	count := o.Count
	if count == nil {
		tok, err := tokenizer.ForEncoding(p.Encoding)
		if err != nil {
			c.errorf("invariant: no tokenizer for the encoding %q: %v", p.Encoding, err)
			return
		}
		count = tok.Count
	}
	if n := count(p.Content); n != p.TokenCount {
		c.errorf("tokenCount %d but the content counts %d under %s", p.TokenCount, n, p.Encoding)
	}
	if p.TokenCount > p.Available {
		c.errorf("tokenCount %d exceeds available %d", p.TokenCount, p.Available)
	}
}

// items checks the included chunks: lines 1-based, scores within [0,1],
// and rule 6.
func (c *checker) items(p Pack) {
	seen := map[string][][2]int{}
	for i, it := range p.Included {
		if it.StartLine < 1 || it.EndLine < it.StartLine {
			c.errorf("included[%d] %s lines %d-%d: want 1-based, start ≤ end", i, it.Path, it.StartLine, it.EndLine)
		}
		if it.Score < 0 || it.Score > 1 {
			c.errorf("included[%d] %s score %v: want within [0,1]", i, it.Path, it.Score)
		}
		if it.Path == "" {
			continue
		}
		for _, s := range seen[it.Path] {
			if it.StartLine <= s[1] && s[0] <= it.EndLine {
				c.errorf("%s lines %d-%d included twice (overlaps %d-%d)", it.Path, it.StartLine, it.EndLine, s[0], s[1])
			}
		}
		seen[it.Path] = append(seen[it.Path], [2]int{it.StartLine, it.EndLine})
	}
}

// ranges parses "a-b, c-d" and checks that the ranges are 1-based,
// ascending and disjoint; it returns them and the number of body lines
// they stand for (their lines plus one gap marker between two).
func (c *checker) ranges(what, s string) ([][2]int, int) {
	var out [][2]int
	lines, last := 0, 0
	for j, rg := range strings.Split(s, ", ") {
		a, b, _ := strings.Cut(rg, "-")
		start, err1 := strconv.Atoi(a)
		end, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil {
			c.errorf("%s: bad line range %q", what, rg)
			continue
		}
		if start <= last || end < start {
			c.errorf("%s: ranges %q not 1-based, ascending and disjoint", what, s)
		}
		last = end
		out = append(out, [2]int{start, end})
		lines += end - start + 1
		if j > 0 {
			lines++
		}
	}
	return out, lines
}

var headerRe = regexp.MustCompile("^## (File|Tool|Snippet): (.*?)(?: \\(lines ([0-9, -]+)\\))?$")

// markdown checks the sections of the default format.
func (c *checker) markdown(p Pack, files map[string]string) {
	lines := strings.Split(p.Content, "\n")
	headers := map[string]bool{}
	shownFiles := map[string][][2]int{}
	for i := 0; i < len(lines); i++ {
		m := headerRe.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		kind, name, rs := m[1], m[2], m[3]
		if headers[kind+" "+name] {
			c.errorf("%s %s has two headers: the chunks of one file go under one", kind, name)
		}
		headers[kind+" "+name] = true
		if kind == "File" && rs == "" {
			c.errorf("file header %q: want \"## File: <path> (lines a-b, c-d)\"", lines[i])
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			c.errorf("header %q is not followed by a fence", lines[i])
			continue
		}
		fence := lines[i+1][:strings.LastIndex(lines[i+1], "`")+1]
		var body []string
		j := i + 2
		for ; j < len(lines) && lines[j] != fence; j++ {
			body = append(body, lines[j])
		}
		if j == len(lines) {
			c.errorf("the fence of %s %s is never closed", kind, name)
		}
		i = j
		if rs == "" {
			continue
		}
		ranges, want := c.ranges(name, rs)
		if len(body) != want {
			c.errorf("%s: body has %d lines, want %d for ranges %s", name, len(body), want, rs)
			continue
		}
		if kind != "File" {
			continue
		}
		shownFiles[name] = append(shownFiles[name], ranges...)
		if text, ok := files[name]; ok {
			c.sameLines(name, ranges, body, text)
		}
	}
	c.itemsShown(p, shownFiles)
}

// sameLines checks that a file section's body is the file's lines, with
// gap markers between ranges; a redacted line may differ.
func (c *checker) sameLines(name string, ranges [][2]int, body []string, text string) {
	src := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	k := 0
	for i, r := range ranges {
		if i > 0 {
			marker := fmt.Sprintf("… lines %d-%d omitted …", ranges[i-1][1]+1, r[0]-1)
			if !strings.Contains(body[k], marker) {
				c.errorf("%s: body line %d is %q, want the gap marker %q", name, k+1, body[k], marker)
			}
			k++
		}
		if r[1] > len(src) {
			c.errorf("%s: range %d-%d is past the end (%d lines)", name, r[0], r[1], len(src))
			return
		}
		for n := r[0]; n <= r[1]; n++ {
			if got := body[k]; got != src[n-1] && !strings.Contains(got, "[REDACTED]") {
				c.errorf("%s: body line %d = %q, want the source line %d %q", name, k+1, got, n, src[n-1])
			}
			k++
		}
	}
}

// itemsShown checks that every included chunk of a file lies inside the
// ranges of that file's section. Paths that the context shows escaped
// (control characters, invalid UTF-8) are skipped: the section names them
// differently.
func (c *checker) itemsShown(p Pack, shown map[string][][2]int) {
	for i, it := range p.Included {
		if it.Path == "" || it.Type == "tool_result" || !plain(it.Path) {
			continue
		}
		rs, ok := shown[it.Path]
		if !ok {
			c.errorf("included[%d] %s %d-%d has no section in the content", i, it.Path, it.StartLine, it.EndLine)
			continue
		}
		inside := false
		for _, r := range rs {
			inside = inside || (r[0] <= it.StartLine && it.EndLine <= r[1])
		}
		if !inside {
			c.errorf("included[%d] %s %d-%d is outside its section's ranges %v", i, it.Path, it.StartLine, it.EndLine, rs)
		}
	}
}

// plain reports whether a path is shown as it is: valid UTF-8 of printable
// characters. U+FFFD counts as invalid UTF-8, which JSON carries as it.
func plain(path string) bool {
	return utf8.ValidString(path) && strings.IndexFunc(path, func(r rune) bool { return !unicode.IsPrint(r) || r == utf8.RuneError }) < 0
}

// xml checks content of the xml format: one well-formed XML 1.0 document,
// a <context> root holding one element per file, tool output or snippet,
// ranges ascending and disjoint, and a body (the text after the newline
// that opens it) of exactly their lines plus one gap marker between ranges,
// each on its own line; a file's lines are the file's (characters XML
// cannot hold shown as U+FFFD).
func (c *checker) xml(p Pack, files map[string]string) {
	d := xml.NewDecoder(strings.NewReader(p.Content))
	w := xmlWalk{c: c, files: files, seen: map[string]bool{}, shown: map[string][][2]int{}}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			c.errorf("the xml format is not well-formed: %v\n%s", err, p.Content)
			return
		}
		switch el := tok.(type) {
		case xml.StartElement:
			w.start(el)
		case xml.CharData:
			if w.depth == 2 {
				w.body.Write(el)
			}
		case xml.EndElement:
			if w.depth--; w.depth == 1 {
				w.item()
			}
		}
	}
	c.itemsShown(p, w.shown)
}

// xmlWalk is the state of checking the xml format: the item element open
// at depth 2, its text, the items seen and the lines each file showed.
type xmlWalk struct {
	c     *checker
	files map[string]string
	depth int
	open  xml.StartElement
	body  strings.Builder
	seen  map[string]bool
	shown map[string][][2]int
}

// start checks an opening tag: <context> at the root, an item (file, tool,
// snippet) below it, and nothing deeper (content must be escaped).
func (w *xmlWalk) start(el xml.StartElement) {
	w.depth++
	switch {
	case w.depth == 1 && el.Name.Local != "context":
		w.c.errorf("the xml format's root is <%s>, want <context>", el.Name.Local)
	case w.depth == 2:
		w.open = el
		w.body.Reset()
		if n := el.Name.Local; n != "file" && n != "tool" && n != "snippet" {
			w.c.errorf("unknown element <%s>", n)
		}
	case w.depth > 2:
		w.c.errorf("content opened an element <%s> inside <%s>", el.Name.Local, w.open.Name.Local)
	}
}

// item checks a closed item: shown once, its body as many lines as its
// ranges say, and a file's lines the same as the source's.
func (w *xmlWalk) item() {
	c, open := w.c, w.open
	attrs := map[string]string{}
	for _, a := range open.Attr {
		attrs[a.Name.Local] = a.Value
	}
	key := open.Name.Local + attrs["path"] + attrs["label"]
	if w.seen[key] {
		c.errorf("<%s> for %q appears twice", open.Name.Local, attrs["path"]+attrs["label"])
	}
	w.seen[key] = true
	rs, ok := attrs["lines"]
	if !ok {
		return
	}
	ranges, want := c.ranges(attrs["path"], rs)
	text := strings.TrimPrefix(w.body.String(), "\n")
	if got := strings.Count(text, "\n"); got != want {
		c.errorf("<%s %s>: body has %d lines, want %d for ranges %s", open.Name.Local, attrs["path"], got, want, rs)
	}
	if open.Name.Local != "file" {
		return
	}
	w.shown[attrs["path"]] = append(w.shown[attrs["path"]], ranges...)
	if src, ok := w.files[attrs["path"]]; ok && strings.Count(text, "\n") == want {
		c.sameLines(attrs["path"], ranges, strings.Split(strings.TrimSuffix(text, "\n"), "\n"), xmlVisible(src))
	}
}

// xmlVisible is s as XML 1.0 can hold it: what it cannot hold (control
// characters, U+FFFE/U+FFFF, invalid UTF-8) as U+FFFD.
func xmlVisible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !(r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += size
	}
	return b.String()
}
