package collector

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestClustersCancelled: searching a long file stops when the context
// ends (issue 24: a cancelled pack returns within 100 ms).
func TestClustersCancelled(t *testing.T) {
	f := Source{Type: OpenFile, Path: "big.go", Content: strings.Repeat("checkout(cart)\n\n\n", 3000)}
	re := regexp.MustCompile("checkout")
	if got := clusters(context.Background(), f, re, 0); len(got) != 3000 {
		t.Fatalf("clusters: %d sources, want 3000", len(got))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := clusters(ctx, f, re, 0); got != nil {
		t.Errorf("clusters after a cancel: %d sources, want none", len(got))
	}
}
