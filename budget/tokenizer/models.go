package tokenizer

import "strings"

// modelPrefixes maps model-name prefixes to encodings. The longest matching
// prefix wins, so "gpt-4o-mini" finds "gpt-4o" (o200k_base) before "gpt-4"
// (cl100k_base). Sources: OpenAI's tiktoken model.py and the model docs.
var modelPrefixes = map[string]string{
	// o200k_base: GPT-4o and later.
	"gpt-4o":     O200kBase,
	"chatgpt-4o": O200kBase,
	"gpt-4.1":    O200kBase,
	"gpt-4.5":    O200kBase,
	"gpt-5":      O200kBase,
	"gpt-oss":    O200kBase, // o200k_harmony: o200k_base plus special tokens only
	"o1":         O200kBase,
	"o3":         O200kBase,
	"o4":         O200kBase,
	"codex-mini": O200kBase,
	"ft:gpt-4o":  O200kBase,
	"ft:gpt-4.1": O200kBase,
	"ft:o4-mini": O200kBase,

	// cl100k_base: GPT-4, GPT-3.5 and the current embeddings.
	"gpt-4":                  Cl100kBase,
	"gpt-3.5":                Cl100kBase,
	"gpt-35-turbo":           Cl100kBase, // Azure spelling
	"text-embedding-3-":      Cl100kBase,
	"text-embedding-ada-002": Cl100kBase,
	"davinci-002":            Cl100kBase,
	"babbage-002":            Cl100kBase,
	"ft:gpt-4":               Cl100kBase,
	"ft:gpt-3.5":             Cl100kBase,
	"ft:davinci-002":         Cl100kBase,
	"ft:babbage-002":         Cl100kBase,

	// p50k_base (p50k_edit shares its ranks and pattern).
	"text-davinci-002":      P50kBase,
	"text-davinci-003":      P50kBase,
	"text-davinci-edit-":    P50kBase,
	"code-davinci-":         P50kBase,
	"code-cushman-":         P50kBase,
	"davinci-codex":         P50kBase,
	"cushman-codex":         P50kBase,
	"code-davinci-edit-001": P50kBase,

	// r50k_base (the GPT-2/GPT-3 vocabulary).
	"davinci":          R50kBase,
	"curie":            R50kBase,
	"babbage":          R50kBase,
	"ada":              R50kBase,
	"text-davinci-001": R50kBase,
	"text-curie-":      R50kBase,
	"text-babbage-":    R50kBase,
	"text-ada-":        R50kBase,
	"text-similarity-": R50kBase,
	"text-search-":     R50kBase,
	"code-search-":     R50kBase,
	"gpt2":             R50kBase,
	"gpt-2":            R50kBase,

	// Open models (Hugging Face tokenizer.json, content only).
	"llama-3":           Llama3, // Llama 3.0–3.3 (not Llama 4, another vocabulary)
	"llama3":            Llama3,
	"meta-llama-3":      Llama3,
	"qwen2":             Qwen3, // Qwen 2, 2.5 (incl. -coder) and 3 share one vocabulary
	"qwen3":             Qwen3,
	"qwq":               Qwen3, // QwQ is Qwen 2.5
	"qwen-":             Qwen3, // API names: qwen-max, qwen-plus, qwen-turbo, qwen-coder-plus
	"deepseek-v3":       DeepseekV3,
	"deepseek-r1":       DeepseekV3,
	"deepseek-chat":     DeepseekV3,
	"deepseek-reasoner": DeepseekV3,
	"gemini-":           Gemma3, // Gemini 2.x/3 count with the Gemma 3 vocabulary
	"gemma-3":           Gemma3,
	"gemma3":            Gemma3,
}

// providerEncodings maps a provider prefix ("qwen/…", "deepseek-ai/…") to
// the encoding of all its models, for names no prefix above knows.
var providerEncodings = map[string]string{
	"qwen":        Qwen3,
	"deepseek-ai": DeepseekV3,
}

// EncodingForModel maps a model name to its encoding by prefix (docs/design.md
// rule 1); the longest matching prefix wins. Matching ignores case,
// surrounding spaces and a provider prefix ending in "/" ("openai/gpt-4o",
// "azure/gpt-4o"). ok is false for unknown models.
func EncodingForModel(model string) (encoding string, ok bool) {
	m := strings.ToLower(strings.TrimSpace(model))
	provider := ""
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		provider = m[:i]
		if j := strings.LastIndexByte(provider, '/'); j >= 0 {
			provider = provider[j+1:]
		}
		m = m[i+1:]
	}
	best := -1
	for prefix, enc := range modelPrefixes {
		if len(prefix) > best && strings.HasPrefix(m, prefix) {
			best, encoding = len(prefix), enc
		}
	}
	if best < 0 {
		if enc, ok := providerEncodings[provider]; ok {
			return enc, true
		}
	}
	return encoding, best >= 0
}
