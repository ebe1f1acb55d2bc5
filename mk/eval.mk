# mk/eval.mk — the context-quality evaluation (docs/quality.md); not part of `make test`.
#
#   make eval                      dev and held-out cases, budgets 8K and 32K
#   make eval EVAL_ARGS='-split dev -ablate df-stop'   any flag of `eval run`
#
# Needs bare git mirrors of the six repositories under $(EVAL_MIRRORS)
# (OWNER+NAME/repo); `make eval` says how to get the missing ones.

EVAL_MIRRORS ?= /work/.mirror
EVAL_CACHE   ?= $(or $(TMPDIR),/tmp)/acode-eval
EVAL_ARGS    ?=

.PHONY: eval eval-cases

eval: ## context quality: acode vs BM25 windows on eval/cases (needs git mirrors, see docs/quality.md)
	@EVAL_MIRRORS=$(EVAL_MIRRORS) $(GO) run ./eval/cmd/eval check || exit 1
	GOMAXPROCS=2 EVAL_MIRRORS=$(EVAL_MIRRORS) $(GO) run ./eval/cmd/eval run -cache $(EVAL_CACHE) $(EVAL_ARGS)

eval-cases: ## re-draw eval/cases/cases.jsonl from the mirrors (seeded; the same mirrors give the same file)
	EVAL_MIRRORS=$(EVAL_MIRRORS) $(GO) run ./eval/cmd/eval cases
