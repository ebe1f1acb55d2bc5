# Secret scanner evaluation (docs/security.md "Measuring redaction").

.PHONY: eval-secrets

eval-secrets: ## leak rate per family on the generated secret corpus, false positives on Go's and npm's sources
	$(GO) run ./collector/internal/cmd/secreteval
