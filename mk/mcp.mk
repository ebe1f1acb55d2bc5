# mk/mcp.mk — the MCP server's client test (included by the top-level Makefile).

MCPCLIENT_DIR   := tools/mcp-client
MCPCLIENT_STAMP := $(MCPCLIENT_DIR)/node_modules/.acode-installed

.PHONY: mcp-client test-mcp

mcp-client: $(MCPCLIENT_STAMP) ## install the official MCP TypeScript SDK (npm, pinned) used by test-mcp
$(MCPCLIENT_STAMP): $(MCPCLIENT_DIR)/package.json $(MCPCLIENT_DIR)/package-lock.json
	cd $(MCPCLIENT_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-mcp: build mcp-client tokenizer-ref ## drive `acode-lsp mcp` over stdio with the TypeScript SDK: every tool and error path, texts recounted with tiktoken
	cd $(MCPCLIENT_DIR) && ACODE_BIN=$(CURDIR)/$(BIN) node --test mcp.test.mjs

MCP_BENCH_DIR ?= $(shell $(GO) env GOROOT)/src/net/http

.PHONY: bench-mcp
bench-mcp: build mcp-client tokenizer-ref ## time pack_context (cold process, warm server) against `acode-lsp pack` on MCP_BENCH_DIR (default: GOROOT's net/http, ~2.5 MB); one run, prints the ratios
	cd $(MCPCLIENT_DIR) && ACODE_BIN=$(CURDIR)/$(BIN) node bench.mjs --dir $(MCP_BENCH_DIR) --runs $(or $(RUNS),7)
