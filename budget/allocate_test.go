package budget

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAllocate(t *testing.T) {
	tests := []struct {
		name             string
		total, sys, resp int64
		pct              map[string]int
		wantAvail        int64
		wantTokens       map[string]int64
	}{
		{"defaults", 100000, 2000, 8000, nil, 90000, map[string]int64{"tool_results": 36000, "open_files": 27000, "search_results": 18000, "references": 9000}},
		{"seed scenario 2", 10000, 1000, 2000, map[string]int{"tool_results": 50, "open_files": 30, "search_results": 20}, 7000, map[string]int64{"tool_results": 3500, "open_files": 2100, "search_results": 1400, "references": 0}},
		{"remainders go by size", 10, 0, 0, map[string]int{"tool_results": 33, "open_files": 33, "search_results": 34}, 10, map[string]int64{"tool_results": 3, "open_files": 3, "search_results": 4, "references": 0}},
		{"64-bit sums", math.MaxInt64 - 1, 0, 0, map[string]int{"references": 100}, math.MaxInt64 - 1, map[string]int64{"tool_results": 0, "open_files": 0, "search_results": 0, "references": math.MaxInt64 - 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Allocate(tt.total, tt.sys, tt.resp, tt.pct)
			if err != nil {
				t.Fatal(err)
			}
			if got.Available != tt.wantAvail {
				t.Errorf("available = %d, want %d", got.Available, tt.wantAvail)
			}
			if diff := cmp.Diff(tt.wantTokens, got.Tokens); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAllocateErrors(t *testing.T) {
	tests := []struct {
		name             string
		total, sys, resp int64
		pct              map[string]int
		wantKey          string
	}{
		{"zero total", 0, 0, 0, nil, "context.budget.total_tokens"},
		{"reserves eat all", 1000, 500, 500, nil, "context.budget.total_tokens"},
		{"negative sys", 1000, -1, 0, nil, "context.budget.system_prompt_reserve"},
		{"sum 90", 1000, 0, 0, map[string]int{"tool_results": 90}, "context.budget.categories"},
		{"unknown", 1000, 0, 0, map[string]int{"docs": 100}, "context.budget.categories.docs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Allocate(tt.total, tt.sys, tt.resp, tt.pct)
			var be *Error
			if !errors.As(err, &be) {
				t.Fatalf("err = %v", err)
			}
			if be.Problems[0].Key != tt.wantKey || be.Problems[0].Fix == "" {
				t.Errorf("problem = %+v, want key %s with a fix", be.Problems[0], tt.wantKey)
			}
		})
	}
}

func FuzzAllocate(f *testing.F) {
	f.Add(int64(100000), int64(2000), int64(8000), 40, 30, 20, 10)
	f.Add(int64(7), int64(0), int64(0), 33, 33, 33, 1)
	f.Fuzz(func(t *testing.T, total, sys, resp int64, a, b, c, d int) {
		if total > 1<<50 || sys > 1<<50 || resp > 1<<50 {
			return
		}
		got, err := Allocate(total, sys, resp, map[string]int{ToolResults: a, OpenFiles: b, SearchResults: c, References: d})
		if err != nil {
			return
		}
		var sum int64
		for _, v := range got.Tokens {
			if v < 0 {
				t.Fatalf("negative allocation %v", got.Tokens)
			}
			sum += v
		}
		if sum != got.Available || got.Available <= 0 {
			t.Fatalf("sum %d != available %d", sum, got.Available)
		}
	})
}
