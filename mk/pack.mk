# mk/pack.mk — fuzzing of the pack: budget.Pack and the whole engine (included by the top-level Makefile).

.PHONY: fuzz-pack

fuzz-pack: ## fuzz budget.Pack (FuzzPack) and the engine's pack (FuzzPackInvariants) for FUZZTIME each (default 1m)
	CGO_ENABLED=1 go test ./budget -run '^$$' -fuzz '^FuzzPack$$' -fuzztime $(or $(FUZZTIME),1m)
	CGO_ENABLED=1 go test ./pack -run '^$$' -fuzz '^FuzzPackInvariants$$' -fuzztime $(or $(FUZZTIME),1m)
