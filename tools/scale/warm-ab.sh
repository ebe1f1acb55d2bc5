#!/bin/bash
# warm-ab.sh TREE N BIN... — warm query packs of TREE by each build
# alternately (docs/benchmarks.md "Warm query packs near the stat floor
# (fourth pass, warm4)"). Each build gets a private cache (mktemp -d),
# warmed by a first pack and one warm pack; then N rounds run one warm
# pack per build and print wall, CPU (user+sys) and peak RSS. Every warm
# output is compared (cmp) with the build's first output, and the first
# outputs of the builds with each other: "DIFF" marks a difference.
set -u
T=$1; N=$2; shift 2
Q=${SCALE_QUERY:-how does the server close idle connections after a request timeout}
B=${SCALE_BUDGET:-100000}
W=$(mktemp -d)
declare -A C
for b in "$@"; do
	C[$b]=$(mktemp -d)
	XDG_CACHE_HOME=${C[$b]} "$b" pack "$T" --budget "$B" --query "$Q" >"$W/out.$(basename "$b")"
	XDG_CACHE_HOME=${C[$b]} "$b" pack "$T" --budget "$B" --query "$Q" >/dev/null
done
for i in $(seq "$N"); do
	for b in "$@"; do
		n=$(basename "$b")
		XDG_CACHE_HOME=${C[$b]} /usr/bin/time -f "$n %e %U %S %M" "$b" pack "$T" --budget "$B" --query "$Q" 2>&1 >"$W/w.$n" |
			tail -1 | awk '{printf "%s wall %s cpu %.2f rss %d MB\n", $1, $2, $3+$4, $5/1024}'
		cmp -s "$W/w.$n" "$W/out.$n" || echo "DIFF $n: warm output differs from its first"
	done
done
first=$(basename "$1")
for b in "$@"; do
	cmp -s "$W/out.$(basename "$b")" "$W/out.$first" || echo "DIFF $b vs $1"
	rm -rf "${C[$b]}"
done
rm -rf "$W"
