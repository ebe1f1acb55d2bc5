# mk/e2e.mk — the black-box conformance suite of the acode-lsp binary
# (cmd/acode-lsp/e2e_test.go), included by the top-level Makefile.

.PHONY: test-e2e

test-e2e: ## build the binary and check it against DESIGN.md end to end (LSP over stdio and every CLI command)
	CGO_ENABLED=1 go test -count=1 ./cmd/acode-lsp -run '^TestE2E'
