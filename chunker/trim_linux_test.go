//go:build linux && cgo

package chunker

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// rssAnon is the process's anonymous resident memory in bytes.
func rssAnon(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no RssAnon in /proc/self/status")
	return 0
}

// TestTrimCReturnsTreeHeap: trees parsed and closed leave their C heap
// resident (glibc keeps it); TrimC gives it back. Without the trim, the
// first pack's index job stacked on it (docs/benchmarks.md, first7).
func TestTrimCReturnsTreeHeap(t *testing.T) {
	var src bytes.Buffer
	src.WriteString("package p\n\n")
	for i := 0; src.Len() < 512<<10; i++ {
		src.WriteString("func f" + strconv.Itoa(i) + "(a, b int) int {\n\tif a > b {\n\t\treturn a - b\n\t}\n\treturn b*a + " + strconv.Itoa(i) + "\n}\n\n")
	}
	g := grammarFor("go")
	// A tree of 512 KB of Go is tens of MB of C heap; parse a few at once so
	// that their nodes fill the arena rather than mmapped blocks.
	var trees []interface{ Close() }
	for range 2 {
		tree, err := g.parse(context.Background(), nil, src.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, tree)
	}
	for _, tr := range trees {
		tr.Close()
	}
	runtime.GC()
	before := rssAnon(t)
	TrimC()
	after := rssAnon(t)
	t.Logf("RssAnon %d → %d KB", before>>10, after>>10)
	if before-after < 8<<20 {
		t.Fatalf("RssAnon %d → %d MB after TrimC: want at least 8 MB returned", before>>20, after>>20)
	}
}
