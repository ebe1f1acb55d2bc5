# acode-lsp — run `make help` for the targets.
#
# Two commands work on a fresh machine (Go, gcc, node present):
#   make run    packs the bundled sample workspace (testdata/sample) with a report
#   make test   builds everything, installs what the tests need, runs every test

SHELL        := /bin/bash
export CGO_ENABLED := 1
GO           ?= go
BIN          := bin/acode-lsp
VERSION      ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS      := -X main.version=$(VERSION)
PREFIX       ?= $(HOME)/.local
GO_SRC       := $(shell find . -name '*.go' -not -path './.cache/*' -not -path '*/node_modules/*' 2>/dev/null) go.mod go.sum

.DEFAULT_GOAL := help
.PHONY: help build install run test test-go test-race vet fmt-check bench clean

help: ## show this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  \033[36m%-20s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(BIN): $(GO_SRC)
	@mkdir -p bin
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/acode-lsp

build: $(BIN) ## build bin/acode-lsp

install: build ## install acode-lsp into $(PREFIX)/bin (on PATH for the editor plugins)
	@mkdir -p $(PREFIX)/bin
	install -m 0755 $(BIN) $(PREFIX)/bin/acode-lsp
	@echo "installed $(PREFIX)/bin/acode-lsp"

run: build ## pack the bundled sample workspace (testdata/sample) and print the budget report
	@echo "== acode-lsp config validate (testdata/sample/.agent/config.yml)"
	@cd testdata/sample && ../../$(BIN) config validate
	@echo
	@echo "== acode-lsp count testdata/sample/cart/*.go"
	@$(BIN) count testdata/sample/cart/*.go
	@echo
	@echo "== acode-lsp pack testdata/sample --query 'why does checkout fail for empty carts' --budget 6000 --report"
	@$(BIN) pack testdata/sample --query 'why does checkout fail for empty carts' --budget 6000 --report

vet: ## go vet
	$(GO) vet ./...

fmt-check: ## fail when gofmt would change a file
	@out=$$(gofmt -l $$(git ls-files '*.go' ':!:**/testdata/**')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

test-go: tokenizer-ref tokenizer-hf-ref ## Go tests of every package (with the npm tiktoken reference)
	$(GO) test -count=1 ./...

test: fmt-check vet test-go test-mcp test-agents test-editors ## everything: Go tests, the exactness test against OpenAI's core, the MCP client, real Neovim and VS Code

bench: ## Go benchmarks of every package (see docs/benchmarks.md)
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean: ## remove build outputs (keeps .cache with the installed editors)
	rm -rf bin

-include mk/*.mk
