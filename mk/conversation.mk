# mk/conversation.mk — targets of conversation/ and the trim/fit commands (included by the top-level Makefile).

.PHONY: test-conversation fuzz-conversation bench-conversation golden-conversation

test-conversation: ## run the conversation-budget tests (sections, trimming, paging, goldens, docs examples, trim/fit CLI)
	CGO_ENABLED=1 go test ./conversation/
	CGO_ENABLED=1 go test ./cmd/acode-lsp/ -run '^TestRun(Trim|Fit)'

fuzz-conversation: ## fuzz trimming and paging invariants for FUZZTIME each (default 1m)
	CGO_ENABLED=1 go test ./conversation -run '^$$' -fuzz '^FuzzTrim$$' -fuzztime $(or $(FUZZTIME),1m)
	CGO_ENABLED=1 go test ./conversation -run '^$$' -fuzz '^FuzzFitToolResultPaging$$' -fuzztime $(or $(FUZZTIME),1m)

bench-conversation: ## benchmark trimming 500 messages / ~400K tokens to 100K and paging a 50,000-line output
	CGO_ENABLED=1 go test ./conversation -run '^$$' -bench . -benchtime 20x

golden-conversation: ## rewrite the want sections of conversation/testdata/trim/*.txtar after an intended change
	CGO_ENABLED=1 go test ./conversation -run '^TestTrimGolden$$' -update
