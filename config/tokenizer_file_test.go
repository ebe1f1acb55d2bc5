package config

import (
	"path/filepath"
	"testing"
)

func TestTokenizerFileIsRelativeToTheConfig(t *testing.T) {
	name := filepath.Join("/ws", ".agent", "config.yml")
	for _, tt := range []struct{ in, want string }{
		{"tok/tokenizer.json", filepath.Join("/ws", ".agent", "tok", "tokenizer.json")},
		{"/abs/tokenizer.json", "/abs/tokenizer.json"},
	} {
		cfg, err := Parse([]byte("context:\n  tokenizer:\n    file: "+tt.in+"\n"), name)
		if err != nil {
			t.Fatal(err)
		}
		if got := cfg.Context.Tokenizer.File; got != tt.want {
			t.Errorf("file %q → %q, want %q", tt.in, got, tt.want)
		}
	}
}
