package chunker

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestSplitLinesContext: line windows of a long range stop at a cancel
// with the context's error, and are SplitLines's otherwise.
func TestSplitLinesContext(t *testing.T) {
	src := []byte(strings.Repeat("total := checkout(cart) // line\n", 5000))
	count := Counter(func(s string) int { return len(strings.Fields(s)) })
	opts := Options{MaxTokens: 1}
	got, err := SplitLinesContext(context.Background(), src, 1, 5000, count, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := SplitLines(src, 1, 5000, count, opts); !reflect.DeepEqual(got, want) || len(got) != 5000 {
		t.Errorf("SplitLinesContext: %d chunks, SplitLines %d, want the same 5000", len(got), len(want))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := SplitLinesContext(ctx, src, 1, 5000, count, opts); !errors.Is(err, context.Canceled) || got != nil {
		t.Errorf("SplitLinesContext after a cancel: %d chunks, err %v; want none and context.Canceled", len(got), err)
	}
}
