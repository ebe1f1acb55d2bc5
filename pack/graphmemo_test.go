package pack

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

// TestMemoGraph: the graph kept for the same chunks is the one kept (not
// rebuilt) and equal to buildGraph's; a chunk whose text, name or path
// changed, one more or one fewer chunk, gives buildGraph's graph of the new
// chunks; an empty path is left out of the key as buildGraph leaves it out.
func TestMemoGraph(t *testing.T) {
	body := strings.Repeat("// padding so that the text is long enough to be remembered\n", 8)
	base := func() []*budget.Item {
		return []*budget.Item{
			{Path: "handler.go", Name: "(*Handler).Serve", Content: "func (h *Handler) Serve() { r := NewResolver(); r.Lookup() }\n" + body},
			{Path: "resolver.go", Name: "NewResolver", Content: "func NewResolver() *Resolver { return &Resolver{} }"},
			{Path: "resolver.go", Name: "(*Resolver).Lookup", Content: "func (r *Resolver) Lookup() {}"},
			{Path: "main.go", Name: "main", Content: "func main() { var h Handler; h.Serve() }"},
		}
	}
	check := func(what string, items []*budget.Item) *refGraph {
		t.Helper()
		got, want := memoGraph(items), buildGraph(items, 0)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the memo's graph differs from buildGraph's", what)
		}
		return got
	}
	first := check("first", base())
	if again := check("same chunks, new items", base()); again != first {
		t.Error("the same chunks built the graph again")
	}
	changes := map[string]func([]*budget.Item) []*budget.Item{
		"text":  func(it []*budget.Item) []*budget.Item { it[3].Content = "func main() { NewResolver() }"; return it },
		"name":  func(it []*budget.Item) []*budget.Item { it[1].Name = "Lookup"; return it },
		"path":  func(it []*budget.Item) []*budget.Item { it[2].Path = "lookup.go"; return it },
		"fewer": func(it []*budget.Item) []*budget.Item { return it[:3] },
		"more": func(it []*budget.Item) []*budget.Item {
			return append(it, &budget.Item{Path: "x.go", Name: "Extra", Content: "func Extra() { Serve() }"})
		},
		"swapped": func(it []*budget.Item) []*budget.Item { it[0], it[3] = it[3], it[0]; return it },
	}
	for what, change := range changes {
		memoGraph(base()) // kept: the base graph
		if g := check(what, change(base())); g == first {
			t.Errorf("%s: the kept graph was given for other chunks", what)
		}
	}
	withTool := append(base(), &budget.Item{Content: "tool output naming Serve"})
	memoGraph(base())
	check("a chunk without a path", withTool)
}

// TestMemoGraphKeepsFew: graphMemoSize graphs used in turn are each found
// again; one more pushes out the least recently used.
func TestMemoGraphKeepsFew(t *testing.T) {
	sets := make([][]*budget.Item, graphMemoSize+1)
	for i := range sets {
		name := fmt.Sprintf("Serve%d", i)
		sets[i] = []*budget.Item{
			{Path: "a.go", Name: name, Content: "func " + name + "() {}"},
			{Path: "b.go", Name: "main", Content: "func main() { " + name + "() }"},
		}
	}
	var first []*refGraph
	for _, s := range sets[:graphMemoSize] {
		first = append(first, memoGraph(s))
	}
	for round := 0; round < 2; round++ {
		for i, s := range sets[:graphMemoSize] {
			if memoGraph(s) != first[i] {
				t.Fatalf("round %d: graph %d of %d used in turn was built again", round, i, graphMemoSize)
			}
		}
	}
	memoGraph(sets[graphMemoSize]) // pushes out set 0, the least recently used
	if memoGraph(sets[0]) == first[0] {
		t.Error("more graphs than graphMemoSize are kept")
	}
	if !reflect.DeepEqual(memoGraph(sets[0]), buildGraph(sets[0], 0)) {
		t.Error("a graph built again differs from buildGraph's")
	}
}
