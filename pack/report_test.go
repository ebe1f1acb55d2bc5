package pack

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// reportResult is a pack as a big tree with a --reference gives it: a
// category that borrowed, many binary files met by both the walk and the
// search, a duplicate file, and a reference folded into its open file.
// Walked files read "file", the editor's open document "open file".
func reportResult() *Result {
	r := &Result{Model: "gpt-4o", Encoding: "o200k_base", Exact: true, TokenCount: 1990,
		Budget: BudgetResult{Total: 6000, SystemReserve: 1000, ResponseReserve: 3000, Available: 2000, Categories: map[string]CategoryResult{
			budget.ToolResults: {Allocated: 800}, budget.OpenFiles: {Allocated: 600, Used: 1966},
			budget.SearchResults: {Allocated: 400, Used: 24}, budget.References: {Allocated: 200},
		}},
		Included: []Entry{
			{Type: "open_file", Origin: OriginWorkspace, Path: "cart/model.go", StartLine: 1, EndLine: 20},
			{Type: "open_file", Origin: OriginEditor, Path: "cart/service.go", StartLine: 10, EndLine: 32},
			{Type: "search_result", Path: "cart/service.go", StartLine: 33, EndLine: 43},
		},
		Stats: Stats{Sources: 40, Chunks: 12, Candidates: 9, Selected: 3, Rejected: 115},
	}
	for i := 0; i < 25; i++ {
		for _, typ := range []string{"open_file", "search_result"} { // the walk and the search
			r.Excluded = append(r.Excluded, Entry{Type: typ, Path: fmt.Sprintf("assets/img%02d.png", i), Reason: "binary", Detail: "NUL byte in the first 8 KB"})
		}
	}
	r.Excluded = append(r.Excluded,
		Entry{Type: "open_file", Path: ".env", Reason: "secret", Detail: "environment file (.env*)"},
		Entry{Type: "open_file", Origin: OriginWorkspace, Path: "legacy/model_copy.go", StartLine: 1, EndLine: 20, Reason: "duplicate", Detail: "same lines as cart/model.go lines 1-20"},
		Entry{Type: "reference", Path: "cart/service.go", StartLine: 10, EndLine: 41, Reason: "merged", Detail: "same lines as cart/service.go lines 10-41"},
		Entry{Type: "open_file", Path: "cart/big.go", StartLine: 1, EndLine: 400, Reason: "over_budget"},
		Entry{Type: "search_result", Path: "cart/big.go", StartLine: 5, EndLine: 9, Reason: "merged", Detail: "same lines as cart/big.go lines 1-400"},
	)
	return r
}

func TestReportReadsRight(t *testing.T) {
	rep := Report(reportResult())
	tests := []struct {
		name  string
		check func(string) string
	}{
		{"no fill above 100%", func(rep string) string {
			for _, m := range regexp.MustCompile(`(\d+)%\n`).FindAllStringSubmatch(rep, -1) {
				if n, _ := strconv.Atoi(m[1]); n > 100 {
					return "a fill of " + m[0]
				}
			}
			return ""
		}},
		{"borrowed shown", want("Open Files              600      1,966          0      1,366    100%")},
		{"unused adds up", want("so TOTAL unused = 1,376 unused by the categories − 1,366 borrowed = 10)")},
		{"not selected within considered", want("Chunks considered: 12   Selected: 3   Not selected: 4 (over budget 1, duplicates 1, merged 2)")},
		{"files counted once", want("Files excluded before chunking: 26")},
		{"binary capped and summarised", want("  binary: 25\n")},
		{"cap", want("    … and 15 more (--json lists every one)\n")},
		{"duplicate named", want("file legacy/model_copy.go 1-20: same lines as cart/model.go 1-20, in the context from file 1-20")},
		{"reference in the context, not merged into itself", want("reference cart/service.go 10-41: in the context, from open file 10-32, search result 33-43")},
		{"merged into a chunk that did not fit", want("search result cart/big.go 5-9: same lines as cart/big.go 5-9, which did not fit the budget")},
		{"no file twice", func(rep string) string {
			seen := map[string]bool{}
			for _, l := range strings.Split(rep, "\n") {
				if strings.HasPrefix(l, "    assets/") {
					if seen[l] {
						return "listed twice: " + l
					}
					seen[l] = true
				}
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if msg := tt.check(rep); msg != "" {
				t.Errorf("%s in:\n%s", msg, rep)
			}
		})
	}
}

func want(s string) func(string) string {
	return func(rep string) string {
		if !strings.Contains(rep, s) {
			return fmt.Sprintf("missing %q", s)
		}
		return ""
	}
}
