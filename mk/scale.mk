# mk/scale.mk — the scale benchmark (docs/benchmarks.md, "Scale"); not part of `make test`.
#
#   make bench-scale                                  all three trees, bin/acode-lsp
#   make bench-scale SCALE_BINS='/tmp/old bin/acode-lsp' SCALE_TREES=nethttp
#   make bench-scale SCALE_TREES=gosrc SCALE_MODES=noquery SCALE_RUNS=1
#
# One run prints, per tree: the read and stat floors, `count` of the same
# files, and each binary's pack with and without a query, without an index
# (--no-index), first (writing it) and warm, with wall, CPU and peak RSS;
# it fails if a pack's output differs with and without the index.
#
# Needs bare git mirrors of tools/scale/repos.txt under $(SCALE_MIRRORS)
# (OWNER+NAME/repo) for the 100K-file tree; `make bench-scale` says how to
# get the missing ones. The tree is written to $(SCALE_DIR)/tree100k once.

SCALE_MIRRORS ?= /work/.mirror
SCALE_DIR     ?= $(or $(TMPDIR),/tmp)/acode-scale
SCALE_BINS    ?= $(BIN)
SCALE_TREES   ?= nethttp gosrc tree100k
SCALE_MODES   ?= query noquery
SCALE_RUNS    ?= 3

.PHONY: bench-scale

bench-scale: build ## time pack (query/no query, none/first/warm) vs count and the read/stat floors on net/http, Go's src, a 100K-file tree (needs git mirrors, see docs/benchmarks.md)
	@case " $(SCALE_TREES) " in *" tree100k "*) \
		MIRRORS=$(SCALE_MIRRORS) tools/scale/check.sh || exit 1; \
		MIRRORS=$(SCALE_MIRRORS) tools/scale/build-tree.sh $(SCALE_DIR)/tree100k;; esac
	SCALE_DIR=$(SCALE_DIR) SCALE_TREES='$(SCALE_TREES)' SCALE_MODES='$(SCALE_MODES)' SCALE_RUNS=$(SCALE_RUNS) tools/scale/run.sh $(SCALE_BINS)
