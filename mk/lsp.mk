# mk/lsp.mk — targets of the language server (lsp/), included by the top-level Makefile.

.PHONY: test-lsp fuzz-lsp bench-lsp

test-lsp: ## run the language-server tests (in-process LSP sessions over net.Pipe, hostile client, goleak)
	CGO_ENABLED=1 go test ./lsp/

fuzz-lsp: ## fuzz the framing, id recovery and UTF-16 positions for FUZZTIME each (default 1m)
	CGO_ENABLED=1 go test ./lsp -run '^$$' -fuzz '^FuzzFrameStream$$' -fuzztime $(or $(FUZZTIME),1m)
	CGO_ENABLED=1 go test ./lsp -run '^$$' -fuzz '^FuzzScanID$$' -fuzztime $(or $(FUZZTIME),1m)
	CGO_ENABLED=1 go test ./lsp -run '^$$' -fuzz '^FuzzOffsetOf$$' -fuzztime $(or $(FUZZTIME),1m)

bench-lsp: ## benchmark lens refresh (5,000-line file), warm pack (20 open files) and memory with 200 open files
	CGO_ENABLED=1 go test ./lsp -run '^$$' -bench . -benchtime 3s
