package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDesignPointers: every *Lives in* pointer of docs/design.md links to a
// file that exists (not only a directory), and every relative link there
// resolves — so the pointers cannot go stale silently.
func TestDesignPointers(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(root, "docs", "design.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	link := regexp.MustCompile(`\]\((\.\./[^)#\s]+)`)
	for _, m := range link.FindAllStringSubmatch(text, -1) {
		if _, err := os.Stat(filepath.Join(root, "docs", filepath.FromSlash(m[1]))); err != nil {
			t.Errorf("docs/design.md links to %s, which does not exist", m[1])
		}
	}
	parts := strings.Split(text, "*Lives in*")
	if len(parts) < 10 {
		t.Fatalf("only %d *Lives in* pointers", len(parts)-1)
	}
	fileLink := regexp.MustCompile(`\]\(\.\./[^)]+\.go\)`)
	for i, p := range parts[1:] {
		head := p
		if j := strings.Index(p, "\n\n"); j >= 0 {
			head = p[:j]
		}
		if !fileLink.MatchString(head) {
			t.Errorf("*Lives in* pointer %d names no file: %.120q", i+1, head)
		}
	}
}
