#!/usr/bin/env bash
# warm-rounds.sh: warm query packs of two builds, alternated in the same
# minutes, each on its own warmed index cache, with `find`'s stat floor
# after each round (docs/benchmarks.md, "Round six on the merged main").
#
#   tools/scale/warm-rounds.sh ROUNDS TREE BASE NEW
#
# Each build packs TREE twice first (the index, then a cache used by more
# than one pack); every timed output is compared (cmp) with BASE's first
# warm output and a difference is printed as "DIFF". Environment:
#   SCALE_QUERY, SCALE_BUDGET  as in run.sh
set -euo pipefail

[ $# -eq 4 ] || { echo "usage: $0 ROUNDS TREE BASE NEW" >&2; exit 2; }
rounds=$1 tree=$2 base=$3 new=$4
query=${SCALE_QUERY:-how does the server close idle connections after a request timeout}
budget=${SCALE_BUDGET:-100000}
work=$(mktemp -d)
[ -n "$work" ] && [ -d "$work" ] || exit 1
trap 'rm -rf "$work"' EXIT

pack() { # NAME BIN OUT: one warm pack of BIN on NAME's cache
	XDG_CACHE_HOME="$work/cache.$1" "$2" pack "$tree" --root "$tree" \
		--budget "$budget" --query "$query" >"$3"
}
for b in base new; do
	bin=$base; [ $b = new ] && bin=$new
	mkdir -p "$work/cache.$b"
	pack $b "$bin" /dev/null
	pack $b "$bin" "$work/ref.$b"
done
cmp -s "$work/ref.base" "$work/ref.new" || echo "DIFF: the first warm packs differ"
for _ in $(seq 1 "$rounds"); do
	for b in base new; do
		bin=$base; [ $b = new ] && bin=$new
		/usr/bin/time -f "$b %e s wall, %U+%S s CPU, %M KB" -o "$work/time" \
			env XDG_CACHE_HOME="$work/cache.$b" "$bin" pack "$tree" --root "$tree" \
			--budget "$budget" --query "$query" >"$work/out"
		echo "$(cat "$work/time")"
		cmp -s "$work/out" "$work/ref.base" || echo "DIFF $b"
	done
	/usr/bin/time -f "find %e s wall" -o "$work/time" find "$tree" -printf '%s\n' >/dev/null
	echo "$(cat "$work/time")"
done
