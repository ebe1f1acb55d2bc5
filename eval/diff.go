package eval

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// insertionContext is the number of lines taken on each side of a pure
// insertion (a hunk that removes nothing): the parent has no changed line
// there, so the lines around the insertion point are the needed ones.
const insertionContext = 3

// NeededLines parses a unified diff made with zero context lines
// (`git diff -U0 --no-renames PARENT COMMIT`) and returns, per file that
// exists in the parent, the parent's lines the commit changed: removed or
// replaced lines, and ±3 lines around a pure insertion (clipped to the
// file, whose line counts lineCount gives). Files the commit adds are left
// out. The result is sorted by path, ranges merged.
func NeededLines(diff string, lineCount func(path string) int) ([]FileLines, error) {
	byPath := map[string][][2]int{}
	var path string
	sc := bufio.NewScanner(strings.NewReader(diff))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "diff --git "):
			path = ""
		case strings.HasPrefix(line, "--- "):
			p := strings.TrimPrefix(line, "--- ")
			if p == "/dev/null" {
				path = "" // added file: nothing of it in the parent
			} else {
				path = unquote(strings.TrimPrefix(p, "a/"))
			}
		case strings.HasPrefix(line, "@@ ") && path != "":
			start, count, err := parseHunk(line)
			if err != nil {
				return nil, err
			}
			var r [2]int
			if count > 0 {
				r = [2]int{start, start + count - 1}
			} else {
				// "-L,0": the insertion goes after line L (0 = at the top).
				n := lineCount(path)
				r = [2]int{max(1, start-insertionContext+1), min(n, start+insertionContext)}
				if r[1] < r[0] {
					continue
				}
			}
			byPath[path] = append(byPath[path], r)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("eval: diff: %w", err)
	}
	out := make([]FileLines, 0, len(byPath))
	for p, rs := range byPath {
		out = append(out, FileLines{Path: p, Ranges: mergeRanges(rs)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// parseHunk returns the old side of a hunk header "@@ -a,b +c,d @@".
func parseHunk(h string) (start, count int, err error) {
	f := strings.Fields(h)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return 0, 0, fmt.Errorf("eval: bad hunk header %q", h)
	}
	old := strings.TrimPrefix(f[1], "-")
	count = 1
	if a, b, ok := strings.Cut(old, ","); ok {
		old = a
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("eval: bad hunk header %q", h)
		}
	}
	if start, err = strconv.Atoi(old); err != nil {
		return 0, 0, fmt.Errorf("eval: bad hunk header %q", h)
	}
	return start, count, nil
}

func unquote(p string) string {
	if strings.HasPrefix(p, "\"") {
		if s, err := strconv.Unquote(p); err == nil {
			return strings.TrimPrefix(s, "a/")
		}
	}
	return p
}

// mergeRanges sorts ranges and joins overlapping or adjacent ones.
func mergeRanges(rs [][2]int) [][2]int {
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	var out [][2]int
	for _, r := range rs {
		if n := len(out); n > 0 && r[0] <= out[n-1][1]+1 {
			out[n-1][1] = max(out[n-1][1], r[1])
			continue
		}
		out = append(out, r)
	}
	return out
}
