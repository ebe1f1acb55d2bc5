package tokenizer

import (
	"strings"
	"testing"
)

func TestEncodingForModel(t *testing.T) {
	tests := []struct {
		model  string
		want   string
		wantOK bool
	}{
		{"gpt-4o", O200kBase, true},
		{"gpt-4o-mini", O200kBase, true},
		{"gpt-4o-2024-08-06", O200kBase, true},
		{"chatgpt-4o-latest", O200kBase, true},
		{"gpt-4.1", O200kBase, true},
		{"gpt-4.1-nano", O200kBase, true},
		{"gpt-4.5-preview", O200kBase, true},
		{"gpt-5", O200kBase, true},
		{"gpt-5-mini", O200kBase, true},
		{"o1", O200kBase, true},
		{"o1-preview", O200kBase, true},
		{"o3-mini", O200kBase, true},
		{"o4-mini", O200kBase, true},
		{"GPT-4o", O200kBase, true},
		{"openai/gpt-4o", O200kBase, true},
		{" gpt-4o ", O200kBase, true},
		{"ft:gpt-4o-mini-2024-07-18:org::abc", O200kBase, true},
		{"gpt-4", Cl100kBase, true},
		{"gpt-4-0613", Cl100kBase, true},
		{"gpt-4-32k", Cl100kBase, true},
		{"gpt-4-turbo", Cl100kBase, true},
		{"gpt-3.5-turbo", Cl100kBase, true},
		{"gpt-3.5-turbo-16k", Cl100kBase, true},
		{"gpt-35-turbo", Cl100kBase, true},
		{"text-embedding-3-small", Cl100kBase, true},
		{"text-embedding-3-large", Cl100kBase, true},
		{"text-embedding-ada-002", Cl100kBase, true},
		{"davinci-002", Cl100kBase, true},
		{"text-davinci-002", P50kBase, true},
		{"text-davinci-003", P50kBase, true},
		{"code-davinci-002", P50kBase, true},
		{"code-cushman-001", P50kBase, true},
		{"text-davinci-001", R50kBase, true},
		{"davinci", R50kBase, true},
		{"curie", R50kBase, true},
		{"babbage", R50kBase, true},
		{"ada", R50kBase, true},
		{"gpt2", R50kBase, true},
		{"claude-3-5-sonnet", "", false},
		{"claude-sonnet-4-5", "", false},
		{"llama3", Llama3, true},
		{"llama-3.1-8b-instruct", Llama3, true},
		{"meta-llama/Llama-3.3-70B-Instruct", Llama3, true},
		{"llama-4-scout", "", false},
		{"llama-2-7b", "", false},
		{"qwen2.5-coder-32b-instruct", Qwen3, true},
		{"qwen3-coder", Qwen3, true},
		{"Qwen/QwQ-32B", Qwen3, true},
		{"qwen/qwen-max", Qwen3, true},
		{"deepseek-chat", DeepseekV3, true},
		{"deepseek-reasoner", DeepseekV3, true},
		{"deepseek-v3.1", DeepseekV3, true},
		{"deepseek-r1-distill", DeepseekV3, true},
		{"deepseek-ai/anything", DeepseekV3, true},
		{"deepseek-coder", "", false},
		{"gemini-2.5-pro", Gemma3, true},
		{"google/gemini-3-pro-preview", Gemma3, true},
		{"gemma-3-27b-it", Gemma3, true},
		{"gemma3:4b", Gemma3, true},
		{"gemma-2-9b", "", false},
		{"", "", false},
		{"gpt", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			got, ok := EncodingForModel(tt.model)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("EncodingForModel(%q) = %q, %v; want %q, %v", tt.model, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestForModel(t *testing.T) {
	tests := []struct {
		model     string
		wantEnc   string
		wantExact bool
	}{
		{"", O200kBase, true},
		{"gpt-4o", O200kBase, true},
		{"gpt-4", Cl100kBase, true},
		{"text-davinci-003", P50kBase, true},
		{"davinci", R50kBase, true},
		{"llama-3.1", Llama3, true},
		{"gemini-2.5-pro", Gemma3, true},
		// No public tokenizer: an upper-bound estimate over o200k (issue 12
		// replaced the heuristic here).
		{"claude-3-opus", "estimate:claude-3-opus×1.25", false},
		{"mistral-large", "estimate:mistral-large×1.55", false},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			tk, err := ForModel(tt.model)
			if err != nil {
				t.Fatalf("ForModel(%q): %v", tt.model, err)
			}
			if tk.Encoding() != tt.wantEnc || tk.Exact() != tt.wantExact {
				t.Errorf("ForModel(%q) = %s exact=%v; want %s exact=%v", tt.model, tk.Encoding(), tk.Exact(), tt.wantEnc, tt.wantExact)
			}
		})
	}
}

func TestForEncoding(t *testing.T) {
	for _, name := range Encodings() {
		t.Run(name, func(t *testing.T) {
			tk, err := ForEncoding(name)
			if err != nil {
				t.Fatal(err)
			}
			if tk.Encoding() != name || !tk.Exact() {
				t.Errorf("ForEncoding(%q) = %s exact=%v", name, tk.Encoding(), tk.Exact())
			}
		})
	}
	t.Run("case and spaces", func(t *testing.T) {
		tk, err := ForEncoding(" CL100K_Base ")
		if err != nil || tk.Encoding() != Cl100kBase {
			t.Errorf("ForEncoding(\" CL100K_Base \") = %v, %v; want cl100k_base", tk, err)
		}
	})
	t.Run("unknown", func(t *testing.T) {
		_, err := ForEncoding("gpt2_base")
		if err == nil {
			t.Fatal("ForEncoding(gpt2_base) succeeded")
		}
		for _, want := range append(Encodings(), "tokenizer:", "gpt2_base") {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not mention %q", err, want)
			}
		}
	})
}

func TestHeuristic(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abc", 1},
		{"abcd", 2}, // 4/3.5 = 1.14
		{"abcdefg", 2},
		{"abcdefgh", 3},
		{strings.Repeat("x", 35), 10},
		{strings.Repeat("x", 36), 11},
		{"日本語", 1},      // runes, not bytes
		{"日本語日本語日", 2},  // 7 runes
		{"\xff\xfe", 1}, // invalid bytes count one each
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			h := Heuristic()
			if got := h.Count(tt.text); got != tt.want {
				t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
			}
			if h.Exact() || h.Encoding() != HeuristicName {
				t.Errorf("Heuristic: Exact=%v Encoding=%q", h.Exact(), h.Encoding())
			}
		})
	}
}

func TestResolve(t *testing.T) {
	tests := []struct{ model, encoding, want string }{
		{"gpt-4", "", Cl100kBase},
		{"gpt-4", O200kBase, O200kBase},
		{"", "", O200kBase},
		{"my-llama", "", "estimate:my-llama×1.55"}, // issue 12: was the heuristic
	}
	for _, tt := range tests {
		got, err := Resolve(tt.model, tt.encoding)
		if err != nil || got.Encoding() != tt.want {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %s", tt.model, tt.encoding, got, err, tt.want)
		}
	}
	if _, err := Resolve("gpt-4", "nope"); err == nil {
		t.Error("an unknown encoding must be an error")
	}
}
