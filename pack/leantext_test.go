package pack

import (
	"testing"
	"unsafe"

	"github.com/acode-lsp/acode-lsp/budget"
)

// TestLineCount checks lineCount against budget.Text's Lines.
func TestLineCount(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n", "a", "a\n", "a\nb", "a\nb\n", "a\n\n", "\r\n", "x\r\ny\r\n", "\n\nlast"} {
		if got, want := lineCount(s), budget.NewText(s).Lines(); got != want {
			t.Errorf("lineCount(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestReadOnlyBytes checks that the bytes are the string's, uncopied.
func TestReadOnlyBytes(t *testing.T) {
	if b := readOnlyBytes(""); b != nil {
		t.Errorf("readOnlyBytes(\"\") = %v, want nil", b)
	}
	s := "package p\n"
	b := readOnlyBytes(s)
	if string(b) != s || len(b) != len(s) || &b[0] != unsafe.StringData(s) {
		t.Errorf("readOnlyBytes(%q) = %q, not the string's bytes", s, b)
	}
}
