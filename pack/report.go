package pack

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/acode-lsp/acode-lsp/budget"
)

var categoryTitles = map[string]string{
	budget.ToolResults: "Tool Results", budget.OpenFiles: "Open Files",
	budget.SearchResults: "Search Results", budget.References: "References",
}

// Report renders the human budget report of a pack ("Token Budget Report":
// the budget, categories with allocated/used/fill, dedup savings, chunks
// considered/selected/rejected, exclusions by reason, timings).
func Report(r *Result) string {
	var b strings.Builder
	line := strings.Repeat("═", 62)
	fmt.Fprintf(&b, "Token Budget Report (%s, %s", r.Model, r.Encoding)
	if !r.Exact {
		b.WriteString(", estimated")
	}
	fmt.Fprintf(&b, ")\n%s\n\n", line)
	bu := r.Budget
	fmt.Fprintf(&b, "Budget Configuration:\n  Total Context Window:  %s tokens\n  System Prompt Reserve: %s tokens\n  Response Reserve:      %s tokens\n  Available for Content: %s tokens\n\n",
		num(bu.Total), num(bu.SystemReserve), num(bu.ResponseReserve), num(bu.Available))
	reportCategories(&b, bu)
	fmt.Fprintf(&b, "Packed context: %s tokens, exact recount of the final text (%s of available)\n\n", num(r.TokenCount), pct(r.TokenCount, bu.Available))
	d := r.Dedup
	fmt.Fprintf(&b, "Deduplication Savings:\n  Exact Duplicates Removed:  %s, %s tokens saved\n  Overlapping Lines Merged:  %s merged, %s tokens saved\n  Total Savings: %s tokens\n\n",
		chunkCount(d.ExactRemoved), num(d.ExactTokensSaved), chunkCount(d.OverlapsMerged), num(d.OverlapTokensSaved), num(d.TokensSaved))
	files, chunks := splitExcluded(r.Excluded)
	reportChunks(&b, r.Stats, files, chunks)
	if len(files) > 0 {
		b.WriteString("Excluded files (left out before chunking):\n")
		writeByReason(&b, files, func(x Entry) string { return x.Path + ": " + x.Detail })
		b.WriteString("\n")
	}
	var same []Entry
	for _, x := range chunks {
		if x.Reason == "duplicate" || x.Reason == "merged" {
			same = append(same, x)
		}
	}
	if len(same) > 0 {
		b.WriteString("Duplicates and merges (lines the context already has, or would have):\n")
		writeByReason(&b, same, sameLines(r.Included))
		b.WriteString("\n")
	}
	reportTail(&b, r)
	return b.String()
}

// chunkCount is "1 chunk" or "n chunks".
func chunkCount(n int) string {
	if n == 1 {
		return "1 chunk"
	}
	return fmt.Sprintf("%d chunks", n)
}

// reportCategories writes the allocation table: each category's
// allocation, use, what it left and what it borrowed.
func reportCategories(b *strings.Builder, bu BudgetResult) {
	fmt.Fprintf(b, "Category Allocation (used = share of the exact count):\n")
	fmt.Fprintf(b, "  %-16s %10s %10s %10s %10s %7s\n", "Category", "Allocated", "Used", "Unused", "Borrowed", "Fill %")
	var ta, tu, tb, un int
	for _, c := range budget.Categories {
		cr := bu.Categories[c]
		borrowed := max(0, cr.Used-cr.Allocated)
		ta, tu, tb, un = ta+cr.Allocated, tu+cr.Used, tb+borrowed, un+max(0, cr.Allocated-cr.Used)
		// Fill is of the category's own allocation; what it used beyond
		// that came from other categories' unused share (Borrowed).
		fmt.Fprintf(b, "  %-16s %10s %10s %10s %10s %7s\n", categoryTitles[c], num(cr.Allocated), num(cr.Used),
			num(max(0, cr.Allocated-cr.Used)), dash(borrowed), pct(min(cr.Used, cr.Allocated), cr.Allocated))
	}
	fmt.Fprintf(b, "  %-16s %10s %10s %10s %10s %7s\n", "TOTAL", num(ta), num(tu), num(max(0, ta-tu)), dash(tb), pct(tu, ta))
	if tb > 0 {
		fmt.Fprintf(b, "  (Borrowed: tokens a category used from others' unused allocation, as redistribute allows;\n   so TOTAL unused = %s unused by the categories − %s borrowed = %s)\n", num(un), num(tb), num(max(0, ta-tu)))
	}
	b.WriteString("\n")
}

// reportChunks writes the counts of sources, chunks and what was not
// selected, by reason.
func reportChunks(b *strings.Builder, s Stats, files, chunks []Entry) {
	over, dup, merged := 0, 0, 0
	for _, x := range chunks {
		switch x.Reason {
		case "over_budget":
			over++
		case "duplicate":
			dup++
		case "merged":
			merged++
		}
	}
	fmt.Fprintf(b, "Chunks:\n  Sources: %d   Chunks considered: %d   Selected: %d   Not selected: %d (over budget %d, duplicates %d, merged %d)\n",
		s.Sources, s.Chunks, s.Selected, len(chunks), over, dup, merged)
	fmt.Fprintf(b, "  Files excluded before chunking: %d\n", len(files))
	if s.FilesRanked > s.FilesChunked {
		fmt.Fprintf(b, "  Files ranked by the query's terms: %s   Chunked: %s   Not examined further: %s (%s, ranked below the %s files chunked)\n",
			num(s.FilesRanked), num(s.FilesChunked), num(s.FilesRanked-s.FilesChunked), mb(s.BytesNotExamined), num(s.FilesChunked))
	}
	b.WriteString("\n")
}

