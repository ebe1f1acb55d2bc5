package config

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileRefusals: a config path that is not a readable regular file
// of a sensible size is an *Error with a fix, naming the file once; a
// missing file is fs.ErrNotExist (the defaults apply).
func TestReadFileRefusals(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, fix string }{
		{"a directory", dir, "replace it with a regular YAML file"},
		{"over the size cap", big, "a config file is a few hundred bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadFile(tt.path)
			var ce *Error
			if !errors.As(err, &ce) || len(ce.Problems) != 1 {
				t.Fatalf("ReadFile error = %v, want a *config.Error with one problem", err)
			}
			if p := ce.Problems[0]; p.Key != "(file)" || p.Kind != KindSyntax || !strings.HasPrefix(p.Rule, "cannot be read: ") || !strings.Contains(p.Fix, tt.fix) {
				t.Errorf("problem = %+v, want (file), \"cannot be read: …\" and a fix with %q", p, tt.fix)
			}
			if n := strings.Count(err.Error(), tt.path); n != 1 {
				t.Errorf("%q names the path %d times, want once", err, n)
			}
		})
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.yml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// TestStampOf: a stamp tells a missing file from a present one and
// changes when the file does.
func TestStampOf(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".acode.yml")
	if s := StampOf(path); s != (Stamp{}) {
		t.Errorf("missing file: %+v, want the zero stamp", s)
	}
	if err := os.WriteFile(path, []byte("context: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	first := StampOf(path)
	if !first.Exists || first.Size != int64(len("context: {}\n")) {
		t.Errorf("stamp %+v, want an existing file of 12 bytes", first)
	}
	if err := os.WriteFile(path, []byte("context:\n  dedup: {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if StampOf(path) == first {
		t.Error("the stamp did not change with the file")
	}
}

// TestTokensJSON: a Tokens field takes an integer or a typed string, and
// its error says what it got.
func TestTokensJSON(t *testing.T) {
	var v struct {
		Budget *Tokens `json:"budget"`
	}
	for in, want := range map[string]int{`{"budget": 8000}`: 8000, `{"budget": "12k"}`: 12000} {
		v.Budget = nil
		if err := json.Unmarshal([]byte(in), &v); err != nil || v.Budget == nil || int(*v.Budget) != want {
			t.Errorf("%s: %v, %v; want %d", in, v.Budget, err, want)
		}
	}
	v.Budget = nil
	if err := json.Unmarshal([]byte(`{"budget": null}`), &v); err != nil || v.Budget != nil {
		t.Errorf("null: %v, %v; want it unset", v.Budget, err)
	}
	for in, want := range map[string]string{`{"budget": [8000]}`: "not an array", `{"budget": true}`: "not a boolean", `{"budget": "much"}`: "write it as 8000, 8k or 1.5m"} {
		if err := json.Unmarshal([]byte(in), &v); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one with %q", in, err, want)
		}
	}
}
