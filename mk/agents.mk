# mk/agents.mk — real agent clients against `acode-lsp mcp` (included by the
# top-level Makefile). See docs/agent-clients.md.
#
# tools/agent-clients pins (package-lock.json) the real Claude Code CLI
# (@anthropic-ai/claude-code: a ~370 MB native binary in an optional
# dependency), the real Codex CLI (@openai/codex, ~420 MB, the same way), the
# MCP Inspector and the MCP TypeScript SDK; npm installs
# them through $(NPM_ENV) (private HOME and npm cache under .cache/npm-home),
# so a fresh machine with an empty HOME needs only the npm registry. The
# tests run the clients with private HOMEs, against scripted model APIs on
# 127.0.0.1; nothing reaches the internet and nobody needs an account.

AGENTS_DIR     := tools/agent-clients
AGENTS_STAMP   := $(AGENTS_DIR)/node_modules/.acode-installed
AGENTS_TESTS   := claude-code.test.mjs codex.test.mjs forwarding.test.mjs inspector.test.mjs
# A bound on the whole run (the tests bound each client run too).
AGENTS_TIMEOUT ?= 900

.PHONY: agent-clients test-agents

agent-clients: $(AGENTS_STAMP) ## install the pinned agent clients of test-agents (Claude Code and Codex CLIs, MCP Inspector, MCP SDK; npm, ~950 MB)
$(AGENTS_STAMP): $(AGENTS_DIR)/package.json $(AGENTS_DIR)/package-lock.json
	cd $(AGENTS_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@h=$$(mktemp -d) && HOME=$$h $(AGENTS_DIR)/node_modules/.bin/claude --version && \
	  HOME=$$h CODEX_HOME=$$h $(AGENTS_DIR)/node_modules/.bin/codex --version 2>/dev/null; s=$$?; rm -rf "$$h"; exit $$s
	@touch $@

test-agents: build agent-clients tokenizer-ref ## real clients on `acode-lsp mcp`: Claude Code and Codex with scripted model APIs on 127.0.0.1, text-only and structured-first SDK clients, the MCP Inspector CLI
	cd $(AGENTS_DIR) && ACODE_BIN=$(CURDIR)/$(BIN) ACODE_NET_HTTP=$$($(GO) env GOROOT)/src/net/http \
	  timeout -k 10 $(AGENTS_TIMEOUT) node --test --test-concurrency=1 $(AGENTS_TESTS)
