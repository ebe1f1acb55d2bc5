package collector

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkProgress: under WithProgress a walk reports after each file, the
// counts growing to the files met and the bytes gathered.
func TestWalkProgress(t *testing.T) {
	root := t.TempDir()
	var want int64
	for i := 0; i < 30; i++ {
		text := fmt.Sprintf("package p\n\n// file %d\n", i)
		want += int64(len(text))
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.go", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := New(Options{Roots: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	var calls, lastFiles int
	var lastBytes int64
	ctx := WithProgress(context.Background(), func(files int, bytes int64) {
		if files < lastFiles || bytes < lastBytes {
			t.Errorf("progress went back: %d files %d bytes after %d, %d", files, bytes, lastFiles, lastBytes)
		}
		calls, lastFiles, lastBytes = calls+1, files, bytes
	})
	srcs, _, err := ws.Walk(ctx, OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(srcs) || lastFiles != 30 || lastBytes != want {
		t.Errorf("%d reports, last %d files %d bytes; want %d reports, 30 files, %d bytes", calls, lastFiles, lastBytes, len(srcs), want)
	}
}
