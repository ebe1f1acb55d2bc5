package pack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/acode-lsp/acode-lsp/collector"
	"github.com/acode-lsp/acode-lsp/config"
)

// TestProgressMovesWithTheWork: chunking reports its percentage moving
// with the files (by bytes) done, never backwards, rather than one fixed
// "chunking 30%" for the whole stage (issue 9: 17 s at 30 % on Go's src).
func TestProgressMovesWithTheWork(t *testing.T) {
	root := t.TempDir()
	const files = 60
	for i := 0; i < files; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\n", i)
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&b, "// F%d_%d returns %d.\nfunc F%d_%d() int { return %d }\n\n", i, j, j, i, j, j)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.go", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := collector.New(collector.Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	type rep struct {
		msg string
		pct int
	}
	var mu sync.Mutex
	var reps []rep
	record := func(msg string, pct int) {
		mu.Lock()
		defer mu.Unlock()
		reps = append(reps, rep{msg, pct})
	}
	if _, err := NewEngine(config.Default(), ws).Pack(context.Background(), Request{Paths: []string{root}}, nil, record); err != nil {
		t.Fatal(err)
	}
	chunking := map[int]bool{}
	last := -1
	for _, r := range reps {
		if r.pct < last {
			t.Errorf("progress went back from %d%% to %d%% (%q)", last, r.pct, r.msg)
		}
		last = r.pct
		if strings.HasPrefix(r.msg, "chunking") {
			chunking[r.pct] = true
			if !strings.Contains(r.msg, fmt.Sprintf("of %d files", files)) {
				t.Errorf("chunking report %q does not say how many files", r.msg)
			}
		}
	}
	if len(chunking) < 20 {
		t.Errorf("chunking reported %d distinct percentages over %d files, want the bar to move (≥ 20): %v", len(chunking), files, reps)
	}
	if !chunking[30] || !chunking[60] {
		t.Errorf("chunking must start at 30%% and reach 60%%: %v", chunking)
	}
	if last != 100 {
		t.Errorf("last report %d%%, want 100", last)
	}
	if len(reps) > 4*files {
		t.Errorf("%d reports for %d files: throttle them", len(reps), files)
	}
}
