# mk/tokenizer.mk — targets of budget/tokenizer (included by the top-level Makefile).

TOKREF_DIR := tools/tiktoken-ref
TOKREF_STAMP := $(TOKREF_DIR)/node_modules/.acode-installed

.PHONY: tokenizer-ref bench-tokens test-tokenizer fuzz-tokenizer

tokenizer-ref: $(TOKREF_STAMP) ## install the npm tiktoken reference (OpenAI's core) used by the tokenizer tests
$(TOKREF_STAMP): $(TOKREF_DIR)/package.json $(TOKREF_DIR)/package-lock.json
	cd $(TOKREF_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-tokenizer: tokenizer-ref ## run the tokenizer tests (exactness against tiktoken-go and OpenAI's core)
	CGO_ENABLED=1 go test ./budget/tokenizer/...

fuzz-tokenizer: ## fuzz the fast tokenizer against tiktoken-go for FUZZTIME (default 2m)
	CGO_ENABLED=1 go test ./budget/tokenizer -run '^$$' -fuzz '^FuzzMatchesReference$$' -fuzztime $(or $(FUZZTIME),2m)

bench-tokens: tokenizer-ref ## count a ~4 MB mixed corpus with acode-lsp and with npm tiktoken; print the throughput ratio
	CGO_ENABLED=1 go run ./budget/tokenizer/internal/benchtool -node $(TOKREF_DIR)/count.mjs
