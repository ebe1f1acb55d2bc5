# mk/scale.mk — the scale benchmark (docs/benchmarks.md, "Scale"); not part of `make test`.
#
#   make bench-scale                                  all three trees, bin/acode-lsp
#   make bench-scale SCALE_BINS='/tmp/old bin/acode-lsp' SCALE_TREES=nethttp
#   make bench-scale SCALE_TREES=gosrc SCALE_MODES=noquery SCALE_RUNS=1
#
# One run prints, per tree: the read floor (page cache and evicted), the
# stat floor, `count` of the same files, each binary's pack with and
# without a query, without an index (--no-index), first (writing it; with
# a query also after evicting the tree from the page cache) and warm, warm
# packs in a running MCP server and language server, and repomix on the
# same tree, with wall, CPU and peak RSS; then issue 24's targets, met or
# missed by this run's numbers. It fails if a pack's output differs with
# and without the index. tools/scale/run.sh lists its knobs (SCALE_*).
#
# Needs bare git mirrors of tools/scale/repos.txt under $(SCALE_MIRRORS)
# (OWNER+NAME/repo) for the 100K-file tree; `make bench-scale` says how to
# get the missing ones. The tree is written to $(SCALE_DIR)/tree100k once.
# repomix (pinned in tools/scale/repomix/package-lock.json) is installed
# by `make repomix` through $(NPM_ENV); the run itself needs no network.

SCALE_MIRRORS ?= /work/.mirror
SCALE_DIR     ?= $(or $(TMPDIR),/tmp)/acode-scale
SCALE_BINS    ?= $(BIN)
SCALE_TREES   ?= nethttp gosrc tree100k
SCALE_MODES   ?= query noquery
SCALE_RUNS    ?= 3
SCALE_RUNS_100K ?= 1

REPOMIX_DIR   := tools/scale/repomix
REPOMIX_STAMP := $(REPOMIX_DIR)/node_modules/.acode-installed

.PHONY: bench-scale repomix

repomix: $(REPOMIX_STAMP) ## install the pinned repomix that bench-scale compares with (npm, ~100 MB)
$(REPOMIX_STAMP): $(REPOMIX_DIR)/package.json $(REPOMIX_DIR)/package-lock.json
	cd $(REPOMIX_DIR) && $(NPM_ENV) npm ci --no-audit --no-fund --loglevel=error
	@$(REPOMIX_DIR)/node_modules/.bin/repomix --version >/dev/null
	@touch $@

bench-scale: build repomix ## the scale record: pack (query/no query, none/first/warm/evicted), MCP and LSP servers, count, read/stat floors and repomix on net/http, Go's src, a 100K-file tree; issue 24's targets (needs git mirrors, see docs/benchmarks.md)
	@case " $(SCALE_TREES) " in *" tree100k "*) \
		MIRRORS=$(SCALE_MIRRORS) tools/scale/check.sh || exit 1; \
		MIRRORS=$(SCALE_MIRRORS) tools/scale/build-tree.sh $(SCALE_DIR)/tree100k;; esac
	SCALE_DIR=$(SCALE_DIR) SCALE_TREES='$(SCALE_TREES)' SCALE_MODES='$(SCALE_MODES)' SCALE_RUNS=$(SCALE_RUNS) \
	  SCALE_RUNS_100K=$(SCALE_RUNS_100K) tools/scale/run.sh $(SCALE_BINS)
