package pack

import (
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
)

// countingTok is o200k_base counting the texts it is asked to count.
type countingTok struct {
	tokenizer.Tokenizer
	calls *atomic.Int64
}

func (c countingTok) Count(text string) int {
	c.calls.Add(1)
	return c.Tokenizer.Count(text)
}

// TestMapPlanCountsNothing: a map answered from its plan counts no text —
// the plan's count is its text's, whose keyed hash it checks — so its
// process never builds the tokenizer's tables; its result (text, count,
// budget by category, entries) is the full map's.
func TestMapPlanCountsNothing(t *testing.T) {
	root := planTree(t, 40)
	idx := newMemPlans()
	req := planRequest(root, 2500)
	want := packText(t, planEngine(t, root, idx), req)
	base, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	e := planEngine(t, root, idx)
	e.Tokenizers = tokenizer.NewRegistry()
	e.Tokenizers.Add(countingTok{base, &calls}, 0)
	reads := countReads(t)
	got := packText(t, e, req)
	if len(reads) == 0 {
		t.Fatal("the warm map was not answered from its plan")
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("the planned map counted %d texts, want none", n)
	}
	if got.Content != want.Content || got.TokenCount != want.TokenCount || !reflect.DeepEqual(got.Budget, want.Budget) || !slices.Equal(got.Included, want.Included) {
		t.Errorf("the planned map differs from the full one: %d/%d tokens, budget %+v / %+v", got.TokenCount, want.TokenCount, got.Budget, want.Budget)
	}
}

// TestUsedByCategoryOneCategory: when every kept chunk is of one
// category, the shortcut gives what apportioning the estimates gives.
func TestUsedByCategoryOneCategory(t *testing.T) {
	tok, err := tokenizer.ForEncoding(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	for _, cat := range []string{"open_files", "references", "search_results", "tool_results"} {
		for _, n := range []int{1, 2, 7} {
			var kept []*budget.Item
			for i := range n {
				kept = append(kept, &budget.Item{Path: []string{"a.go", "b/c.go", ""}[i%3], Category: cat, Tokens: 10 * i})
			}
			f := newFormatter(tok.Count)
			est, total := map[string]int{}, 0
			seen := map[string]bool{}
			for _, it := range kept {
				c := it.Tokens + f.overhead(it, it.Path == "" || !seen[it.Path])
				seen[it.Path] = true
				est[it.Category] += c
				total += c
			}
			for _, tokens := range []int{0, 1, 999} {
				want := apportion(tokens, est, total)
				if got := usedByCategory(tokens, kept, newFormatter(tok.Count)); !reflect.DeepEqual(got, want) {
					t.Errorf("%s, %d chunks, %d tokens: %v, want %v", cat, n, tokens, got, want)
				}
			}
		}
	}
}
