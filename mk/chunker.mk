# mk/chunker.mk — targets of chunker/ (included by the top-level Makefile).

.PHONY: test-chunker fuzz-chunker bench-chunker update-chunker-golden

test-chunker: ## run the chunker tests (tables, golden files, fuzz seeds)
	CGO_ENABLED=1 go test -count=1 ./chunker

fuzz-chunker: ## fuzz each chunker target for FUZZTIME (default 1m)
	for f in FuzzSplit FuzzSplitLines FuzzDocumentUpdate; do \
		CGO_ENABLED=1 go test ./chunker -run '^$$' -fuzz "^$$f\$$" -fuzztime $(or $(FUZZTIME),1m) -fuzzminimizetime 5s || exit 1; \
	done

bench-chunker: ## chunk ~1 MB of Go (net/http) structurally, as line windows, and incrementally
	CGO_ENABLED=1 go test ./chunker -run '^$$' -bench 'Split1MB|SplitLines1MB|DocumentUpdate1MB' -benchmem

update-chunker-golden: ## rewrite chunker/testdata/golden/*.txtar from the current output
	CGO_ENABLED=1 go test ./chunker -run TestGolden -update
