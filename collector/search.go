package collector

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
)

// DefaultMaxResults caps the sources of a search when maxResults is 0.
const DefaultMaxResults = 50

// Search finds pattern in the files a Walk of all roots lets in and returns
// one search_result source per cluster of matching lines, with the
// exclusions of the walk. pattern is literal unless regex is true (RE2
// syntax, matched line by line); a literal pattern without upper-case
// letters matches case-insensitively (smart case). A cluster is the matching
// lines whose windows of ±contextLines overlap or touch; the source spans the
// merged window (StartLine-EndLine) and carries the whole file as Content.
//
// Relevance is the match density of the cluster:
//
//	relevance = 0.5·(1 − 1/(1+m)) + 0.5·(k/L)
//
// with m the matches in the cluster, k its matching lines and L the lines of
// its window. It lies in (0.25, 1): more matches and denser windows rank
// higher. Sources come in order of relevance (descending), then path and
// start line, capped at maxResults (0 means DefaultMaxResults).
func (w *Workspace) Search(ctx context.Context, pattern string, regex bool, maxResults int, contextLines int) ([]Source, []Exclusion, error) {
	return w.SearchIndexed(ctx, nil, pattern, regex, maxResults, contextLines)
}

// SearchIndexed is [Workspace.Search] with an index of the files' words
// (nil: none): a listed file the index knows, at its listed stat, to hold
// none of the words every match of the pattern must contain is not read.
// Files the index cannot answer for (not indexed, changed since, refused
// for redaction, open in the editor) are read as Search reads them, and
// handed to the index to learn. The result is Search's: the same sources
// in the same order, the same exclusions, the same walk limit (on the
// text kept: searchWalk).
func (w *Workspace) SearchIndexed(ctx context.Context, idx SearchIndex, pattern string, regex bool, maxResults int, contextLines int) ([]Source, []Exclusion, error) {
	re, err := compileSearch(pattern, regex)
	if err != nil {
		return nil, nil, err
	}
	if maxResults <= 0 {
		maxResults = DefaultMaxResults
	}
	if contextLines < 0 {
		contextLines = 0
	}
	whole := anchorFree(re)
	files, excl, err := w.searchWalk(ctx, idx, re, whole)
	if err != nil {
		return nil, nil, err
	}
	results := []Source{}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("collector: search: %w", err)
		}
		results = append(results, clusters(ctx, f, re, contextLines)...)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("collector: search: %w", err)
	}
	sort.SliceStable(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if *a.Relevance != *b.Relevance {
			return *a.Relevance > *b.Relevance
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.StartLine < b.StartLine
	})
	if len(results) > maxResults {
		results = results[:maxResults]
	}
	return results, excl, nil
}

// searchWalk returns the files a search keeps and the exclusions of the
// walk: every listed file the index (if any) cannot rule out is read, and
// kept only when it can give a result (keeps): the whole expression
// matches it when it is anchor-free (whole), or one of its lines does.
// The walk's limit counts the text kept, not the text scanned and let go,
// so a search of a tree larger than MaxWalkBytes works as a query walk
// does (docs/security.md "Limits"), and with or without an index the same
// files are kept and the same limit applies: a file the index rules out
// holds no match.
func (w *Workspace) searchWalk(ctx context.Context, idx SearchIndex, re *regexp.Regexp, whole bool) ([]Source, []Exclusion, error) {
	filter := searchFilter(idx, re)
	if filter == nil {
		filter = func(FileRef) (bool, bool) { return false, true } // read every file, learn none
	}
	keeps := func(s *Source) bool {
		if whole {
			return re.MatchString(s.Content)
		}
		return lineMatches(re, s.Content)
	}
	return w.walkFiltered(ctx, idx, filter, keeps)
}

// lineMatches reports whether one of text's lines gives clusters a
// match.
func lineMatches(re *regexp.Regexp, text string) bool {
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		if lineHits(re, line) > 0 {
			return true
		}
		text = rest
	}
	return false
}

