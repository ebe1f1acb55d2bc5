package budget

import "strings"

// Text is the whole text of one source with the byte offset of every line,
// so that chunks can be re-cut from it by line numbers (overlap merges and
// trimming never concatenate chunk contents; they slice the source again).
type Text struct {
	s     string
	lines []int // lines[i] = byte offset of line i+1; a final sentinel = len(s)
}

// NewText indexes s by lines.
func NewText(s string) *Text {
	t := &Text{s: s, lines: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			t.lines = append(t.lines, i+1)
		}
	}
	t.lines = append(t.lines, len(s))
	return t
}

// String returns the whole text.
func (t *Text) String() string { return t.s }

// Lines is the number of lines (a final newline does not start a line).
func (t *Text) Lines() int {
	if t.s == "" {
		return 0
	}
	return len(t.lines) - 1
}

// Slice returns lines start..end (1-based, inclusive), clamped to the text,
// with the newline of the last line when it has one.
func (t *Text) Slice(start, end int) string {
	n := t.Lines()
	if start < 1 {
		start = 1
	}
	if end > n {
		end = n
	}
	if start > end {
		return ""
	}
	return t.s[t.lines[start-1]:t.lines[end]]
}

// Item is one candidate chunk on its way through dedup, selection and
// verification. The pipeline fills it; this package only reads the text
// through Source, never from disk.
type Item struct {
	// Category is one of [Categories].
	Category string
	// Type is the source type ("open_file", "reference", ...).
	Type string
	// Origin says where the pipeline got the text (an editor's open
	// document, a walked file, …); this package only carries it.
	Origin string
	// Path is workspace-relative ("" for tool results, which have Label).
	Path  string
	Label string
	// Lang is the fence info string for the file ("go", "python", "").
	Lang string
	// StartLine and EndLine are 1-based and inclusive in Source.
	StartLine, EndLine int
	// Source is the whole text the lines refer to.
	Source *Text
	// Content is Source.Slice(StartLine, EndLine).
	Content string
	Tokens  int
	// Score is the rank score of rule 5, in [0,1]; Priority the source
	// priority (0..100) of the item's category.
	Score    float64
	Priority int
	// Kind and Name come from the chunker ("function", "(*S).Run").
	Kind, Name string
	// Seq is a unique, stable sequence number: the final tie-break.
	Seq int
	// Outline marks lines of a file's outline (signatures and doc
	// comments, docs/design.md#rule-8) rather than a whole chunk.
	Outline bool
}

// Lines is the number of lines the item spans.
func (it *Item) Lines() int { return it.EndLine - it.StartLine + 1 }

// Key identifies the text an item's lines belong to: the path for files,
// "tool:"+label+seq for tool output (never deduplicated by lines).
func (it *Item) fileKey() string {
	if it.Path == "" {
		return ""
	}
	return it.Path
}

// Less orders items by rank: score desc, priority desc, path asc, start line
// asc (docs/design.md#rule-5), then label, end line and sequence so that the order is
// total and the same input always gives the same output.
func Less(a, b *Item) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.StartLine != b.StartLine {
		return a.StartLine < b.StartLine
	}
	if c := strings.Compare(a.Label, b.Label); c != 0 {
		return c < 0
	}
	if a.EndLine != b.EndLine {
		return a.EndLine < b.EndLine
	}
	return a.Seq < b.Seq
}
