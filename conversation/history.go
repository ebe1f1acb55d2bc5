package conversation

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Compress summarises a tool output for a work log (acode/fitToolResult
// with mode "history") within req.MaxTokens (default [DefaultToolTokens])
// and req.MaxChars characters (default [DefaultHistoryEntryChars]), per
// tool kind:
//
//   - project_files: the file count, counts by extension, the top
//     directories and the first paths;
//   - search_content: the match count — counted like Returned, one per
//     item — the pattern (req.Pattern) and the matches per file;
//   - read_file: the path (req.Path), line and byte counts, the file's key
//     sections (req.Outline), the first and last lines;
//   - vcs_diff: the files with their added/removed line counts;
//   - vcs_log: the commit count, the newest and oldest subjects, authors;
//   - anything else: line and byte counts, the first and last lines.
//
// The summary keeps as much detail as fits, dropping list entries first;
// Returned and Total are the item count of the whole output. HistoryTokens
// is req.HistoryTokens (0 when absent) plus the summary's tokens, against
// HistoryCap.
func Compress(ctx context.Context, c Counter, req FitRequest) (*FitResult, error) {
	defaulted := 0
	if req.MaxTokens == 0 {
		req.MaxTokens, defaulted = DefaultToolTokens, DefaultToolTokens
	}
	o, err := historyOptionsOf(req)
	if err != nil {
		return nil, err
	}
	kind := itemKind(req.Tool)
	items := splitItems(kind, req.Content)
	build := summariser(ctx, req, kind, items)
	text, tokens, err := fitSummary(ctx, c, build, req.MaxTokens, o.maxChars)
	if err != nil {
		return nil, err
	}
	after := o.before + tokens
	res := &FitResult{
		Content:       text,
		Tokens:        tokens,
		Returned:      len(items),
		Total:         len(items),
		Note:          fmt.Sprintf("history summary of %d %s", len(items), itemNoun(kind)),
		MaxTokens:     defaulted,
		HistoryTokens: &after,
		HistoryCap:    o.historyCap,
		HistoryOver:   max(after-o.historyCap, 0),
	}
	if res.HistoryOver > 0 {
		res.Note += fmt.Sprintf("; the work history is over its %d-token cap by %d tokens with this entry: drop its oldest entries", o.historyCap, res.HistoryOver)
	}
	return res, nil
}

// historyOptions are a history request's checked limits: the entry's
// character cap, the history's token cap and its tokens before the entry.
type historyOptions struct{ maxChars, historyCap, before int }

func historyOptionsOf(req FitRequest) (historyOptions, error) {
	o := historyOptions{maxChars: DefaultHistoryEntryChars, historyCap: req.HistoryCap}
	if req.MaxTokens < 0 {
		return o, paramErrorf("maxTokens", "must be positive, got %d (leave it out for the default %d)", req.MaxTokens, DefaultToolTokens)
	}
	if req.MaxChars != nil {
		if o.maxChars = *req.MaxChars; o.maxChars < 0 {
			return o, paramErrorf("maxChars", "must not be negative, got %d (0 turns the cap off, default %d)", o.maxChars, DefaultHistoryEntryChars)
		}
	}
	switch {
	case o.historyCap < 0:
		return o, paramErrorf("historyCap", "must be positive, got %d (default %d)", o.historyCap, DefaultHistoryCap)
	case o.historyCap == 0:
		o.historyCap = DefaultHistoryCap
	}
	if req.HistoryTokens != nil {
		if o.before = *req.HistoryTokens; o.before < 0 {
			return o, paramErrorf("historyTokens", "must not be negative, got %d", o.before)
		}
	}
	return o, nil
}

// summariser picks the summary of a tool kind: it renders the summary at
// a level of detail.
func summariser(ctx context.Context, req FitRequest, kind string, items []span) func(detail int) string {
	lines := splitLines(req.Content)
	switch kind {
	case ToolProjectFiles:
		return summariseFiles(req.Content, lines)
	case ToolSearchContent:
		return summariseSearch(req.Content, lines, items, req.Pattern)
	case ToolVCSDiff:
		return summariseDiff(req.Content, lines)
	case ToolVCSLog:
		return summariseLog(req.Content, lines, items)
	}
	label := "Output"
	var outline []string
	if kind == ToolReadFile {
		label = "Read file"
		if req.Path != "" {
			label = "Read " + req.Path
		}
		if req.Outline != nil {
			outline = req.Outline(ctx, req.Path, req.Content)
		}
	}
	return summariseText(label, req.Content, lines, outline)
}

// detailLevels are the list lengths tried, most detailed first.
var detailLevels = []int{20, 10, 5, 3, 1, 0}

// fitSummary returns the most detailed summary that fits maxTokens and
// maxChars characters (0: no limit); when even the shortest does not, it
// is cut at a rune boundary and ends in "…".
func fitSummary(ctx context.Context, c Counter, build func(detail int) string, maxTokens, maxChars int) (string, int, error) {
	fits := func(s string) (int, bool) {
		if maxChars > 0 && utf8.RuneCountInString(s) > maxChars {
			return 0, false
		}
		n := c.Count(s)
		return n, n <= maxTokens
	}
	var s string
	for _, d := range detailLevels {
		if err := ctx.Err(); err != nil {
			return "", 0, fmt.Errorf("conversation: compress: %w", err)
		}
		s = build(d)
		if n, ok := fits(s); ok {
			return s, n, nil
		}
	}
	lo, hi := 0, len(s)
	for hi-lo > 1 {
		mid := runeStart(s, lo+(hi-lo)/2)
		if mid <= lo {
			break
		}
		if _, ok := fits(s[:mid] + "…"); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return "", 0, nil
	}
	out := s[:lo] + "…"
	return out, c.Count(out), nil
}

// counted is a name with a count, for "name (n)" lists.
type counted struct {
	name string
	n    int
}

// topCounts returns the entries of m by count desc, then name asc.
func topCounts(m map[string]int) []counted {
	out := make([]counted, 0, len(m))
	for k, v := range m {
		out = append(out, counted{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].name < out[j].name
	})
	return out
}

// listCounts formats up to limit entries as "a (3), b (1)" and says how
// many more there are.
func listCounts(entries []counted, limit int) string {
	var b strings.Builder
	for i, e := range entries {
		if i == limit {
			fmt.Fprintf(&b, ", … %d more", len(entries)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%d)", e.name, e.n)
	}
	return b.String()
}

func nonEmptyLines(content string, lines []span) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if t := strings.TrimSpace(lineText(content, l)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

func summariseFiles(content string, lines []span) func(int) string {
	paths := nonEmptyLines(content, lines)
	exts, dirs := map[string]int{}, map[string]int{}
	for i, p := range paths {
		if tab := strings.IndexByte(p, '\t'); tab >= 0 { // "path<TAB>metadata"
			p = p[:tab]
			paths[i] = p
		}
		p = strings.TrimPrefix(p, "./")
		ext := path.Ext(p)
		if ext == "" {
			ext = "(none)"
		}
		exts[ext]++
		dir := "./"
		if slash := strings.IndexByte(p, '/'); slash >= 0 {
			dir = p[:slash+1]
		}
		dirs[dir]++
	}
	byExt, byDir := topCounts(exts), topCounts(dirs)
	return func(d int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Listed %s.", plural(len(paths), "file", "files"))
		if d > 0 && len(paths) > 0 {
			fmt.Fprintf(&b, " By extension: %s.", listCounts(byExt, d))
			fmt.Fprintf(&b, " Top directories: %s.", listCounts(byDir, d))
			n := min(d, len(paths))
			fmt.Fprintf(&b, " First: %s", strings.Join(paths[:n], ", "))
			if n < len(paths) {
				b.WriteString(", …")
			}
			b.WriteString(".")
		}
		return b.String()
	}
}

// summariseSearch counts matches the way paging does: one per item (a
// match line, a "--"-separated grep context block, or a file group of
// heading output), per file by the item's first match; when the items hold
// more matching lines than there are items, it says so.
func summariseSearch(content string, lines []span, items []span, pattern string) func(int) string {
	perFile := map[string]int{}
	matchLines := 0
	for _, it := range items {
		file, n := searchItem(content[it.start:it.end])
		matchLines += n
		if file != "" {
			perFile[file]++
		}
	}
	files := topCounts(perFile)
	n := len(items)
	return func(d int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Found %s", plural(n, "match", "matches"))
		if matchLines > n {
			fmt.Fprintf(&b, " (%d matching lines)", matchLines)
		}
		if pattern != "" {
			fmt.Fprintf(&b, " for '%s'", pattern)
		}
		if len(files) > 0 {
			fmt.Fprintf(&b, " in %s", plural(len(files), "file", "files"))
			if d > 0 {
				fmt.Fprintf(&b, ": %s", listCounts(files, d))
			}
		}
		b.WriteString(".")
		return b.String()
	}
}

// searchItem reads one search result (grep's "file:line:text", or a
// heading line followed by "line:text"; context lines use '-') and returns
// the file of its first match and how many matching lines it has.
func searchItem(item string) (file string, matches int) {
	heading := ""
	for _, l := range splitLines(item) {
		t := lineText(item, l)
		switch {
		case t == "" || t == "--":
			heading = ""
		case matchLine.MatchString(t):
			colon := strings.IndexByte(t, ':')
			rest := t[colon+1:]
			if num := strings.IndexAny(rest, ":-"); rest[num] == ':' { // a match, not a context line
				matches++
				if file == "" {
					file = t[:colon]
				}
			}
		case lineNumberLine.MatchString(t):
			if num := strings.IndexAny(t, ":-"); t[num] == ':' {
				matches++
				if file == "" {
					file = heading
				}
			}
		case heading == "":
			heading = t
		}
	}
	return file, matches
}

func summariseDiff(content string, lines []span) func(int) string {
	ds := diffStats{files: map[string]*diffFile{}}
	for _, l := range lines {
		ds.line(lineText(content, l))
	}
	return ds.render
}

// diffStats counts a unified diff's added and deleted lines, per file in
// the order the files come.
type diffStats struct {
	order      []string
	files      map[string]*diffFile
	cur        string
	adds, dels int
}

type diffFile struct{ add, del int }

// file makes name the current file.
func (ds *diffStats) file(name string) {
	ds.cur = name
	if ds.files[name] == nil {
		ds.files[name] = &diffFile{}
		ds.order = append(ds.order, name)
	}
}

// current is the current file's counts ("(unnamed)" before any header).
func (ds *diffStats) current() *diffFile {
	if ds.cur == "" {
		ds.file("(unnamed)")
	}
	return ds.files[ds.cur]
}

// line counts one line of the diff.
func (ds *diffStats) line(t string) {
	switch {
	case strings.HasPrefix(t, "diff --git "):
		f := strings.Fields(t)
		ds.file(strings.TrimPrefix(f[len(f)-1], "b/"))
	case strings.HasPrefix(t, "+++ "):
		name := strings.TrimPrefix(strings.TrimSpace(t[4:]), "b/")
		if name != "/dev/null" && (name != ds.cur || ds.cur == "") {
			ds.file(name)
		}
	case strings.HasPrefix(t, "--- "):
	case strings.HasPrefix(t, "+"):
		ds.adds++
		ds.current().add++
	case strings.HasPrefix(t, "-"):
		ds.dels++
		ds.current().del++
	}
}

// render is the summary at detail d: the totals, and up to d files with
// their counts.
func (ds *diffStats) render(d int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Diff: %s, +%d/-%d lines.", plural(len(ds.order), "file", "files"), ds.adds, ds.dels)
	if d > 0 && len(ds.order) > 0 {
		b.WriteString(" Files: ")
		for i, name := range ds.order {
			if i == d {
				fmt.Fprintf(&b, ", … %d more", len(ds.order)-d)
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s (+%d/-%d)", name, ds.files[name].add, ds.files[name].del)
		}
		b.WriteString(".")
	}
	return b.String()
}

func summariseLog(content string, lines []span, items []span) func(int) string {
	var commits []logCommit
	authors := map[string]int{}
	if slices.ContainsFunc(lines, func(l span) bool { return commitLine.MatchString(lineText(content, l)) }) {
		for _, it := range items {
			if c := fullLogCommit(content[it.start:it.end], authors); c.hash != "" {
				commits = append(commits, c)
			}
		}
	} else {
		for _, t := range nonEmptyLines(content, lines) {
			hash, subject, _ := strings.Cut(t, " ")
			commits = append(commits, logCommit{hash, subject})
		}
	}
	short := func(h string) string { return h[:min(len(h), 10)] }
	return func(d int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Log: %s.", plural(len(commits), "commit", "commits"))
		if len(commits) > 0 {
			fmt.Fprintf(&b, " Newest: %s %s.", short(commits[0].hash), commits[0].subject)
			if len(commits) > 1 {
				last := commits[len(commits)-1]
				fmt.Fprintf(&b, " Oldest: %s %s.", short(last.hash), last.subject)
			}
		}
		if d > 0 && len(authors) > 0 {
			fmt.Fprintf(&b, " Authors: %s.", listCounts(topCounts(authors), d))
		}
		return b.String()
	}
}

// logCommit is a commit of a log: its hash and subject.
type logCommit struct{ hash, subject string }

// fullLogCommit reads one commit of `git log`'s full form ("commit <hash>",
// "Author: name <mail>", the indented message) and counts its author.
func fullLogCommit(item string, authors map[string]int) logCommit {
	var c logCommit
	for _, l := range splitLines(item) {
		t := lineText(item, l)
		switch {
		case commitLine.MatchString(t):
			c.hash = strings.Fields(t)[1]
		case strings.HasPrefix(t, "Author:"):
			a := strings.TrimSpace(strings.TrimPrefix(t, "Author:"))
			if lt := strings.IndexByte(a, '<'); lt > 0 {
				a = strings.TrimSpace(a[:lt])
			}
			authors[a]++
		case c.subject == "" && strings.HasPrefix(t, "    ") && strings.TrimSpace(t) != "":
			c.subject = strings.TrimSpace(t)
		}
	}
	return c
}

func summariseText(label, content string, lines []span, outline []string) func(int) string {
	return func(d int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %s, %s.", label, plural(len(lines), "line", "lines"), plural(len(content), "byte", "bytes"))
		if d > 0 && len(outline) > 0 {
			n := min(d, len(outline))
			fmt.Fprintf(&b, " Key sections: %s", strings.Join(outline[:n], ", "))
			if n < len(outline) {
				fmt.Fprintf(&b, ", … %d more", len(outline)-n)
			}
			b.WriteString(".")
		}
		n := min(d/2, len(lines))
		if n == 0 {
			return b.String()
		}
		if 2*n >= len(lines) {
			b.WriteString("\n")
			b.WriteString(strings.TrimRight(content, "\n"))
			return b.String()
		}
		b.WriteString("\nFirst lines:\n")
		b.WriteString(strings.TrimRight(content[lines[0].start:lines[n-1].end], "\n"))
		fmt.Fprintf(&b, "\n… %s omitted …\nLast lines:\n", plural(len(lines)-2*n, "line", "lines"))
		b.WriteString(strings.TrimRight(content[lines[len(lines)-n].start:], "\n"))
		return b.String()
	}
}
