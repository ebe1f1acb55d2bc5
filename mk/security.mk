# Secret scanner evaluation (docs/security.md "Measuring redaction").
#
# Two corpora: the project's own (generated from the providers' documented
# formats) and one built from gitleaks' rule set, read at run time from a
# copy of github.com/gitleaks/gitleaks (MIT) that is never committed here:
# $(GITLEAKS_REPO), a checkout or a bare mirror (default: the mirror under
# $(EVAL_MIRRORS), as make eval uses). False positives are counted over
# Go's whole src, npm's lib and the node_modules the repository's tests
# installed (tools/*/node_modules, editors/vscode/node_modules).

EVAL_MIRRORS ?= /work/.mirror
GITLEAKS_REPO ?= $(EVAL_MIRRORS)/gitleaks+gitleaks/repo

.PHONY: eval-secrets

eval-secrets: ## leak rates (project corpus; gitleaks corpus by family and shape, development vs held out), false positives on Go's and npm's sources
	GITLEAKS_REPO=$(GITLEAKS_REPO) EVAL_MIRRORS=$(EVAL_MIRRORS) $(GO) run ./collector/internal/cmd/secreteval -repo .
