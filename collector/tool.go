package collector

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ansiRe matches terminal escape sequences: CSI (colours, cursor moves) and
// OSC (titles, hyperlinks).
var ansiRe = lazyRegexp(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]`)

// NewToolResult makes a tool_result source from raw tool output. Invalid UTF-8
// is repaired with U+FFFD, terminal escape sequences and control characters
// other than tab, newline and carriage return are removed, and secrets are
// redacted. The label is cleaned the same way and put on one line, since it
// becomes a header ("## Tool: go test ./cart").
func NewToolResult(label, content string) Source {
	return NewContent(ToolResult, label, content)
}

// NewContent makes a source of type t from text given without a file (a
// tool's output, a snippet an editor sent): every input that has no path
// comes in through here and is cleaned and redacted as [NewToolResult]
// says, label included.
func NewContent(t SourceType, label, content string) Source {
	content = cleanOutput(content)
	content, n := Redact(content)
	label = strings.Join(strings.Fields(cleanOutput(label)), " ")
	label, nl := Redact(label)
	return Source{Type: t, Label: label, Content: content, Redactions: n + nl}
}

// cleanOutput repairs UTF-8 and drops escape sequences and control bytes.
func cleanOutput(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansiRe().ReplaceAllString(s, "")
	}
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// ParseReference parses a --reference argument "PATH[:START-END]" (1-based,
// inclusive; "PATH:START" is a single line; no suffix means the whole file,
// start = end = 0). A suffix that is not made of digits and a dash belongs
// to the path ("notes:v2.md"), so only a numeric suffix is read as a range.
func ParseReference(arg string) (path string, start, end int, err error) {
	if arg == "" {
		return "", 0, 0, errors.New("collector: reference: empty argument")
	}
	i := strings.LastIndexByte(arg, ':')
	if i < 0 || !isRangeSuffix(arg[i+1:]) {
		return arg, 0, 0, nil
	}
	path, spec := arg[:i], arg[i+1:]
	if path == "" {
		return "", 0, 0, fmt.Errorf("collector: reference %q: empty path", arg)
	}
	first, last, ranged := strings.Cut(spec, "-")
	start, err = parseLine(first)
	if err != nil {
		return "", 0, 0, fmt.Errorf("collector: reference %q: start line: %w", arg, err)
	}
	end = start
	if ranged {
		end, err = parseLine(last)
		if err != nil {
			return "", 0, 0, fmt.Errorf("collector: reference %q: end line: %w", arg, err)
		}
	}
	if end < start {
		return "", 0, 0, fmt.Errorf("collector: reference %q: end line %d is before start line %d", arg, end, start)
	}
	return path, start, end, nil
}

// isRangeSuffix reports a non-empty suffix of digits and dashes.
func isRangeSuffix(s string) bool {
	return s != "" && strings.Trim(s, "0123456789-") == ""
}

// parseLine parses a 1-based line number.
func parseLine(s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing")
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a line number", s)
	}
	if n < 1 {
		return 0, fmt.Errorf("%d is not a line number (lines start at 1)", n)
	}
	return n, nil
}