// lineHits counts re's non-empty matches in line.
func lineHits(re *regexp.Regexp, line string) int {
	m := 0
	for _, loc := range re.FindAllStringIndex(line, -1) {
		if loc[1] > loc[0] {
			m++
		}
	}
	return m
}

// compileSearch turns the search pattern into a regular expression.
func compileSearch(pattern string, regex bool) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, errors.New("collector: search: empty pattern")
	}
	expr := pattern
	if !regex {
		expr = regexp.QuoteMeta(pattern)
		if strings.IndexFunc(pattern, unicode.IsUpper) < 0 {
			expr = "(?i)" + expr
		}
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("collector: search pattern: %w", err)
	}
	return re, nil
}

// clusters returns the search sources of one file; it stops early (the
// caller checks ctx) when ctx ends, checked every 1024 lines.
func clusters(ctx context.Context, f Source, re *regexp.Regexp, ctxLines int) []Source {
	lines := strings.Split(f.Content, "\n")
	if n := len(lines); n > 1 && lines[n-1] == "" {
		lines = lines[:n-1] // the newline ending the last line
	}
	var out []Source
	var cur *cluster
	emit := func() {
		if cur == nil {
			return
		}
		s := f
		s.Type = SearchResult
		s.StartLine, s.EndLine = cur.start, cur.end
		rel := cur.relevance()
		s.Relevance = &rel
		out = append(out, s)
		cur = nil
	}
	for i, line := range lines {
		if i%1024 == 1023 && ctx.Err() != nil {
			return nil
		}
		m := lineHits(re, line)
		if m == 0 {
			continue
		}
		n := i + 1
		start, end := max(1, n-ctxLines), min(len(lines), n+ctxLines)
		if cur != nil && start > cur.end+1 {
			emit()
		}
		if cur == nil {
			cur = &cluster{start: start}
		}
		cur.end = end
		cur.matches += m
		cur.lines++
	}
	emit()
	return out
}

// cluster is a run of matching lines with their context window.
type cluster struct {
	start, end     int // 1-based window, inclusive
	matches, lines int // matches and matching lines inside
}

// relevance is the density formula documented on Search.
func (c *cluster) relevance() float64 {
	window := float64(c.end - c.start + 1)
	return 0.5*(1-1/(1+float64(c.matches))) + 0.5*float64(c.lines)/window
}

// anchorFree reports whether re has no line or text anchor (^, $, \A,
// \z): then a line of a text matches only if the text matches (the text's
// newlines stand where a line ends, which \b, \B and . see alike), and a
// file the whole expression misses is not split into lines.
func anchorFree(re *regexp.Regexp) bool {
	syn, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return false
	}
	var free func(*syntax.Regexp) bool
	free = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
			return false
		}
		for _, sub := range r.Sub {
			if !free(sub) {
				return false
			}
		}
		return true
	}
	return free(syn)
}

// SearchIndex is an index of the words of the workspace's files that a
// search asks which files cannot match (package index; the language server
// wraps it).
type SearchIndex interface {
	// SearchFilter returns, for a search's expression (parsed as
	// regexp.Compile parses it), a test of a listed file: known false when
	// the index cannot answer for the file as listed (not indexed, changed
	// since, refused); else skip reports that the file holds none of the
	// words every match must contain. SearchFilter returns nil when no word
	// is certain to be in every match.
	SearchFilter(re *syntax.Regexp) func(f FileRef) (skip, known bool)
	// Learn gives the index the text of a file the search read, as read
	// (redaction changed nothing in it), when the filter could not answer
	// for it: the next search need not read it.
	Learn(f FileRef, text string)
}

// searchFilter is idx's filter for re, nil when there is none.
func searchFilter(idx SearchIndex, re *regexp.Regexp) func(FileRef) (bool, bool) {
	if idx == nil {
		return nil
	}
	syn, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	return idx.SearchFilter(syn.Simplify())
}

