package pack

import (
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/acode-lsp/acode-lsp/budget"
)

// formatter renders selected items as the packed context (DESIGN rule 8)
// and estimates the formatting cost of an item for selection.
type formatter struct {
	count   func(string) int
	headers map[string]int // estimated header+fence tokens per file or tool
	gap     int            // estimated tokens of a gap marker and a range
}

func newFormatter(count func(string) int) *formatter {
	return &formatter{
		count:   count,
		headers: map[string]int{},
		gap:     count("// … lines 1000-2000 omitted …\n") + count(", 1000-2000"),
	}
}

// overhead estimates the tokens an item adds besides its content: a header
// and fences when it is the first of its file (or a tool result), else a
// gap marker and a range in the header.
func (f *formatter) overhead(it *budget.Item, first bool) int {
	if !first {
		return f.gap
	}
	key := it.Path + "\x00" + it.Label + "\x00" + it.Lang
	if n, ok := f.headers[key]; ok {
		return n
	}
	h := f.count(header(it, "1000-2000")+"````"+it.Lang+"\n") + f.count("````\n\n") + 2
	f.headers[key] = h
	return h
}

// group is what one header covers: one file, or one tool result.
type group struct {
	items []*budget.Item // in line order
	first int            // rank of its best item
}

// File is one section of a packed context, for custom templates.
type File struct {
	// Header is the default header line ("## File: a.go (lines 1-50)").
	Header string
	// Path is workspace-relative; empty for tool output.
	Path string
	// Tool is the label of tool output; empty for files.
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
		return oneLine(it.Label)
	}
	return it.Type
}

func buildFile(items []*budget.Item) File {
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
	var ranges []string
	var body strings.Builder
	for i, s := range segs {
		ranges = append(ranges, fmt.Sprintf("%d-%d", s.StartLine, s.EndLine))
		if i > 0 {
			body.WriteString(gapMarker(first.Lang, segs[i-1].EndLine+1, s.StartLine-1))
		}
		body.WriteString(s.Content)
		if !strings.HasSuffix(s.Content, "\n") {
			body.WriteByte('\n')
		}
	}
	r := strings.Join(ranges, ", ")
	lang := first.Lang
	if first.Path == "" && lang == "" {
		lang = "text"
	}
	f := File{Path: first.Path, Tool: first.Label, Language: lang, Ranges: r, Body: body.String(), Segments: segs, Fence: fence(body.String())}
	if first.Path == "" {
		// Tool output gets "## Tool: <label>" (rule 8); other sources given
		// by content without a uri have no path, so "## Snippet: <label>".
		whole := len(segs) == 1 && segs[0].StartLine == 1 && segs[0].EndLine == first.Source.Lines()
		if first.Type == "tool_result" {
			f.Tool = first.Label
			if f.Tool == "" {
				f.Tool = "output"
			}
			f.Header = "## Tool: " + oneLine(f.Tool)
		} else {
			f.Tool = ""
			f.Header = "## Snippet: " + snippetTitle(first)
		}
		if !whole {
			f.Header += " (lines " + r + ")"
		}
	} else {
		f.Tool = ""
		f.Header = header(first, r)
	}
	return f
}

func header(it *budget.Item, ranges string) string {
	if it.Path == "" && it.Type == "tool_result" {
		return "## Tool: " + oneLine(it.Label) + " (lines " + ranges + ")\n"
	}
	if it.Path == "" {
		return "## Snippet: " + snippetTitle(it) + " (lines " + ranges + ")\n"
	}
	return "## File: " + it.Path + " (lines " + ranges + ")\n"
}

// markdown is the default format of DESIGN rule 8.
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

func parseTemplate(text string) (*template.Template, error) {
	return template.New("pack").Parse(text)
}

// template renders items with a custom text/template; its data is
// {Files []File}.
func (f *formatter) template(t *template.Template, items []*budget.Item) (string, error) {
	var b strings.Builder
	if err := t.Execute(&b, struct{ Files []File }{files(items)}); err != nil {
		return "", err
	}
	return b.String(), nil
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

// oneLine keeps a label on one header line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
