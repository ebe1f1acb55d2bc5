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
	fmt.Fprintf(&b, "Category Allocation (used = share of the exact count):\n")
	fmt.Fprintf(&b, "  %-16s %10s %10s %10s %7s\n", "Category", "Allocated", "Used", "Unused", "Fill %")
	var ta, tu int
	for _, c := range budget.Categories {
		cr := bu.Categories[c]
		ta += cr.Allocated
		tu += cr.Used
		fmt.Fprintf(&b, "  %-16s %10s %10s %10s %7s\n", categoryTitles[c], num(cr.Allocated), num(cr.Used), num(max(0, cr.Allocated-cr.Used)), pct(cr.Used, cr.Allocated))
	}
	fmt.Fprintf(&b, "  %-16s %10s %10s %10s %7s\n", "TOTAL", num(ta), num(tu), num(max(0, ta-tu)), pct(tu, ta))
	for _, c := range budget.Categories {
		if cr := bu.Categories[c]; cr.Used > cr.Allocated {
			fmt.Fprintf(&b, "  (%s used %s tokens left unused by other categories: redistribute)\n", categoryTitles[c], num(cr.Used-cr.Allocated))
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Packed context: %s tokens, exact recount of the final text (%s of available)\n\n", num(r.TokenCount), pct(r.TokenCount, bu.Available))
	d := r.Dedup
	fmt.Fprintf(&b, "Deduplication Savings:\n  Exact Duplicates Removed:  %d chunks\n  Overlapping Chunks Merged: %d chunks\n  Total Savings: %s tokens\n\n", d.ExactRemoved, d.OverlapsMerged, num(d.TokensSaved))
	s := r.Stats
	fmt.Fprintf(&b, "Chunks:\n  Sources: %d   Chunks considered: %d   After dedup: %d   Selected: %d   Rejected: %d\n\n", s.Sources, s.Chunks, s.Candidates, s.Selected, s.Rejected)
	reasons := map[string]int{}
	for _, x := range r.Excluded {
		reasons[x.Reason]++
	}
	if len(reasons) > 0 {
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("Excluded:\n")
		for _, k := range keys {
			fmt.Fprintf(&b, "  %-18s %d\n", k, reasons[k])
		}
		for _, x := range r.Excluded {
			if x.Reason != "over_budget" && x.Reason != "duplicate" && x.Reason != "merged" {
				fmt.Fprintf(&b, "    %s %s: %s\n", x.Reason, x.Path, x.Detail)
			}
		}
		b.WriteString("\n")
	}
	if c := s.Cache; c != nil {
		fmt.Fprintf(&b, "Token Count Cache:\n  Hits: %d   Misses: %d   Evictions: %d   Entries: %d of %d\n\n", c.Hits, c.Misses, c.Evictions, c.Size, c.Capacity)
	}
	if len(s.Timings) > 0 {
		b.WriteString("Performance:\n")
		var total time.Duration
		for _, t := range s.Timings {
			total += t.Duration
			fmt.Fprintf(&b, "  %-14s %s\n", t.Stage+":", ms(t.Duration))
		}
		fmt.Fprintf(&b, "  %-14s %s\n", "Total:", ms(total))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\nWarning: %s", w)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\n")
	}
	return b.String()
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
