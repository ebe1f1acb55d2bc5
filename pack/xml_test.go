package pack

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
)

// xmlSection is one element of the xml format as a parser reads it.
type xmlSection struct {
	Name  string
	Attrs map[string]string
	Text  string
}

// parseXMLContext parses the xml format with encoding/xml (strict): one
// <context> root holding elements with text only.
func parseXMLContext(doc string) ([]xmlSection, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	var out []xmlSection
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			depth++
			switch depth {
			case 1:
				roots++
				if el.Name.Local != "context" || roots > 1 {
					return nil, errors.New("want one <context> root, got <" + el.Name.Local + ">")
				}
			case 2:
				s := xmlSection{Name: el.Name.Local, Attrs: map[string]string{}}
				for _, a := range el.Attr {
					s.Attrs[a.Name.Local] = a.Value
				}
				out = append(out, s)
			default:
				return nil, errors.New("an element <" + el.Name.Local + "> inside a section")
			}
		case xml.CharData:
			if depth == 2 {
				out[len(out)-1].Text += string(el)
			} else if strings.TrimSpace(string(el)) != "" {
				return nil, errors.New("text outside the sections")
			}
		case xml.EndElement:
			depth--
		case xml.Comment, xml.ProcInst, xml.Directive:
			return nil, errors.New("a comment, processing instruction or directive in the document")
		}
	}
	if roots != 1 {
		return nil, errors.New("no <context> root")
	}
	return out, nil
}

// xmlVisible is s as XML 1.0 can hold it: characters it cannot hold (and
// invalid UTF-8) as U+FFFD.
func xmlVisible(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !xmlChar(r) {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// checkXMLRoundTrip renders items in the xml format, parses the document
// and checks that each section's text is its body exactly (after the
// newline that follows the CDATA opening) and its attributes the ones
// shown.
func checkXMLRoundTrip(t testing.TB, items []*budget.Item) string {
	t.Helper()
	f := newFormatter(func(s string) int { return len(s) })
	doc, err := f.xml(items)
	if err != nil {
		t.Fatal(err)
	}
	secs, err := parseXMLContext(doc)
	if err != nil {
		t.Fatalf("not one well-formed document: %v\n%q", err, doc)
	}
	want := files(items)
	if len(secs) != len(want) {
		t.Fatalf("%d sections, want %d:\n%q", len(secs), len(want), doc)
	}
	for i, w := range want {
		got := secs[i]
		if got.Name != w.kind {
			t.Errorf("section %d is <%s>, want <%s>", i, got.Name, w.kind)
		}
		if body := xmlVisible(w.Body); got.Text != "\n"+body {
			t.Errorf("section %d text:\n%q\nwant\n%q", i, got.Text, "\n"+body)
		}
		name, key := w.Path, "path"
		if w.kind != "file" {
			name, key = w.label, "label"
		}
		if got.Attrs[key] != xmlVisible(name) {
			t.Errorf("section %d %s = %q, want %q", i, key, got.Attrs[key], xmlVisible(name))
		}
		if _, ok := got.Attrs["lines"]; ok != (w.kind == "file" || !w.whole) || (ok && got.Attrs["lines"] != w.Ranges) {
			t.Errorf("section %d lines = %q, want %q", i, got.Attrs["lines"], w.Ranges)
		}
	}
	return doc
}

// TestXMLDocument checks rule 8's xml format: one <context> document,
// a CDATA body per section that reads back as the code exactly — "]]>"
// split across two sections, CR kept through a character reference,
// what XML cannot hold shown as U+FFFD.
func TestXMLDocument(t *testing.T) {
	tests := []struct {
		name, path, label, content string
		wantIn                     string // a piece the document must hold
	}{
		{name: "plain", path: "a.go", content: "package a\n\nfunc A() {}\n", wantIn: "<context>\n<file path=\"a.go\" lines=\"1-3\"><![CDATA[\npackage a\n"},
		{name: "markup is left alone", path: "a.html", content: "<p>Tom &amp; Jerry</p> a < b && c > d\n", wantIn: "<p>Tom &amp; Jerry</p> a < b && c > d\n]]></file>"},
		{name: "close a CDATA", path: "a.go", content: "s := \"]]>\" // ]]]]>>\n", wantIn: "]]]]><![CDATA[>"},
		{name: "close the element", path: "a.go", content: "x := \"</file></context><file path=\\\"x\\\">\"\n"},
		{name: "open a CDATA", path: "a.go", content: "<![CDATA[ ]] > ]]\n"},
		{name: "crlf", path: "crlf.go", content: "package a\r\n\r\nvar x = 1\r\n", wantIn: "package a]]>&#xD;<![CDATA[\n"},
		{name: "lone cr", path: "a.go", content: "a\rb\n"},
		{name: "controls", path: "a.go", content: "bell\x07 nul\x00 esc\x1b del\x7f\n", wantIn: "bell\uFFFD nul\uFFFD esc\uFFFD"},
		{name: "invalid utf-8", path: "a.go", content: "bad \xff\xfe utf8\n", wantIn: "bad \uFFFD\uFFFD utf8"},
		{name: "non-characters", path: "a.go", content: "nonchar \uFFFE \uFFFF\n"},
		{name: "tab and emoji", path: "a.go", content: "\tok 🤖\n"},
		{name: "attribute", path: `a"b<c>&d.go`, content: "x\n", wantIn: `path="a&quot;b&lt;c&gt;&amp;d.go"`},
		{name: "tool", label: "go vet ./... </tool> & \"more\"", content: "cmp.go:3: ]]> </tool>\n", wantIn: `<tool label="go vet ./... &lt;/tool&gt; &amp; &quot;more&quot;"><![CDATA[`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := budget.NewText(tt.content)
			it := &budget.Item{Path: tt.path, Label: tt.label, Type: "open_file", Source: src, StartLine: 1, EndLine: src.Lines(), Content: tt.content}
			if tt.path == "" {
				it.Type = "tool_result"
			}
			doc := checkXMLRoundTrip(t, []*budget.Item{it})
			if !strings.HasPrefix(doc, "<context>\n") || !strings.HasSuffix(doc, "</context>\n") {
				t.Errorf("not one <context> document:\n%q", doc)
			}
			if tt.wantIn != "" && !strings.Contains(doc, tt.wantIn) {
				t.Errorf("the document lacks %q:\n%q", tt.wantIn, doc)
			}
		})
	}
	f := newFormatter(func(s string) int { return len(s) })
	if doc, _ := f.xml(nil); doc != "" {
		t.Errorf("no items: %q, want an empty context", doc)
	}
}

// TestXMLGaps checks a file shown in several ranges, with a tool result
// between files: the gap markers are part of the body, the order is the
// markdown's.
func TestXMLGaps(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		b.WriteString("line ]]> <x>\r\n")
	}
	src := budget.NewText(b.String())
	tool := budget.NewText("--- FAIL ]]>\n")
	items := []*budget.Item{
		{Path: "a.go", Lang: "go", Type: "open_file", Source: src, StartLine: 1, EndLine: 3, Score: 0.9},
		{Label: "go test", Type: "tool_result", Source: tool, StartLine: 1, EndLine: 1, Score: 0.8},
		{Path: "a.go", Lang: "go", Type: "open_file", Source: src, StartLine: 20, EndLine: 22, Score: 0.7},
	}
	for _, it := range items {
		it.Content = it.Source.Slice(it.StartLine, it.EndLine)
	}
	doc := checkXMLRoundTrip(t, items)
	secs, _ := parseXMLContext(doc)
	var names []string
	for _, s := range secs {
		names = append(names, s.Name+" "+s.Attrs["path"]+s.Attrs["label"]+" "+s.Attrs["lines"])
	}
	if diff := cmp.Diff([]string{"file a.go 1-3, 20-22", "tool go test "}, names); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if !strings.Contains(secs[0].Text, "// … lines 4-19 omitted …\n") {
		t.Errorf("no gap marker in %q", secs[0].Text)
	}
}

