package pack

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/collector"
)

// formatter renders selected items as the packed context (docs/design.md#rule-8)
// and estimates the formatting cost of an item for selection.
type formatter struct {
	count   func(string) int
	xmlOut  bool              // the format is xml: estimates count split CDATA sections
	xmlRoot int               // tokens of the xml format's <context> element, when xmlOut
	headers map[headerKey]int // estimated header+fence tokens per file or tool
	gap     int               // estimated tokens of a gap marker and a range, once counted (gapped)
	gapped  bool
}

func newFormatter(count func(string) int) *formatter {
	return &formatter{count: count, headers: map[headerKey]int{}}
}

// gapTokens is the estimated tokens of a gap marker and a range, counted
// on first use rather than when the formatter is made: a pack that never
// estimates (a map replayed from its plan) never counts, so its process
// need not build the tokenizer's tables (tokenizer.Preload).
func (f *formatter) gapTokens() int {
	if !f.gapped {
		f.gap, f.gapped = f.count("// … lines 1000-2000 omitted …\n")+f.count(", 1000-2000"), true
	}
	return f.gap
}

// headerKey names a file's or tool's header: what its estimate depends on
// besides the format.
type headerKey struct{ path, label, lang string }

// overhead estimates the tokens an item adds besides its content: a header
// and fences when it is the first of its file (or a tool result), else a
// gap marker and a range in the header.
func (f *formatter) overhead(it *budget.Item, first bool) int {
	extra := 0
	if f.xmlOut && needsCDATASplit(it.Content) {
		// A split CDATA section costs more than the characters it splits.
		extra = max(0, f.count(cdataText(it.Content))-it.Tokens)
	}
	if !first {
		return f.gapTokens() + extra
	}
	key := headerKey{it.Path, it.Label, it.Lang}
	if n, ok := f.headers[key]; ok {
		return n + extra
	}
	var h int
	if f.xmlOut {
		fi := File{kind: "file", Path: shown(it.Path), label: shown(it.Label), Ranges: "1000-2000"}
		if it.Path == "" {
			fi.kind = "tool"
		}
		// The <context> element is charged to every section: an
		// overestimate the re-selection corrects (budget.Pack).
		h = f.count(xmlOpen(fi)+cdataOpen) + f.count(cdataClose+"</"+fi.kind+">\n\n") + f.xmlRoot + 2
	} else {
		h = f.count(header(it, "1000-2000")+"````"+it.Lang+"\n") + f.count("````\n\n") + 2
	}
	f.headers[key] = h
	return h + extra
}

// group is what one header covers: one file, or one tool result.
type group struct {
	items []*budget.Item // in line order
	first int            // rank of its best item
}

// Formats are the values of Request.Format.
const (
	FormatMarkdown = "markdown"
	FormatXML      = "xml"
)

// renderer returns the function that renders the request's format (docs/design.md
// rule 8): markdown by default, xml, or the request's template.
func (p *pipeline) renderer(f *formatter) (func([]*budget.Item) (string, error), error) {
	if err := p.checkFormat(); err != nil {
		return nil, err
	}
	if p.req.Format == FormatXML {
		f.xmlOut = true
		f.xmlRoot = f.count(xmlRootOpen) + f.count(xmlRootClose)
		return f.xml, nil
	}
	if p.req.Template != "" {
		tmpl, err := parseTemplate(p.req.Template)
		if err != nil {
			return nil, &ParamError{Field: "template", Message: err.Error()}
		}
		// One time budget for every render of this pack (rule 3's drop
		// renders again after each item it drops).
		deadline := time.Now().Add(templateTimeBudget)
		return func(items []*budget.Item) (string, error) { return f.template(p.ctx, tmpl, items, deadline) }, nil
	}
	return f.markdown, nil
}

// checkFormat rejects an unknown format, and xml with a template.
func (p *pipeline) checkFormat() error {
	switch p.req.Format {
	case "", FormatMarkdown:
	case FormatXML:
		if p.req.Template != "" {
			return &ParamError{Field: "format", Message: "xml cannot be combined with a template; leave out one of them"}
		}
	default:
		return &ParamError{Field: "format", Message: fmt.Sprintf("%q is not a format; use markdown or xml", shown(p.req.Format))}
	}
	return nil
}

// File is one section of a packed context, for custom templates.
type File struct {
	// Header is the default header line ("## File: a.go (lines 1-50)").
	Header string
	// Path is workspace-relative, escaped as docs/design.md#rule-9 says (control
	// characters, newlines, bidi controls, invalid UTF-8 as Go escapes);
	// empty for tool output.
	Path string
	// Tool is the label of tool output, escaped like Path; empty for files.
	Tool string
	// Language is the fence info string ("go"); Fence the backtick fence
	// that no line of the content can close.
	Language, Fence string
	// Ranges is the line ranges shown ("1-50, 80-95").
	Ranges string
	// Body is the text inside the fence, with gap markers.
	Body string
	// Segments are the runs of lines, in line order.
	Segments []Segment

	kind  string // "file", "tool" or "snippet"
	label string // the escaped label of a tool or snippet
	whole bool   // a tool or snippet shown whole (no lines attribute)
}

