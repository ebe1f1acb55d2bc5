package collector

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
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
	files, excl, err := w.Walk(ctx, SearchResult)
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
		m := 0
		for _, loc := range re.FindAllStringIndex(line, -1) {
			if loc[1] > loc[0] {
				m++
			}
		}
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
