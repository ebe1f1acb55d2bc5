package pack

import (
	"testing"

	"github.com/acode-lsp/acode-lsp/budget"
)

func TestGraphFactors(t *testing.T) {
	item := func(path, name, content string) *budget.Item {
		return &budget.Item{Path: path, Name: name, Content: content}
	}
	items := []*budget.Item{
		// the seed uses Resolver (defined in resolver.go) and nothing else
		item("handler.go", "(*Handler).Serve", "func (h *Handler) Serve() { r := NewResolver(); r.Lookup() }"),
		item("resolver.go", "NewResolver", "func NewResolver() *Resolver { return &Resolver{} }"),
		item("resolver.go", "(*Resolver).Lookup", "func (r *Resolver) Lookup() {}"),
		// caller of the seed
		item("main.go", "main", "func main() { var h Handler; h.Serve() }"),
		// unrelated
		item("other.go", "Unrelated", "func Unrelated() { println(1) }"),
	}
	for i, it := range items {
		it.Seq = i
	}
	f := graphFactors(items, map[string]float64{"handler.go": 3, "other.go": 0}, graphWeight)
	if !(f["resolver.go"] > f["main.go"] && f["main.go"] > 1) {
		t.Fatalf("factors = %v: the definer of the seed's names first, then its caller", f)
	}
	if f["other.go"] > 1 {
		t.Fatalf("an unrelated file gained: %v", f)
	}
	if f["resolver.go"] > 1+graphWeight {
		t.Fatalf("factor over its bound: %v", f)
	}
	if graphFactors(items, nil, graphWeight) != nil {
		t.Fatal("no seeds gave factors")
	}
	if graphFactors(items[:1], map[string]float64{"handler.go": 1}, graphWeight) != nil {
		t.Fatal("one file gave factors")
	}
}

func TestIdentifiers(t *testing.T) {
	var got []string
	identifiers("a.b_c(9x, _d2) ü", func(w string) { got = append(got, w) })
	want := []string{"a", "b_c", "x", "_d2"}
	if len(got) != len(want) {
		t.Fatalf("identifiers = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("identifiers = %q, want %q", got, want)
		}
	}
}
