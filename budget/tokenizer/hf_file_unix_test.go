//go:build unix

package tokenizer

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestForFileHostile: a FIFO, a link to /dev/zero and an oversized file
// are refused at once.
func TestForFileHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.json")
	os.Symlink("/dev/zero", zero)
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(maxTokenizerFile + 1)
	f.Close()
	for _, p := range []string{fifo, zero, big} {
		withDeadline(t, 10*time.Second, func() {
			if _, err := ForFile(p); err == nil {
				t.Errorf("%s: no error", p)
			}
		})
	}
}
