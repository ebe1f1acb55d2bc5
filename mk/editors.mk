# mk/editors.mk — the editor integrations (editors/vscode, editors/neovim):
# installing the real editors the tests drive, building the VS Code
# extension, and their tests. Included by the top-level Makefile.
#
# Everything installed goes under .cache/ (git-ignored) and is quick to
# re-run once there. The end-to-end tests use bin/acode-lsp from `make build`.
#
# Every npm install runs through $(NPM_ENV) (editors/scripts/npm-env.sh): a
# private HOME and npm cache under .cache/npm-home, no npm_config_* from the
# caller, and npm_config_nodedir set to Node's headers on this machine — so an
# install never depends on the user's ~/.npmrc (a fresh machine has none).
# check-npm-env, part of `make test`, builds a native module that way from a
# brand-new empty HOME each run, so that cannot regress unnoticed.

EDITORS_CACHE    := .cache
NVIM             := $(EDITORS_CACHE)/nvim/bin/nvim
NVIM_NEXT        := $(EDITORS_CACHE)/nvim-next/bin/nvim
CODE_SERVER      := $(EDITORS_CACHE)/code-server/node_modules/.bin/code-server
VSCODE_DIR       := editors/vscode
VSCODE_NPM_STAMP := $(VSCODE_DIR)/node_modules/.acode-installed
VSIX             := $(VSCODE_DIR)/acode.vsix
VSCODE_SRC       := $(wildcard $(VSCODE_DIR)/src/*.ts $(VSCODE_DIR)/src/test/*.ts $(VSCODE_DIR)/e2e/*.ts)
NVIM_TEST        := timeout 120 $(NVIM) --headless -u NONE -l
NVIM_NEXT_TEST   := timeout 120 $(NVIM_NEXT) --headless -u NONE -l
ACODE_LSP        ?= bin/acode-lsp
NPM_ENV          := bash $(CURDIR)/editors/scripts/npm-env.sh

.PHONY: check-npm-env nvim nvim-next code-server vscode-ext test-editors test-editors-unit test-neovim test-neovim-unit \
	test-neovim-e2e test-neovim-next test-vscode test-vscode-unit editors-screenshots

nvim: ## install Neovim 0.10 (Debian trixie's, unpacked under .cache/nvim; nothing system-wide)
	@bash editors/scripts/install-nvim.sh $(EDITORS_CACHE)/nvim trixie

nvim-next: ## install the newest Neovim (Debian forky's, 0.12 when written) under .cache/nvim-next
	@bash editors/scripts/install-nvim.sh $(EDITORS_CACHE)/nvim-next forky

check-npm-env: ## build a tiny native module with node-gyp from an empty HOME and npm cache, as a fresh machine does (a few seconds)
	@bash editors/scripts/check-npm-env.sh

code-server: ## install code-server 4.100.3 under .cache/code-server (+ chromium, ripgrep, libkrb5-dev, g++, make, python3 from apt, as root)
	@bash editors/scripts/install-code-server.sh $(EDITORS_CACHE)/code-server

$(VSCODE_NPM_STAMP): $(VSCODE_DIR)/package.json $(VSCODE_DIR)/package-lock.json
	cd $(VSCODE_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(VSIX): $(VSCODE_NPM_STAMP) $(VSCODE_SRC) $(VSCODE_DIR)/tsconfig.json $(VSCODE_DIR)/README.md $(VSCODE_DIR)/.vscodeignore
	cd $(VSCODE_DIR) && npx tsc -p . && npx vsce package --allow-missing-repository --skip-license -o acode.vsix </dev/null >/dev/null
	@echo "built $@"

vscode-ext: $(VSIX) ## build the VS Code extension: npm ci, tsc, vsce package -> editors/vscode/acode.vsix (offline)

test-vscode-unit: $(VSCODE_NPM_STAMP) ## unit tests of the extension's pure logic (node's test runner)
	cd $(VSCODE_DIR) && npx tsc -p . && node --test out/src/test/

test-vscode: code-server vscode-ext build ## end-to-end: the extension in code-server driven by headless chromium
	cd $(VSCODE_DIR) && npx tsc -p e2e && node out/e2e/vscode.e2e.js --code-server $(CURDIR)/$(CODE_SERVER) \
		--vsix $(CURDIR)/$(VSIX) --server-dir $(CURDIR)/$(dir $(ACODE_LSP)) --sample $(CURDIR)/testdata/sample \
		--artifacts $(CURDIR)/$(VSCODE_DIR)/e2e-artifacts

test-neovim-unit: nvim ## unit tests of acode.nvim's Lua (headless Neovim, no server)
	$(NVIM_TEST) editors/neovim/tests/unit_spec.lua

test-neovim-e2e: nvim build ## end-to-end: real Neovim 0.10 + bin/acode-lsp on testdata/sample
	ACODE_LSP=$(CURDIR)/$(ACODE_LSP) ACODE_SAMPLE=$(CURDIR)/testdata/sample $(NVIM_TEST) editors/neovim/tests/e2e_spec.lua

test-neovim-next: nvim-next build ## unit and end-to-end tests again on the newest Neovim (the vim.lsp.config/enable path)
	$(NVIM_NEXT_TEST) editors/neovim/tests/unit_spec.lua
	ACODE_LSP=$(CURDIR)/$(ACODE_LSP) ACODE_SAMPLE=$(CURDIR)/testdata/sample $(NVIM_NEXT_TEST) editors/neovim/tests/e2e_spec.lua

test-neovim: test-neovim-unit test-neovim-e2e ## the Neovim tests on 0.10 (test-neovim-next adds the newest, from Debian testing, which moves)

test-editors-unit: test-vscode-unit test-neovim-unit ## the editors' unit tests (no server needed)

test-editors: check-npm-env test-vscode-unit test-neovim test-vscode ## every editor test (unit and end-to-end), after the fresh-machine npm check

editors-screenshots: nvim code-server vscode-ext build ## refresh docs/screenshots/{vscode,neovim}.png from real editor sessions
	cd $(VSCODE_DIR) && npx tsc -p e2e && node out/e2e/vscode.e2e.js --code-server $(CURDIR)/$(CODE_SERVER) \
		--vsix $(CURDIR)/$(VSIX) --server-dir $(CURDIR)/$(dir $(ACODE_LSP)) --sample $(CURDIR)/testdata/sample \
		--artifacts $(CURDIR)/$(VSCODE_DIR)/e2e-artifacts --screenshot $(CURDIR)/docs/screenshots/vscode.png
	bash editors/scripts/screenshot-neovim.sh $(CURDIR)/$(NVIM) $(CURDIR)/$(ACODE_LSP) $(CURDIR)/testdata/sample \
		$(CURDIR)/docs/screenshots/neovim.png
