package pack

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/acode-lsp/acode-lsp/budget"
	"github.com/acode-lsp/acode-lsp/chunker"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestRangesCoding checks that outline ranges survive their varint
// coding, and that a cut coding is refused.
func TestRangesCoding(t *testing.T) {
	for _, rs := range [][]chunker.LineRange{
		nil,
		{{Start: 1, End: 1}},
		{{Start: 3, End: 4}, {Start: 6, End: 9}, {Start: 200, End: 70000}, {Start: 1 << 22, End: 1<<22 + 5}},
	} {
		enc := encodeRanges(rs)
		got, ok := decodeRanges(enc)
		if !ok || !cmp.Equal(got, rs) {
			t.Errorf("decode(encode(%v)) = %v, %v", rs, got, ok)
		}
	}
	enc := encodeRanges([]chunker.LineRange{{Start: 1, End: 300}})
	if _, ok := decodeRanges(enc[:len(enc)-1]); ok {
		t.Errorf("a cut coding decoded")
	}
}

// TestAheadOutlines checks that the outline a cut keeps is what
// chunker.Outline finds in the same text, and that it is given only for
// the same path and text.
func TestAheadOutlines(t *testing.T) {
	path := filepath.Join(runtime.GOROOT(), "src", "net", "http", "cookie.go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, rs, parsed, err := chunker.SplitOutline(ctx, "cookie.go", data, func(s string) int { return len(s) / 4 }, chunker.Options{PreferStructural: true})
	if err != nil || !parsed {
		t.Fatal(parsed, err)
	}
	want, err := chunker.Outline(ctx, "cookie.go", data)
	if err != nil || len(want) == 0 {
		t.Fatal(want, err)
	}
	a := newAheadOutlines()
	a.put("cookie.go", string(data), rs)
	got, ok := a.get("cookie.go", string(data))
	if !ok || !cmp.Equal(got, want) {
		t.Errorf("kept outline %v, %v; want %v", got, ok, want)
	}
	if _, ok := a.get("cookie.go", string(data)+"\n"); ok {
		t.Errorf("outline given for another text")
	}
	if _, ok := a.get("other.go", string(data)); ok {
		t.Errorf("outline given for another path")
	}
}

// TestParseOutlineTakesKept checks that a pack's outline of a file comes
// from what its cut kept for the same text (no second parse: the kept
// ranges here differ from the file's real outline to show it), an empty
// kept outline included, and from a parse for another text.
func TestParseOutlineTakesKept(t *testing.T) {
	src := "package p\n\n// F does.\nfunc F() {\n\treturn\n}\n\n// G does.\nfunc G() {\n\treturn\n}\n"
	real, err := chunker.Outline(context.Background(), "p.go", []byte(src))
	if err != nil || len(real) == 0 {
		t.Fatal(real, err)
	}
	fake := []chunker.LineRange{{Start: 8, End: 9}}
	for _, tt := range []struct {
		name string
		kept []chunker.LineRange
		text string
		want []chunker.LineRange
	}{
		{"kept for this text", fake, src, fake},
		{"kept empty", nil, src, nil},
		{"kept for another text", fake, src + "\n", real},
	} {
		p := &pipeline{e: NewEngine(config.Default(), nil), ctx: context.Background(), ahead: newAheadOutlines()}
		p.ahead.put("p.go", src, tt.kept)
		best := &budget.Item{Path: "p.go", Source: budget.NewText(tt.text)}
		got, err := p.parseOutline(best)
		if err != nil || !cmp.Equal(got, tt.want) {
			t.Errorf("%s: outline %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}