// Segment is one run of source lines.
type Segment struct {
	StartLine, EndLine int
	Content            string
}

// files groups items (in rank order) per file and tool result, in the order
// of each group's best item, each group's items in line order.
func files(items []*budget.Item) []File {
	groups := map[string]*group{}
	var order []*group
	for i, it := range items {
		key := "file:" + it.Path
		if it.Path == "" {
			key = fmt.Sprintf("tool:%s\x00%p", it.Label, it.Source)
		}
		g, ok := groups[key]
		if !ok {
			g = &group{first: i}
			groups[key] = g
			order = append(order, g)
		}
		g.items = append(g.items, it)
	}
	out := make([]File, 0, len(order))
	for _, g := range order {
		sort.SliceStable(g.items, func(i, j int) bool { return g.items[i].StartLine < g.items[j].StartLine })
		out = append(out, buildFile(g.items))
	}
	return out
}

// snippetTitle names a source given by content without a path in its
// header: its label, else its type.
func snippetTitle(it *budget.Item) string {
	if it.Label != "" {
		return shown(it.Label)
	}
	return it.Type
}

func buildFile(items []*budget.Item) File {
	first := items[0]
	segs := mergeSegments(items)
	ranges, body := segmentBody(first.Lang, segs)
	r := strings.Join(ranges, ", ")
	lang := first.Lang
	if first.Path == "" && lang == "" {
		lang = "text"
	}
	f := File{Path: shown(first.Path), Tool: shown(first.Label), Language: lang, Ranges: r, Body: body, Segments: segs, Fence: fence(body)}
	if first.Path == "" {
		pathlessHeader(&f, first, segs, r)
	} else {
		f.Tool = ""
		f.Header = header(first, r)
		f.kind = "file"
	}
	return f
}

// mergeSegments returns the segments of one file's items (in line order):
// an item overlapping or touching the segment before extends it.
func mergeSegments(items []*budget.Item) []Segment {
	first := items[0]
	var segs []Segment
	for _, it := range items {
		if n := len(segs); n > 0 && segs[n-1].EndLine+1 >= it.StartLine {
			last := &segs[n-1]
			if it.EndLine > last.EndLine {
				last.Content = first.Source.Slice(last.StartLine, it.EndLine)
				last.EndLine = it.EndLine
			}
			continue
		}
		segs = append(segs, Segment{StartLine: it.StartLine, EndLine: it.EndLine, Content: it.Content})
	}
	return segs
}

// segmentBody returns the line ranges of segs ("start-end") and their
// text joined by gap markers in lang, each segment ending in a newline.
func segmentBody(lang string, segs []Segment) ([]string, string) {
	var ranges []string
	var body strings.Builder
	for i, s := range segs {
		ranges = append(ranges, fmt.Sprintf("%d-%d", s.StartLine, s.EndLine))
		if i > 0 {
			body.WriteString(gapMarker(lang, segs[i-1].EndLine+1, s.StartLine-1))
		}
		body.WriteString(s.Content)
		if !strings.HasSuffix(s.Content, "\n") {
			body.WriteByte('\n')
		}
	}
	return ranges, body.String()
}

// pathlessHeader sets the header of f, whose source (first) has no path:
// tool output gets "## Tool: <label>" (rule 8); other sources given by
// content without a uri have no path, so "## Snippet: <label>". The line
// ranges r follow unless segs cover the whole text.
func pathlessHeader(f *File, first *budget.Item, segs []Segment, r string) {
	whole := len(segs) == 1 && segs[0].StartLine == 1 && segs[0].EndLine == first.Source.Lines()
	f.whole = whole
	if first.Type == "tool_result" {
		f.Tool = shown(first.Label)
		if f.Tool == "" {
			f.Tool = "output"
		}
		f.Header = "## Tool: " + f.Tool
		f.kind, f.label = "tool", f.Tool
	} else {
		f.Tool = ""
		f.Header = "## Snippet: " + snippetTitle(first)
		f.kind, f.label = "snippet", snippetTitle(first)
	}
	if !whole {
		f.Header += " (lines " + r + ")"
	}
}

func header(it *budget.Item, ranges string) string {
	if it.Path == "" && it.Type == "tool_result" {
		return "## Tool: " + shown(it.Label) + " (lines " + ranges + ")\n"
	}
	if it.Path == "" {
		return "## Snippet: " + snippetTitle(it) + " (lines " + ranges + ")\n"
	}
	return "## File: " + shown(it.Path) + " (lines " + ranges + ")\n"
}