// walkFiltered is [Workspace.Walk] of every root for a search that skips
// the files filter rules out: such a file goes through every rule that
// needs no content (as Workspace.Admitted: its exclusion when one
// applies, a read when the editor has it open) and is not read; the index's entry
// for its stat proves that its content passed the content rules. The
// others are read as Walk reads them; those the filter could not answer
// for are handed to idx.Learn; only those match accepts are kept (a
// search holds the text of the files it matches, not of every file), and
// only their text counts towards MaxWalkBytes (a file skipped or let go
// is not held). Progress counts every file met and the text kept.
func (w *Workspace) walkFiltered(ctx context.Context, idx SearchIndex, filter func(FileRef) (bool, bool), match func(*Source) bool) ([]Source, []Exclusion, error) {
	refs, excl, err := w.List(ctx, SearchResult)
	if err != nil {
		return nil, nil, err
	}
	report := progressOf(ctx)
	sources := []Source{}
	var held int64 // the text kept
	const batch = 256
	out := make([]filtered, min(batch, len(refs)))
	for lo := 0; lo < len(refs); lo += batch {
		part := refs[lo:min(lo+batch, len(refs))]
		// In parallel within a batch; gathered in the walk's order, so
		// that at most one batch of text is read past the limit.
		inParallel(len(part), func(i int) { out[i] = w.filterOne(ctx, idx, filter, match, part[i]) })
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("collector: walk: %w", err)
		}
		for i := range part {
			o := &out[i]
			switch {
			case o.x != nil:
				excl = append(excl, *o.x)
			case o.read:
				sources = append(sources, o.src)
				held += int64(len(o.src.Content))
			}
			*o = filtered{}
			if report != nil {
				report(lo+i+1, held) // files met, text gathered (WithProgress)
			}
			if held > MaxWalkBytes {
				return nil, nil, &WalkLimitError{Max: MaxWalkBytes, Size: held}
			}
		}
	}
	sortExclusions(excl)
	return sources, excl, nil
}

// filtered is what a filtered search made of one listed file: its
// exclusion, its source (read and kept), or nothing (a file skipped, or
// read and let go).
type filtered struct {
	x    *Exclusion
	src  Source
	read bool
}

// filterOne is one file of walkFiltered.
func (w *Workspace) filterOne(ctx context.Context, idx SearchIndex, filter func(FileRef) (bool, bool), match func(*Source) bool, f FileRef) filtered {
	if ctx.Err() != nil {
		return filtered{}
	}
	skip, known := filter(f)
	if skip && f.Info != nil {
		rel := f.rel
		if rel == "" {
			rel = f.Path
		}
		// What Admitted would say, without the display path.
		_, _, open, x := w.precheck(SearchResult, f.Abs, rel, f.Info, nil, f.alias, nil)
		if x != nil {
			return filtered{x: x}
		}
		if !open {
			return filtered{} // ruled out, not read
		}
	}
	s, x := w.ReadRef(ctx, SearchResult, f)
	if x != nil {
		return filtered{x: x}
	}
	if !known {
		w.learn(idx, f, s)
	}
	if !match(&s) {
		return filtered{} // read, and let go
	}
	return filtered{src: s, read: true}
}

// inParallel runs fn(0..n-1) on a few goroutines and waits for them.
func inParallel(n int, fn func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0), 4)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// learn hands idx the text of f that a search read, when it is the file's
// text at its listed stat: not the editor's, not redacted, not a newer
// version read after the listing went stale.
func (w *Workspace) learn(idx SearchIndex, f FileRef, s Source) {
	if s.Redactions != 0 || f.Info == nil || !s.Timestamp.Equal(f.Info.ModTime()) {
		return
	}
	if n, size := int64(len(s.Content)), f.Info.Size(); n != size && n != size-int64(len("\ufeff")) {
		return
	}
	if _, _, open := w.openOverlay(f.Abs, f.alias); open {
		return
	}
	idx.Learn(f, s.Content)
}
