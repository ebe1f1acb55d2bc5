package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTokenizerFileIsRelativeToTheConfig(t *testing.T) {
	name := filepath.Join("/ws", ".agent", "config.yml")
	for _, tt := range []struct{ in, want string }{
		{"tok/tokenizer.json", filepath.Join("/ws", ".agent", "tok", "tokenizer.json")},
		{"/ws/models/tokenizer.json", "/ws/models/tokenizer.json"},
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

// TestTokenizerFileConfined: a repository's config may only name a
// tokenizer file inside its workspace (issue 21: it could name any
// absolute path, and errors quoted the file's fields). Until issue 21 an
// absolute path outside was accepted.
func TestTokenizerFileConfined(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ws := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "tokenizer.json")
	os.WriteFile(secret, []byte(`{"model":{"type":"hunter2"}}`), 0o600)
	os.MkdirAll(filepath.Join(ws, ".agent"), 0o700)
	os.Symlink(secret, filepath.Join(ws, "link.json"))
	name := filepath.Join(ws, ".agent", "config.yml")
	for _, f := range []string{"/abs/tokenizer.json", secret, "../link.json", "../../" + filepath.Base(outside) + "/tokenizer.json"} {
		_, err := Parse([]byte("context:\n  tokenizer:\n    file: "+f+"\n"), name)
		var ce *Error
		if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Key != "context.tokenizer.file" || ce.Problems[0].Line != 3 {
			t.Fatalf("file %q: %v, want a problem at context.tokenizer.file (line 3)", f, err)
		}
		if msg := err.Error(); strings.Contains(msg, "hunter2") || !strings.Contains(msg, "--tokenizer-file") {
			t.Errorf("file %q: %s", f, msg)
		}
	}
	os.WriteFile(filepath.Join(ws, "tokenizer.json"), []byte("{}"), 0o600)
	if _, err := Parse([]byte("context:\n  tokenizer:\n    file: ../tokenizer.json\n"), name); err != nil {
		t.Errorf("a file inside the workspace: %v", err)
	}
}