// markdown is the default format of docs/design.md#rule-8.
func (f *formatter) markdown(items []*budget.Item) (string, error) {
	var b strings.Builder
	for i, file := range files(items) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimSuffix(file.Header, "\n"))
		b.WriteByte('\n')
		b.WriteString(file.Fence)
		b.WriteString(file.Language)
		b.WriteByte('\n')
		b.WriteString(file.Body)
		b.WriteString(file.Fence)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// The xml format's fixed parts.
const (
	xmlRootOpen  = "<context>\n"
	xmlRootClose = "</context>\n"
	cdataOpen    = "<![CDATA[\n"
	cdataClose   = "]]>"
)

// xml is the format "xml" of docs/design.md#rule-8: one document, a
// <context> element holding one element per file, tool result or snippet,
// in the order of the markdown sections. Each body is a CDATA section
// opened on the line of its start tag (so a parser reads the body after
// one newline) and closed before the end tag; cdataText keeps the content
// from closing it. The text is well-formed XML 1.0; no items render as ""
// (an empty pack, as in markdown).
func (f *formatter) xml(items []*budget.Item) (string, error) {
	if len(items) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString(xmlRootOpen)
	for i, file := range files(items) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(xmlOpen(file))
		b.WriteString(cdataOpen)
		b.WriteString(cdataText(file.Body))
		b.WriteString(cdataClose + "</" + file.kind + ">\n")
	}
	b.WriteString(xmlRootClose)
	return b.String(), nil
}

// xmlOpen is the start tag of a section: <file path="…" lines="…">,
// <tool label="…">, <snippet label="…">; a tool or snippet shown in part
// also says which lines.
func xmlOpen(file File) string {
	var b strings.Builder
	b.WriteString("<" + file.kind)
	if file.kind == "file" {
		b.WriteString(` path="` + xmlAttr(file.Path) + `"`)
	} else {
		b.WriteString(` label="` + xmlAttr(file.label) + `"`)
	}
	if file.kind == "file" || !file.whole {
		b.WriteString(` lines="` + file.Ranges + `"`)
	}
	b.WriteString(">")
	return b.String()
}

// cdataText is s for the inside of a CDATA section, so that a parser
// reads s back exactly: "]]>" is split across two sections
// ("]]" ends one, ">" starts the next), a CR is written between two
// sections as the reference &#xD; (a parser turns a raw CR into a newline),
// and what XML 1.0 cannot hold (other control characters, U+FFFE/U+FFFF,
// invalid UTF-8) becomes U+FFFD.
func cdataText(s string) string {
	if !needsCDATASplit(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ']' && strings.HasPrefix(s[i:], "]]>"):
			b.WriteString("]]" + cdataClose + "<![CDATA[>")
			size = 3
		case r == '\r':
			b.WriteString(cdataClose + "&#xD;<![CDATA[")
		case r == utf8.RuneError && size == 1, !xmlChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsCDATASplit reports whether cdataText changes s.
func needsCDATASplit(s string) bool {
	if strings.Contains(s, "]]>") {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r':
			return true
		case c < 0x20 && c != '\n' && c != '\t':
			return true
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size == 1) || !xmlChar(r) {
				return true
			}
			i += size - 1
		}
	}
	return false
}

// xmlAttr escapes a (rule 9 escaped) path or label for a double-quoted
// attribute value: &, <, > and " as entities, CR, LF and tab as character
// references, and what XML 1.0 cannot hold as U+FFFD.
func xmlAttr(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\r', r == '\n', r == '\t':
			// Attribute-value normalisation would read them as spaces.
			fmt.Fprintf(&b, "&#x%X;", r)
		case r == utf8.RuneError && size == 1, !xmlChar(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// xmlChar reports whether r is a Char of XML 1.0.
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// fence returns a backtick fence longer than any backtick run in content
// (at least three), so the content can never close it.
func fence(content string) string {
	longest, run := 0, 0
	for i := 0; i < len(content); i++ {
		if content[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// gapMarker is the line that stands for omitted lines, as a comment of the
// file's language where it has one.
func gapMarker(lang string, from, to int) string {
	text := fmt.Sprintf("… lines %d-%d omitted …", from, to)
	switch lang {
	case "python", "ruby", "sh", "bash", "yaml", "toml", "perl", "r", "dockerfile", "makefile", "elixir", "powershell", "nim":
		return "# " + text + "\n"
	case "sql", "lua", "haskell", "elm":
		return "-- " + text + "\n"
	case "markdown", "html", "xml", "svelte", "vue":
		return "<!-- " + text + " -->\n"
	case "css":
		return "/* " + text + " */\n"
	case "", "text", "json":
		return text + "\n"
	default:
		return "// " + text + "\n"
	}
}

// shown is a path or label as the context shows it (docs/design.md#rule-9): control
// characters, newlines, bidi controls and invalid UTF-8 as Go-style escapes,
// so that a file name stays on its header line and cannot forge a header,
// open a fence or close an element.
func shown(s string) string { return collector.EscapePath(s) }