// reportTail writes the token-count cache, the timings and the warnings.
func reportTail(b *strings.Builder, r *Result) {
	s := r.Stats
	if c := s.Cache; c != nil {
		fmt.Fprintf(b, "Token Count Cache:\n  Hits: %d   Misses: %d   Evictions: %d   Entries: %d of %d\n\n", c.Hits, c.Misses, c.Evictions, c.Size, c.Capacity)
	}
	if len(s.Timings) > 0 {
		b.WriteString("Performance:\n")
		var total time.Duration
		for _, t := range s.Timings {
			total += t.Duration
			fmt.Fprintf(b, "  %-14s %s\n", t.Stage+":", ms(t.Duration))
		}
		fmt.Fprintf(b, "  %-14s %s\n", "Total:", ms(total))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(b, "\nWarning: %s", w)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n")
	}
}

// reportCap is the number of lines listed per exclusion reason; the rest
// are counted.
const reportCap = 10

// splitExcluded separates files left out before chunking (secret, binary,
// ignored, …) from chunks not selected, listing a file once even when both
// the walk and the search met it.
func splitExcluded(xs []Entry) (files, chunks []Entry) {
	seen := map[string]bool{}
	for _, x := range xs {
		switch x.Reason {
		case "over_budget", "duplicate", "merged":
			chunks = append(chunks, x)
		default:
			key := x.Reason + "\x00" + x.Path
			if !seen[key] {
				seen[key] = true
				files = append(files, x)
			}
		}
	}
	return files, chunks
}

// writeByReason lists items grouped by reason, at most reportCap each.
func writeByReason(b *strings.Builder, xs []Entry, line func(Entry) string) {
	by := map[string][]Entry{}
	for _, x := range xs {
		by[x.Reason] = append(by[x.Reason], x)
	}
	reasons := make([]string, 0, len(by))
	for k := range by {
		reasons = append(reasons, k)
	}
	sort.Strings(reasons)
	for _, k := range reasons {
		fmt.Fprintf(b, "  %s: %d\n", k, len(by[k]))
		for i, x := range by[k] {
			if i == reportCap {
				fmt.Fprintf(b, "    … and %d more (--json lists every one)\n", len(by[k])-reportCap)
				break
			}
			fmt.Fprintf(b, "    %s\n", line(x))
		}
	}
}

// sameLines returns a describer of duplicate and merged chunks that says
// whether their lines are in the context, and from which included chunks.
// A --reference folded into the packed file it points into thus reads
// "in the context, from open file …", not "merged into itself".
func sameLines(included []Entry) func(Entry) string {
	return func(x Entry) string {
		where := fmt.Sprintf("%s %s %d-%d", kindTitle(x), x.Path, x.StartLine, x.EndLine)
		path, from, to, ok := parseSame(x.Detail)
		if !ok {
			return where + ": " + x.Detail
		}
		if x.Reason == "merged" {
			path, from, to = x.Path, x.StartLine, x.EndLine // folded into a chunk of its own file
		}
		covered, parts := coverage(included, path, from, to)
		total := to - from + 1
		switch {
		case covered == total && path == x.Path:
			return fmt.Sprintf("%s: in the context, from %s", where, parts)
		case covered == total:
			return fmt.Sprintf("%s: same lines as %s %d-%d, in the context from %s", where, path, from, to, parts)
		case covered > 0:
			return fmt.Sprintf("%s: %s %d-%d has the same lines; %d of its %d lines are in the context (from %s), the rest did not fit", where, path, from, to, covered, total, parts)
		}
		return fmt.Sprintf("%s: same lines as %s %d-%d, which did not fit the budget", where, path, from, to)
	}
}

// coverage counts the lines from..to of path that included items hold and
// names those items in line order ("file 1-20, search result 33-43").
func coverage(included []Entry, path string, from, to int) (covered int, parts string) {
	for line := from; line <= to; line++ {
		for _, in := range included {
			if in.Path == path && in.StartLine <= line && line <= in.EndLine {
				covered++
				break
			}
		}
	}
	var over []Entry
	for _, in := range included {
		if in.Path == path && in.StartLine <= to && in.EndLine >= from {
			over = append(over, in)
		}
	}
	sort.Slice(over, func(i, j int) bool { return over[i].StartLine < over[j].StartLine })
	names := make([]string, len(over))
	for i, in := range over {
		names[i] = fmt.Sprintf("%s %d-%d", kindTitle(in), in.StartLine, in.EndLine)
	}
	return covered, strings.Join(names, ", ")
}

// parseSame reads "same lines as PATH lines A-B".
func parseSame(detail string) (path string, from, to int, ok bool) {
	rest, ok := strings.CutPrefix(detail, "same lines as ")
	if !ok {
		return "", 0, 0, false
	}
	i := strings.LastIndex(rest, " lines ")
	if i < 0 {
		return "", 0, 0, false
	}
	if _, err := fmt.Sscanf(rest[i+len(" lines "):], "%d-%d", &from, &to); err != nil {
		return "", 0, 0, false
	}
	return rest[:i], from, to, true
}

func dash(n int) string {
	if n == 0 {
		return "-"
	}
	return num(n)
}

func num(n int) string {
	s := fmt.Sprint(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func pct(a, b int) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
