package pack

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/acode-lsp/acode-lsp/budget/tokenizer"
	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
	"github.com/acode-lsp/acode-lsp/internal/errcode"
)

// agentWorkspace writes a small workspace and returns an engine on it.
func agentWorkspace(t *testing.T) *Engine {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"cart/service.go":      "package cart\n\n// Checkout fails for empty carts.\nfunc Checkout(items []string) error {\n\tif len(items) == 0 {\n\t\treturn errEmpty\n\t}\n\treturn nil\n}\n",
		"cart/service_test.go": "package cart\n\nfunc TestCheckout(t *testing.T) {}\n",
		"docs/readme.md":       "# Cart\n\nThe cart service checks out items.\n",
		"main.go":              "package main\n\nfunc main() {}\n",
		".env":                 "API_KEY=sk-live-0123456789abcdef\n",
	}
	for name, text := range files {
		writeFile(t, filepath.Join(root, name), []byte(text))
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(config.Default(), ws)
}

func TestIncludeGlobs(t *testing.T) {
	e := agentWorkspace(t)
	tests := []struct {
		name  string
		globs []string
		want  []string // included paths
		field string   // ParamError field, when an error is expected
	}{
		{name: "all go files", globs: []string{"**/*.go"}, want: []string{"cart/service.go", "cart/service_test.go", "main.go"}},
		{name: "one directory", globs: []string{"cart/**"}, want: []string{"cart/service.go", "cart/service_test.go"}},
		{name: "top level only", globs: []string{"*.go"}, want: []string{"main.go"}},
		{name: "two globs", globs: []string{"docs/*.md", "main.go"}, want: []string{"docs/readme.md", "main.go"}},
		{name: "leading ./", globs: []string{"./main.go"}, want: []string{"main.go"}},
		{name: "absolute", globs: []string{"/etc/*"}, field: "paths[0]"},
		{name: "parent", globs: []string{"**/*.go", "../x/*.go"}, field: "paths[1]"},
		{name: "invalid", globs: []string{"cart/[a"}, field: "paths[0]"},
		{name: "empty", globs: []string{" "}, field: "paths[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Pack(context.Background(), Request{Query: "checkout", Include: tc.globs}, nil, nil)
			if tc.field != "" {
				var pe *ParamError
				if !errors.As(err, &pe) || pe.Field != tc.field {
					t.Fatalf("err = %v, want a ParamError for %s", err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			var got []string
			for _, it := range res.Included {
				if !seen[it.Path] {
					seen[it.Path] = true
					got = append(got, it.Path)
				}
			}
			for _, x := range res.Excluded {
				if x.Path == ".env" {
					t.Errorf(".env excluded by a glob that does not match it: %+v", x)
				}
			}
			if diff := cmp.Diff(tc.want, sorted(got)); diff != "" {
				t.Errorf("included paths (-want +got):\n%s", diff)
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestPreviewMatchesPack(t *testing.T) {
	e := agentWorkspace(t)
	for _, total := range []int{60, 120, 400, 4000} {
		req := Request{Query: "checkout empty carts", Include: []string{"**"}, Budget: &config.BudgetOverrides{TotalTokens: intp(total), SystemReserve: intp(0), ResponseReserve: intp(0)}}
		pv, err := e.Preview(context.Background(), req, nil)
		if err != nil {
			t.Fatalf("budget %d: preview: %v", total, err)
		}
		res, err := e.Pack(context.Background(), req, nil, nil)
		if err != nil {
			t.Fatalf("budget %d: pack: %v", total, err)
		}
		if pv.EstimatedTokens > pv.Budget.Available {
			t.Errorf("budget %d: estimatedTokens %d > available %d", total, pv.EstimatedTokens, pv.Budget.Available)
		}
		// Every item has the pack's shape, and the preview is the pack's
		// selection exactly at every budget (the preview runs the exact
		// recount, re-selection and drop too: docs/design.md
		// "acode/previewContext").
		for _, it := range pv.Included {
			if it.Path == "" || it.StartLine < 1 || it.EndLine < it.StartLine || it.Tokens <= 0 || it.Reason != "" {
				t.Errorf("budget %d: preview item %+v", total, it)
			}
		}
		if diff := cmp.Diff(pv.Included, res.Included); diff != "" {
			t.Errorf("budget %d: included (-preview +pack):\n%s", total, diff)
		}
		if pv.EstimatedTokens != res.TokenCount {
			t.Errorf("budget %d: estimatedTokens %d, tokenCount %d", total, pv.EstimatedTokens, res.TokenCount)
		}
		if pv.Budget.Available != res.Budget.Available || pv.Encoding != res.Encoding {
			t.Errorf("budget %d: preview budget/encoding differ from the pack's", total)
		}
		var secret bool
		for _, x := range pv.Excluded {
			secret = secret || x.Path == ".env" && x.Reason == "secret"
		}
		if !secret {
			t.Errorf("budget %d: .env not excluded as secret in the preview: %+v", total, pv.Excluded)
		}
	}
}

func TestRecorder(t *testing.T) {
	var r Recorder
	if got := r.Snapshot(); got.Packs != 0 || got.Tokens.Utilization != 0 || got.Cache.HitRate != 0 {
		t.Fatalf("empty recorder: %+v", got)
	}
	for i := 1; i <= 100; i++ {
		res := &Result{TokenCount: 90, Budget: BudgetResult{Available: 100}, Included: make([]Entry, 2), Stats: Stats{Chunks: 5}}
		res.Dedup.ExactRemoved, res.Dedup.TokensSaved = 1, 10
		r.Record(res, time.Duration(i)*time.Millisecond, nil)
	}
	r.Record(nil, time.Second, &Error{Code: errcode.NoContent})
	r.Record(nil, time.Second, context.Canceled)
	got := r.Snapshot(tokenizer.CacheStats{Hits: 3, Misses: 1, Evictions: 2, Size: 7}, tokenizer.CacheStats{Hits: 5, Misses: 1, Size: 1})
	want := PackStats{
		Packs: 100, Failed: 1,
		LatencyMs: LatencyMs{P50: 50, P95: 95, Max: 100},
		Chunks:    ChunkStats{Considered: 500, Included: 200},
		Tokens:    TokenStats{Packed: 9000, Available: 10000, Utilization: 0.9},
		Cache:     CacheSummary{Hits: 8, Misses: 2, Evictions: 2, Entries: 8, HitRate: 0.8},
	}
	want.Dedup.ExactRemoved, want.Dedup.TokensSaved = 100, 1000
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
}

// TestDecisionLog checks the debug log of a pack: stages with timings and
// every chunk's decision with its score factors, never content.
func TestDecisionLog(t *testing.T) {
	e := agentWorkspace(t)
	core, logs := observer.New(zapcore.DebugLevel)
	ctx := WithLogger(context.Background(), zap.New(core).With(zap.String("request", "r-7")))
	req := Request{Query: "checkout", Include: []string{"**"}, Budget: &config.BudgetOverrides{TotalTokens: intp(80), SystemReserve: intp(0), ResponseReserve: intp(0)}}
	if _, err := e.Pack(ctx, req, nil, nil); err != nil {
		t.Fatal(err)
	}
	var stages, included, excluded int
	for _, entry := range logs.All() {
		fields := entry.ContextMap()
		if fields["request"] != "r-7" {
			t.Errorf("log line %q has no request id: %v", entry.Message, fields)
		}
		for k, v := range fields {
			if s, ok := v.(string); ok && (strings.Contains(s, "errEmpty") || strings.Contains(s, "sk-live")) {
				t.Errorf("log line %q field %s holds content: %q", entry.Message, k, s)
			}
		}
		switch entry.Message {
		case "pack stages":
			stages++
			for _, k := range []string{"collect", "chunk+count", "rank", "dedup", "select", "format+verify"} {
				if _, ok := fields[k]; !ok {
					t.Errorf("pack stages without %s: %v", k, fields)
				}
			}
		case "chunk included", "chunk excluded":
			for _, k := range []string{"path", "relevance", "recency", "priority", "score"} {
				if _, ok := fields[k]; !ok {
					t.Errorf("%s without %s: %v", entry.Message, k, fields)
				}
			}
			if entry.Message == "chunk included" {
				included++
			} else {
				excluded++
			}
		}
	}
	if stages != 1 || included == 0 || excluded == 0 {
		t.Errorf("stages %d, included %d, excluded %d log lines; want 1, >0, >0", stages, included, excluded)
	}

	// A failure is logged at error level with the request id.
	logs.TakeAll()
	_, err := e.Pack(ctx, Request{Include: []string{"nothing/**"}}, nil, nil)
	var de *Error
	if !errors.As(err, &de) || de.Code != errcode.NoContent {
		t.Fatalf("err = %v, want %s", err, errcode.NoContent)
	}
	failed := logs.FilterMessage("pack failed").All()
	if len(failed) != 1 || failed[0].Level != zapcore.ErrorLevel || failed[0].ContextMap()["request"] != "r-7" || failed[0].ContextMap()["code"] != string(errcode.NoContent) {
		t.Errorf("failure log = %+v", failed)
	}
}
