package collector

import (
	"context"
	"strings"
	"testing"
)

func TestDisplayPath(t *testing.T) {
	tok := "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	tests := []struct {
		name, in string
		secret   string // must not survive; "" means unchanged
	}{
		{"ordinary", "internal/auth/token.go", ""},
		{"key word in name", "docs/api-keys.md", ""},
		{"token in file name", "fixtures/" + tok + ".json", tok},
		{"token in directory name", "cache/" + tok + "/data.txt", tok},
		{"password in a name", "backup/db_password=" + "Xk9#pQ2!wL7z" + ".sql", "Xk9#pQ2!wL7z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DisplayPath(tt.in)
			if tt.secret == "" {
				if got != tt.in {
					t.Errorf("DisplayPath(%q) = %q, want it unchanged", tt.in, got)
				}
				return
			}
			if strings.Contains(got, tt.secret) || !strings.Contains(got, "[REDACTED-") {
				t.Errorf("DisplayPath(%q) = %q: secret kept", tt.in, got)
			}
			if DisplayPath(got) != got {
				t.Errorf("DisplayPath is not idempotent on %q", got)
			}
		})
	}
	a, b := DisplayPath("f/"+tok+".txt"), DisplayPath("f/"+strings.Replace(tok, "a1", "z9", 1)+".txt")
	if a == b {
		t.Errorf("two secret-named files share the display path %q", a)
	}
}

// TestWalkRedactsSecretNames: a file whose name holds a token is packed
// under a redacted path, and its exclusions are shown redacted too.
func TestWalkRedactsSecretNames(t *testing.T) {
	tok := "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	w, _ := newWorkspace(t, Options{}, file("fixtures/"+tok+".go", "package f\n"), file("fixtures/"+tok+".bin", "\x00\x01"))
	srcs, excl, err := w.Walk(context.Background(), OpenFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if strings.Contains(s.Path, tok) {
			t.Errorf("source path %q holds the token", s.Path)
		}
	}
	for _, x := range excl {
		if strings.Contains(x.Path, tok) {
			t.Errorf("exclusion path %q holds the token", x.Path)
		}
	}
	if len(srcs) != 1 || len(excl) != 1 {
		t.Errorf("got %d sources and %d exclusions, want 1 and 1", len(srcs), len(excl))
	}
}
