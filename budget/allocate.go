// Package budget holds the token arithmetic of acode-lsp: the budget and its
// category allocation (docs/design.md#rule-2), deduplication (rule 6), selection
// (rule 7), the pack that verifies the final text (rule 3, [Pack]) and the
// budget report. Tokenizers live in the sub-package
// [github.com/acode-lsp/acode-lsp/budget/tokenizer].
//
// Start with [Allocate], which turns a total and two reserves into the
// tokens available for content and splits them between the categories.
package budget

import (
	"fmt"
	"sort"
	"strings"
)

// The four source categories of docs/design.md#rule-2, in their canonical order.
const (
	ToolResults   = "tool_results"
	OpenFiles     = "open_files"
	SearchResults = "search_results"
	References    = "references"
)

// Categories lists the category names in canonical order.
var Categories = []string{ToolResults, OpenFiles, SearchResults, References}

// DefaultPercentages is the default split of the available budget.
var DefaultPercentages = map[string]int{ToolResults: 40, OpenFiles: 30, SearchResults: 20, References: 10}

// Allocation is a budget resolved to token amounts.
type Allocation struct {
	Total           int64
	SystemReserve   int64
	ResponseReserve int64
	// Available is Total − SystemReserve − ResponseReserve, always > 0.
	Available int64
	// Percent is the configured percentage per category (missing ones are 0).
	Percent map[string]int
	// Tokens is the allocated amount per category; the amounts add up to
	// Available exactly (largest-remainder rounding).
	Tokens map[string]int64
}

// Problem is one invalid budget value: which key, what value, which rule it
// breaks and how to fix it.
type Problem struct {
	Key   string // dotted config key, e.g. "context.budget.total_tokens"
	Value string
	Rule  string
	Fix   string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s = %s: %s. Fix: %s", p.Key, p.Value, p.Rule, p.Fix)
}

// Error lists every problem found in a budget.
type Error struct{ Problems []Problem }

func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return "budget: invalid budget: " + strings.Join(parts, "; ")
}

// Allocate validates a budget and computes the allocation per category.
// Percentages must each be within 0..100 and sum to exactly 100; a category
// that is not named gets 0. Unknown category names are rejected. Sums are
// computed in 64 bits.
func Allocate(total, systemReserve, responseReserve int64, percent map[string]int) (Allocation, error) {
	probs := checkTotals(total, systemReserve, responseReserve)
	pct, catProbs := checkPercentages(percent)
	probs = append(probs, catProbs...)
	if len(probs) > 0 {
		return Allocation{}, &Error{Problems: probs}
	}
	if len(percent) == 0 {
		for k, v := range DefaultPercentages {
			pct[k] = v
		}
	}
	for _, c := range Categories {
		if _, ok := pct[c]; !ok {
			pct[c] = 0
		}
	}
	available := total - systemReserve - responseReserve
	return Allocation{
		Total: total, SystemReserve: systemReserve, ResponseReserve: responseReserve,
		Available: available, Percent: pct, Tokens: split(available, pct),
	}, nil
}

// budgetKey prefixes the configuration keys a [Problem] names.
const budgetKey = "context.budget."

// checkTotals returns the problems of the total and the reserves: a
// negative value, or no room left for content.
func checkTotals(total, systemReserve, responseReserve int64) []Problem {
	var probs []Problem
	if total <= 0 {
		probs = append(probs, Problem{budgetKey + "total_tokens", fmt.Sprint(total), "must be a positive number of tokens", "set it to the model's context window, e.g. 128000"})
	}
	if systemReserve < 0 {
		probs = append(probs, Problem{budgetKey + "system_prompt_reserve", fmt.Sprint(systemReserve), "must not be negative", "use 0 or a positive number of tokens"})
	}
	if responseReserve < 0 {
		probs = append(probs, Problem{budgetKey + "response_reserve", fmt.Sprint(responseReserve), "must not be negative", "use 0 or a positive number of tokens"})
	}
	if available := total - systemReserve - responseReserve; len(probs) == 0 && available <= 0 {
		probs = append(probs, Problem{budgetKey + "total_tokens", fmt.Sprint(total),
			fmt.Sprintf("leaves %d tokens for content after the reserves (%d + %d); it must leave more than 0", available, systemReserve, responseReserve),
			fmt.Sprintf("raise total_tokens above %d or lower system_prompt_reserve/response_reserve", systemReserve+responseReserve)})
	}
	return probs
}

// checkPercentages returns the valid category percentages and the problems
// of the others: an unknown category, a value outside 0..100, a sum other
// than 100 (naming the missing categories).
func checkPercentages(percent map[string]int) (map[string]int, []Problem) {
	var probs []Problem
	pct := map[string]int{}
	sum := 0
	names := make([]string, 0, len(percent))
	for k := range percent {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := percent[k]
		if !isCategory(k) {
			probs = append(probs, Problem{budgetKey + "categories." + k, fmt.Sprint(v), "is not a category", "use one of " + strings.Join(Categories, ", ")})
			continue
		}
		if v < 0 || v > 100 {
			probs = append(probs, Problem{budgetKey + "categories." + k, fmt.Sprint(v), "must be a percentage from 0 to 100", "use a whole number from 0 to 100"})
			continue
		}
		pct[k] = v
		sum += v
	}
	if len(percent) == 0 || sum == 100 || hasCategoryProblem(probs) {
		return pct, probs
	}
	var missing []string
	for _, c := range Categories {
		if _, ok := percent[c]; !ok {
			missing = append(missing, c)
		}
	}
	fix := "adjust the percentages so they add up to 100"
	if sum < 100 && len(missing) > 0 {
		fix = fmt.Sprintf("add the missing category (%s) with %d%%, or %s", strings.Join(missing, ", "), 100-sum, fix)
	}
	return pct, append(probs, Problem{budgetKey + "categories", describe(percent), fmt.Sprintf("percentages sum to %d%% (expected 100%%)", sum), fix})
}

// split divides available by the percentages with largest-remainder rounding,
// so that the parts add up to available exactly (ties go to the category
// listed first in [Categories]).
func split(available int64, pct map[string]int) map[string]int64 {
	out := make(map[string]int64, len(Categories))
	type rem struct {
		name string
		r    int64
	}
	var rems []rem
	var used int64
	// available = q·100 + r, so available·p/100 = q·p + r·p/100 without
	// overflowing 64 bits.
	q, r := available/100, available%100
	for _, c := range Categories {
		p := int64(pct[c])
		out[c] = q*p + r*p/100
		used += out[c]
		if p > 0 {
			rems = append(rems, rem{c, r * p % 100})
		}
	}
	sort.SliceStable(rems, func(i, j int) bool { return rems[i].r > rems[j].r })
	for i := 0; used < available && len(rems) > 0; i = (i + 1) % len(rems) {
		out[rems[i].name]++
		used++
	}
	return out
}

func isCategory(name string) bool {
	for _, c := range Categories {
		if c == name {
			return true
		}
	}
	return false
}

func hasCategoryProblem(probs []Problem) bool {
	for _, p := range probs {
		if strings.HasPrefix(p.Key, "context.budget.categories.") {
			return true
		}
	}
	return false
}

func describe(percent map[string]int) string {
	var parts []string
	for _, c := range Categories {
		if v, ok := percent[c]; ok {
			parts = append(parts, fmt.Sprintf("%s: %d", c, v))
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
