package conversation

import (
	"regexp"
	"strings"
)

// Tool kinds [FitToolResult] knows; any other tool name is paged by lines
// and compressed generically.
const (
	ToolProjectFiles  = "project_files"
	ToolSearchContent = "search_content"
	ToolReadFile      = "read_file"
	ToolVCSDiff       = "vcs_diff"
	ToolVCSLog        = "vcs_log"
)

// span is an item: the byte range [start, end) of the content. The items of
// a content are contiguous and cover it exactly.
type span struct{ start, end int }

// itemKind names how a tool's output splits into items.
func itemKind(tool string) string {
	switch tool {
	case ToolProjectFiles, ToolSearchContent, ToolReadFile, ToolVCSDiff, ToolVCSLog:
		return tool
	}
	return "lines"
}

// itemNoun is what the items of a kind are called in notes.
func itemNoun(kind string) string {
	switch kind {
	case ToolProjectFiles:
		return "files"
	case ToolSearchContent:
		return "matches"
	case ToolVCSDiff:
		return "hunks"
	case ToolVCSLog:
		return "commits"
	}
	return "lines"
}

// splitItems splits content into the items of a tool kind: a file per line
// (project_files), a match per line or per "--"-separated block or per file
// group of heading-style output (search_content), a hunk per "@@" with the
// file header kept with its first hunk (vcs_diff), a commit per "commit
// <hash>" (vcs_log, else lines), and lines otherwise.
func splitItems(kind, content string) []span {
	lines := splitLines(content)
	switch kind {
	case ToolSearchContent:
		return splitSearch(content, lines)
	case ToolVCSDiff:
		return splitDiff(content, lines)
	case ToolVCSLog:
		return groupLines(content, lines, func(i int) bool { return commitLine.MatchString(lineText(content, lines[i])) })
	}
	return lines
}

// splitLines returns one span per line, newline included; a last line
// without a newline is an item too.
func splitLines(content string) []span {
	spans := make([]span, 0, strings.Count(content, "\n")+1)
	start := 0
	for start < len(content) {
		nl := strings.IndexByte(content[start:], '\n')
		if nl < 0 {
			spans = append(spans, span{start, len(content)})
			break
		}
		spans = append(spans, span{start, start + nl + 1})
		start += nl + 1
	}
	return spans
}

func lineText(content string, s span) string {
	return strings.TrimRight(content[s.start:s.end], "\r\n")
}

// groupLines merges lines into items, starting a new item at each line for
// which starts reports true (lines before the first start form an item of
// their own). When no line starts an item, every line is an item.
func groupLines(content string, lines []span, starts func(i int) bool) []span {
	var items []span
	started := false
	for i, l := range lines {
		// starts may keep state: call it exactly once per line, in order.
		if s := starts(i); s || len(items) == 0 {
			started = started || s
			items = append(items, l)
			continue
		}
		items[len(items)-1].end = l.end
	}
	if !started {
		return lines
	}
	return items
}

var (
	commitLine     = regexp.MustCompile(`^commit [0-9a-f]{7,64}\b`)
	matchLine      = regexp.MustCompile(`^[^:\s][^:]*:\d+[:-]`) // path:12:text or path:12-context
	lineNumberLine = regexp.MustCompile(`^\d+[:-]`)             // 12:text under a heading
)

// splitSearch splits search output into matches.
func splitSearch(content string, lines []span) []span {
	hasSeparator, numbered, prefixed := false, 0, 0
	for _, l := range lines {
		t := lineText(content, l)
		switch {
		case t == "--":
			hasSeparator = true
		case matchLine.MatchString(t):
			prefixed++
		case lineNumberLine.MatchString(t):
			numbered++
		}
	}
	switch {
	case hasSeparator:
		// grep -C blocks: a block runs up to and including its "--" line.
		var items []span
		open := false
		for _, l := range lines {
			if !open {
				items = append(items, l)
				open = true
			} else {
				items[len(items)-1].end = l.end
			}
			if lineText(content, l) == "--" {
				open = false
			}
		}
		return items
	case numbered > 0 && prefixed == 0:
		// rg --heading: a path line, its numbered matches, a blank line.
		return groupLines(content, lines, func(i int) bool {
			t := lineText(content, lines[i])
			return t != "" && !lineNumberLine.MatchString(t) && (i == 0 || lineText(content, lines[i-1]) == "")
		})
	}
	return lines
}

// splitDiff splits a diff into hunks; a file's header stays with its first
// hunk, and a commit header (git show) is an item of its own.
func splitDiff(content string, lines []span) []span {
	headerOpen := false
	return groupLines(content, lines, func(i int) bool {
		t := lineText(content, lines[i])
		switch {
		case commitLine.MatchString(t):
			headerOpen = false
			return true
		case strings.HasPrefix(t, "diff "):
			headerOpen = true
			return true
		case strings.HasPrefix(t, "--- ") && !headerOpen && i+1 < len(lines) &&
			strings.HasPrefix(lineText(content, lines[i+1]), "+++ "):
			headerOpen = true
			return true
		case strings.HasPrefix(t, "@@"):
			if headerOpen {
				headerOpen = false
				return false
			}
			return true
		}
		return false
	})
}
