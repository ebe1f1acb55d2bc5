package pack

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// amplificationWorkspace is a workspace with one Go file of n functions
// (about 6 lines each) and the engine over it.
func amplificationWorkspace(t testing.TB, n int) (*Engine, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\n// F%d returns %d.\nfunc F%d(x int) int {\n\ty := x * %d\n\treturn y + %d\n}\n", i, i, i, i, i)
	}
	path := filepath.Join(root, "big.go")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(config.Default(), ws), path
}

// references makes n reference sources into path, 30-line ranges spread
// over its lines.
func references(path string, n, lines int) []Source {
	srcs := make([]Source, n)
	for i := range srcs {
		start := 1 + (i*7)%(lines-40)
		srcs[i] = Source{Type: "reference", Path: path, StartLine: start, EndLine: start + 30}
	}
	return srcs
}

// TestReferenceAmplification: thousands of references to one file read it
// once and are coalesced (few sources, bounded work); more than MaxSources
// is a parameter error naming the field and the limit.
func TestReferenceAmplification(t *testing.T) {
	e, path := amplificationWorkspace(t, 2000)
	total := 16000
	zero := 0
	req := Request{Query: "F42", Budget: &config.BudgetOverrides{TotalTokens: &total, SystemReserve: &zero, ResponseReserve: &zero}}

	req.Sources = references(path, 3000, 12000)
	res, err := e.Pack(context.Background(), req, nil, nil)
	if err != nil {
		t.Fatalf("3,000 references: %v", err)
	}
	if res.Stats.Sources > 10 || res.TokenCount > total || len(res.Included) == 0 {
		t.Errorf("3,000 references to one file: %d sources after coalescing, %d tokens, %d included; want ≤ 10 sources, within budget, something included",
			res.Stats.Sources, res.TokenCount, len(res.Included))
	}

	req.Sources = references(path, MaxSources+1, 12000)
	_, err = e.Pack(context.Background(), req, nil, nil)
	var pe *ParamError
	if !errors.As(err, &pe) || pe.Field != "sources" || !strings.Contains(pe.Message, fmt.Sprint(MaxSources)) {
		t.Errorf("%d references: error %v; want a ParamError on sources naming the limit %d", MaxSources+1, err, MaxSources)
	}
}

// TestReadOnce: sources naming one file share one read (one text).
func TestReadOnce(t *testing.T) {
	e, path := amplificationWorkspace(t, 50)
	p := &pipeline{e: e, ctx: context.Background(), req: Request{Sources: references(path, 40, 300)}}
	srcs, err := p.collect(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.reads) != 1 || len(p.charged) != 1 {
		t.Errorf("40 references to one file: %d reads, %d texts charged; want 1 and 1", len(p.reads), len(p.charged))
	}
	for _, s := range srcs[1:] {
		if keyOf(s.Content) != keyOf(srcs[0].Content) {
			t.Fatalf("sources of one file do not share its text")
		}
	}
}

func TestRequestLimits(t *testing.T) {
	e, path := amplificationWorkspace(t, 200)
	saved, savedWalk := limits, collector.MaxWalkBytes
	t.Cleanup(func() { limits, collector.MaxWalkBytes = saved, savedWalk })
	total := 16000
	req := Request{Budget: &config.BudgetOverrides{TotalTokens: &total}}
	tests := []struct {
		name  string
		set   func()
		srcs  []Source
		limit string
	}{
		{name: "bytes read", set: func() { limits.bytes = 1000 }, srcs: references(path, 2, 1000), limit: "maxBytesRead"},
		{name: "inline content counts", set: func() { limits.bytes = 1000 }, srcs: []Source{{Type: "tool_result", Label: "log", Content: ptr(strings.Repeat("line\n", 400))}}, limit: "maxBytesRead"},
		{name: "walk", set: func() { collector.MaxWalkBytes = 1000 }, srcs: nil, limit: "maxBytesRead"},
		{name: "candidates", set: func() { limits.candidates = 3 }, srcs: []Source{{Type: "open_file", Path: path}}, limit: "maxCandidates"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			limits, collector.MaxWalkBytes = saved, savedWalk
			tt.set()
			req.Sources, req.Paths = tt.srcs, nil
			if tt.srcs == nil {
				req.Paths = []string{filepath.Dir(path)}
			}
			_, err := e.Pack(context.Background(), req, nil, nil)
			var de *Error
			if !errors.As(err, &de) || de.Code != errcode.PackFailed || de.Data["limit"] != tt.limit || !strings.Contains(de.Message, tt.limit) {
				t.Errorf("error %v; want %s naming %s", err, errcode.PackFailed, tt.limit)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// BenchmarkReferencesOneFile packs n references into one 12,000-line file
// (docs/security.md "Limits" records the peak RSS of the same attack
// through the binary).
func BenchmarkReferencesOneFile(b *testing.B) {
	for _, n := range []int{3000, MaxSources} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e, path := amplificationWorkspace(b, 2000)
			total := 16000
			req := Request{Query: "F42", Budget: &config.BudgetOverrides{TotalTokens: &total}, Sources: references(path, n, 12000)}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := e.Pack(context.Background(), req, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
