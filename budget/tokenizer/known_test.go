package tokenizer

import (
	"strings"
	"testing"
)

// TestKnownEncoding: every encoding ForEncoding builds is known by name,
// in any case and with spaces around it, and nothing else is (the
// configuration check relies on it instead of building the tables).
func TestKnownEncoding(t *testing.T) {
	for _, name := range Encodings() {
		for _, spelled := range []string{name, " " + name + " ", strings.ToUpper(name)} {
			if !KnownEncoding(spelled) {
				t.Errorf("KnownEncoding(%q) = false, want true", spelled)
			}
		}
	}
	for _, name := range []string{"", "o200k", "gpt-4o", "file:/tmp/tokenizer.json", "cl100k_base2"} {
		if KnownEncoding(name) {
			t.Errorf("KnownEncoding(%q) = true, want false", name)
		}
		if _, err := ForEncoding(name); err == nil && name != "" && !strings.HasPrefix(name, "file:") {
			t.Errorf("ForEncoding(%q) built a tokenizer that KnownEncoding does not know", name)
		}
	}
}
