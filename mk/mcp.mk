# mk/mcp.mk — the MCP server's client test (included by the top-level Makefile).

MCPCLIENT_DIR   := tools/mcp-client
MCPCLIENT_STAMP := $(MCPCLIENT_DIR)/node_modules/.acode-installed

.PHONY: mcp-client test-mcp

mcp-client: $(MCPCLIENT_STAMP) ## install the official MCP TypeScript SDK (npm, pinned) used by test-mcp
$(MCPCLIENT_STAMP): $(MCPCLIENT_DIR)/package.json $(MCPCLIENT_DIR)/package-lock.json
	cd $(MCPCLIENT_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-mcp: build mcp-client tokenizer-ref ## drive `acode-lsp mcp` over stdio with the TypeScript SDK: every tool and error path, texts recounted with tiktoken
	cd $(MCPCLIENT_DIR) && ACODE_BIN=$(CURDIR)/$(BIN) node --test mcp.test.mjs
