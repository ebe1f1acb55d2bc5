package tokenizer

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// compileJSON compiles byteLevelJSON's tokenizer.json after mutate.
func compileJSON(t *testing.T, mutate func(m map[string]any)) ([]byte, error) {
	t.Helper()
	data, err := os.ReadFile(byteLevelJSON(t, mutate))
	if err != nil {
		t.Fatal(err)
	}
	return CompileVocabulary(data)
}

// compiledHeaderOf reads the header of a compiled vocabulary.
func compiledHeaderOf(t *testing.T, gz []byte) compiledHeader {
	t.Helper()
	data, err := gunzip(gz)
	if err != nil {
		t.Fatal(err)
	}
	r := &compiledReader{p: bytes.TrimPrefix(data, []byte(compiledMagic))}
	h, err := r.header()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func model(m map[string]any) map[string]any { return m["model"].(map[string]any) }

func preSteps(m map[string]any) []any {
	return m["pre_tokenizer"].(map[string]any)["pretokenizers"].([]any)
}

// gemmaForm turns byteLevelJSON's file into the Gemma 3 form: a Replace
// " " → "▁" normalizer, a Split on " ", a character-level vocabulary.
func gemmaForm(m map[string]any) {
	m["normalizer"] = map[string]any{"type": "Replace", "pattern": map[string]any{"String": " "}, "content": "▁"}
	m["pre_tokenizer"] = map[string]any{"type": "Split", "pattern": map[string]any{"String": " "}, "behavior": "MergedWithPrevious"}
	model(m)["vocab"] = map[string]any{"▁": 0, "i": 1, "n": 2, "in": 3, "▁in": 4, "<unk>": 5}
	model(m)["merges"] = []any{"i n", "▁ in"}
	model(m)["unk_token"] = "<unk>"
	model(m)["byte_fallback"] = true
}

// TestCompileVocabularyRejects: every part of a tokenizer.json the exact
// counter does not implement is refused by name, in the quick suite
// (TestForFile's cases run only beside the npm reference).
func TestCompileVocabularyRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"no model type", func(m map[string]any) { delete(model(m), "type") }, "no model.type"},
		{"wordpiece", func(m map[string]any) { model(m)["type"] = "WordPiece" }, `model.type "WordPiece" is not supported`},
		{"wrong field type", func(m map[string]any) { model(m)["vocab"] = "x" }, "a field has the wrong type"},
		{"dropout", func(m map[string]any) { model(m)["dropout"] = 0.1 }, "model.dropout 0.1"},
		{"subword prefix", func(m map[string]any) { model(m)["continuing_subword_prefix"] = "##" }, `model.continuing_subword_prefix "##"`},
		{"word suffix", func(m map[string]any) { model(m)["end_of_word_suffix"] = "</w>" }, `model.end_of_word_suffix "</w>"`},
		{"nfkc", func(m map[string]any) { m["normalizer"] = map[string]any{"type": "NFKC"} }, "normalizer NFKC"},
		{"sequence of normalizers", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFD"}}}
		}, "normalizer Sequence [NFD]"},
		{"other replace", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Replace", "pattern": map[string]any{"String": "\t"}, "content": " "}
		}, `normalizer Replace "\t" → " "`},
		{"regex replace", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Replace", "pattern": map[string]any{"Regex": " "}, "content": "▁"}
		}, `normalizer Replace " " → "▁"`},
		{"gemma form with metaspace", func(m map[string]any) {
			gemmaForm(m)
			m["pre_tokenizer"] = map[string]any{"type": "Metaspace"}
		}, `pre_tokenizer Metaspace after a Replace " " → "▁" normalizer`},
		{"no pre-tokenizer", func(m map[string]any) { m["pre_tokenizer"] = nil }, "pre_tokenizer (missing)"},
		{"sequence without byte level", func(m map[string]any) {
			m["pre_tokenizer"].(map[string]any)["pretokenizers"] = preSteps(m)[:1]
		}, "a Sequence must end with ByteLevel"},
		{"byte level with prefix space", func(m map[string]any) {
			preSteps(m)[1].(map[string]any)["add_prefix_space"] = true
		}, "ByteLevel with add_prefix_space"},
		{"byte level with its own regex", func(m map[string]any) {
			preSteps(m)[1].(map[string]any)["use_regex"] = true
		}, "ByteLevel with add_prefix_space or use_regex"},
		{"digits step", func(m map[string]any) {
			preSteps(m)[0] = map[string]any{"type": "Digits", "individual_digits": true}
		}, "pre_tokenizer step Digits"},
		{"removed split", func(m map[string]any) {
			preSteps(m)[0].(map[string]any)["behavior"] = "Removed"
		}, "pre_tokenizer step Split (Regex"},
		{"other split", func(m map[string]any) {
			preSteps(m)[0].(map[string]any)["pattern"] = map[string]any{"Regex": `\w+|\s+`}
		}, `pre_tokenizer Split pattern(s) ["\\w+|\\s+"]`},
		{"single word added token", func(m map[string]any) {
			m["added_tokens"] = []any{map[string]any{"id": 300, "content": "<x>", "single_word": true}}
		}, `added token "<x>" with lstrip, rstrip or single_word`},
		{"added tokens too large", func(m map[string]any) {
			m["added_tokens"] = []any{
				map[string]any{"id": 300, "content": strings.Repeat("a", maxAddedBytes/2)},
				map[string]any{"id": 301, "content": strings.Repeat("b", maxAddedBytes/2+1)},
			}
		}, "hold 1048577 bytes; more than 1048576"},
		{"shared id", func(m map[string]any) { model(m)["vocab"].(map[string]any)["zz"] = 257 }, "share id 257"},
		{"missing byte", func(m map[string]any) { delete(model(m)["vocab"].(map[string]any), "Ā") }, "byte 0x00"},
		{"sparse id", func(m map[string]any) { model(m)["vocab"].(map[string]any)["zz"] = 1<<24 - 1 }, "token id 16777215 is too large"},
		{"merge of one token", func(m map[string]any) { model(m)["merges"] = []any{"in"} }, `merge 0: "in" is not two tokens`},
		{"merge of three", func(m map[string]any) { model(m)["merges"] = []any{[]any{"i", "n", "x"}} }, "merge 0: " + `["i","n","x"] is not a pair`},
		{"dangling merge", func(m map[string]any) { model(m)["merges"] = []any{"i n", "x yz"} }, `merge 1 ("x" "yz")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := compileJSON(t, tt.mutate)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %s", err, tt.want)
			}
		})
	}
}

// TestCompileVocabularyForms: the forms the counter implements compile to
// the header that selects them.
func TestCompileVocabularyForms(t *testing.T) {
	base := compiledHeader{ByteLevel: true, Pre: preLlama3, Vocab: 259, Merges: 3}
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   func(h *compiledHeader)
	}{
		{"llama 3", nil, func(h *compiledHeader) {}},
		{"qwen 3", func(m map[string]any) {
			preSteps(m)[0].(map[string]any)["pattern"] = map[string]any{"Regex": qwen3Pattern}
		}, func(h *compiledHeader) { h.Pre = preQwen3 }},
		{"deepseek v3", func(m map[string]any) {
			split := func(p string) any {
				return map[string]any{"type": "Split", "pattern": map[string]any{"Regex": p}, "behavior": "Isolated"}
			}
			m["pre_tokenizer"].(map[string]any)["pretokenizers"] = []any{
				split(deepseekDigits), split(deepseekCJK), split(deepseekRest), preSteps(m)[1]}
		}, func(h *compiledHeader) { h.Pre = preDeepseek }},
		{"nfc and added tokens", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "NFC"}
			m["added_tokens"] = []any{
				map[string]any{"id": 300, "content": "<|eot|>", "special": true},
				map[string]any{"id": 301, "content": "e\u0301x", "normalized": true},
				map[string]any{"id": 302, "content": "<raw>"},
			}
		}, func(h *compiledHeader) {
			h.Norm = normNFC
			h.Added = []string{"<raw>"}
			h.AddedNorm = []string{"\u00e9x"}
		}},
		{"empty normalizer sequence, merges as pairs, flags", func(m map[string]any) {
			m["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{}}
			m["added_tokens"] = []any{map[string]any{"id": 301, "content": "a b", "normalized": true}}
			model(m)["merges"] = []any{[]any{"Ġ", "Ġ"}, []any{"i", "n"}, []any{"Ġ", "in"}}
			model(m)["ignore_merges"] = true
			model(m)["unk_token"] = "in"
		}, func(h *compiledHeader) {
			h.AddedNorm = []string{"a b"}
			h.IgnoreMerges, h.Unk = true, true
		}},
		{"gemma 3", gemmaForm, func(h *compiledHeader) {
			*h = compiledHeader{Pre: preNone, Norm: normMetaspace, ByteFallback: true, Unk: true, Vocab: 6, Merges: 2}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gz, err := compileJSON(t, tt.mutate)
			if err != nil {
				t.Fatal(err)
			}
			want := base
			tt.want(&want)
			if diff := cmp.Diff(want, compiledHeaderOf(t, gz)); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if _, err := loadCompiled("test", gz); err != nil {
				t.Errorf("loadCompiled: %v", err)
			}
		})
	}
}

// TestCompileVocabularyMergeForms: merges written "a b" and ["a", "b"]
// compile to the same bytes.
func TestCompileVocabularyMergeForms(t *testing.T) {
	strs, err := compileJSON(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := compileJSON(t, func(m map[string]any) {
		model(m)["merges"] = []any{[]any{"Ġ", "Ġ"}, []any{"i", "n"}, []any{"Ġ", "in"}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(strs, pairs) {
		t.Error("the two merge forms compiled differently")
	}
}

// TestLoadCompiledCorrupt: a damaged compiled vocabulary is an error that
// says what is wrong, never a panic or a model; every truncation of a
// valid one fails.
func TestLoadCompiledCorrupt(t *testing.T) {
	gz, err := compileJSON(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := gunzip(gz)
	if err != nil {
		t.Fatal(err)
	}
	zip := func(b []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Write(b)
		zw.Close()
		return out.Bytes()
	}
	// The last merge is "Ġ in": left id 0x20 (byte-level ids are the
	// bytes), right id 257, result 258 as a delta of +1 from "in" (zigzag
	// 2).
	lastMerge := []byte{0x20, 0x81, 0x02, 0x02}
	if !bytes.HasSuffix(data, lastMerge) {
		t.Fatalf("the compiled form changed: ends % X", data[len(data)-8:])
	}
	beyond := bytes.Clone(data)
	beyond[len(beyond)-1] = 0x04 // result 259: beyond the vocabulary
	// With a token at id 300, ids 259…299 have none.
	gzHoles, err := compileJSON(t, func(m map[string]any) { model(m)["vocab"].(map[string]any)["zz"] = 300 })
	if err != nil {
		t.Fatal(err)
	}
	noToken, err := gunzip(gzHoles)
	if err != nil {
		t.Fatal(err)
	}
	noToken[len(noToken)-1] = 0x06 // result 260
	tests := []struct {
		name string
		gz   []byte
		want string
	}{
		{"not gzip", []byte("ACODE"), "vocabulary test: unexpected EOF"},
		{"other magic", zip([]byte("ACODE-BPE1\n")), "not a compiled vocabulary"},
		{"no header", zip([]byte(compiledMagic + "\xff")), "truncated header"},
		{"bad header", zip([]byte(compiledMagic + "\x01x")), "header: invalid character"},
		{"merge beyond the vocabulary", zip(beyond), "truncated merges"},
		{"merge to an id without a token", zip(noToken), "merge 2 names an id without a token"},
		{"trailing data", zip(append(bytes.Clone(data), 0)), "trailing data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := loadCompiled("test", tt.gz)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "tokenizer: vocabulary test: ") {
				t.Errorf("err = %v (model %v), want it to contain %s", err, m != nil, tt.want)
			}
		})
	}
	for n := len(compiledMagic); n < len(data); n++ {
		if _, err := loadCompiled("test", zip(data[:n])); err == nil {
			t.Fatalf("truncated to %d of %d bytes: loaded", n, len(data))
		}
	}
}
