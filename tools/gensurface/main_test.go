package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const root = "../.."

// TestGeneratedFilesUpToDate fails while a generated file differs from what
// config/settings.go (and the encodings, levels and error codes) generate:
// run `go generate ./config`.
func TestGeneratedFilesUpToDate(t *testing.T) {
	out, err := outputs(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range out {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./config\n(-want +got):\n%s", name, cmp.Diff(string(want), string(got)))
		}
	}
}

// TestPackageJSON: the generated configuration is valid JSON in which
// acode.encoding offers every encoding, unset included.
func TestPackageJSON(t *testing.T) {
	out, err := outputs(root)
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Name        string
		Contributes struct {
			Commands      []any
			Configuration struct {
				Properties map[string]struct {
					Enum    []*string
					Default any
				}
			}
		}
	}
	if err := json.Unmarshal(out["editors/vscode/package.json"], &pkg); err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "acode" || len(pkg.Contributes.Commands) == 0 {
		t.Errorf("the rest of package.json was not kept: name %q, %d commands", pkg.Name, len(pkg.Contributes.Commands))
	}
	enc := pkg.Contributes.Configuration.Properties["acode.encoding"]
	var names []string
	for _, e := range enc.Enum {
		if e == nil {
			names = append(names, "null")
		} else {
			names = append(names, *e)
		}
	}
	want := []string{"null", "o200k_base", "cl100k_base", "p50k_base", "r50k_base", "llama3", "qwen3", "deepseek_v3", "gemma3"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("acode.encoding enum (-want +got):\n%s", diff)
	}
	if d := pkg.Contributes.Configuration.Properties["acode.pack.askForBudget"].Default; d != true {
		t.Errorf("acode.pack.askForBudget default %v", d)
	}
}

// TestErrorCodes: the codes come from errcode.go with their comments.
func TestErrorCodes(t *testing.T) {
	codes, err := errorCodes(filepath.Join(root, "internal", "errcode", "errcode.go"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range codes {
		got[c.code] = c.meaning
	}
	if got["ACODE-CTX-004"] != "nothing to pack" || got["ACODE-CFG-001"] != "invalid configuration" || len(got) < 5 {
		t.Errorf("codes %v", got)
	}
	if _, err := errorCodes(filepath.Join(root, "go.mod")); err == nil {
		t.Error("a file without codes is an error")
	}
}

// TestSpliceBlocks: a missing block is an error naming it; a present one is
// replaced and the text around it kept.
func TestSpliceBlocks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	os.WriteFile(path, []byte("a\n<!-- gensurface:x -->\nold\n<!-- /gensurface:x -->\nb\n"), 0o644)
	got, err := spliceBlocks(path, map[string]string{"x": "new\n"})
	if err != nil || string(got) != "a\n<!-- gensurface:x -->\nnew\n<!-- /gensurface:x -->\nb\n" {
		t.Errorf("splice = %q, %v", got, err)
	}
	if _, err := spliceBlocks(path, map[string]string{"y": ""}); err == nil || !strings.Contains(err.Error(), "gensurface:y") {
		t.Errorf("missing block: %v", err)
	}
}