// FuzzXMLDocument renders arbitrary content and names in the xml format:
// the document is always well-formed (encoding/xml) and reads back as the
// content exactly, characters XML cannot hold shown as U+FFFD.
func FuzzXMLDocument(f *testing.F) {
	f.Add("a.go", "", "package a\n", uint8(0))
	f.Add("a.go", "", "]]>]]]>]]]]>>\r\n\r", uint8(1))
	f.Add("", "label ]]> \"q\" \r\n\t", "</tool><![CDATA[ \x00 \xff \uFFFE\n", uint8(2))
	f.Add("x<&>\".go", "", "a\nb\nc\nd\ne\n", uint8(3))
	f.Fuzz(func(t *testing.T, path, label, content string, cut uint8) {
		if content == "" {
			return
		}
		src := budget.NewText(content)
		it := &budget.Item{Path: path, Label: label, Type: "open_file", Lang: "go", Source: src, StartLine: 1, EndLine: src.Lines(), Score: 0.5}
		if path == "" {
			it.Type = "tool_result"
		}
		items := []*budget.Item{it}
		if n := src.Lines(); n >= 3 && path != "" {
			// Two ranges of one file with a gap between them.
			k := 1 + int(cut)%(n-2)
			second := *it
			it.EndLine, second.StartLine = k, k+2
			items = append(items, &second)
		}
		for _, x := range items {
			x.Content = src.Slice(x.StartLine, x.EndLine)
		}
		checkXMLRoundTrip(t, items)
	})
}
