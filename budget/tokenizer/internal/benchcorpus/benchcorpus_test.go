package benchcorpus

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCorpus(t *testing.T) {
	src, err := GoSource(64 << 10)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		text     string
		min, max int
		contains string
	}{
		{"go", src, 60 << 10, 64 << 10, "package "},
		{"unicode", Unicode(64 << 10), 64 << 10, 65 << 10, "👨‍👩‍👧‍👦"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.text) < tt.min || len(tt.text) > tt.max {
				t.Errorf("len = %d, want %d..%d", len(tt.text), tt.min, tt.max)
			}
			if !utf8.ValidString(tt.text) || !strings.Contains(tt.text, tt.contains) {
				t.Errorf("text is not valid UTF-8 or lacks %q", tt.contains)
			}
		})
	}
	if Unicode(1000) != Unicode(1000) {
		t.Error("Unicode is not deterministic")
	}
}
