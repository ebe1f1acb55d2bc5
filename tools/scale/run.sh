#!/usr/bin/env bash
# run.sh: times `acode-lsp pack` on three trees, cold and warm, and
# `acode-lsp count` on the files of net/http (docs/benchmarks.md, "Scale").
#
#   tools/scale/run.sh [BIN…]
#
# Each BIN (default bin/acode-lsp) is measured in the same run, so two
# builds (before/after a change) can be compared under the same load.
# Environment:
#   SCALE_DIR   where the 100K-file tree is (SCALE_DIR/tree100k, built by
#               build-tree.sh) and the index caches go (default /tmp/acode-scale)
#   SCALE_RUNS  runs per measurement, the fastest is reported (default 3)
#   SCALE_TREES which trees: any of nethttp gosrc tree100k (default all three)
#   SCALE_QUERY the --query of every pack
#
# "cold" runs with an empty cache directory (XDG_CACHE_HOME), so no
# persistent index is present; "warm" runs again with the cache the cold run
# left. The files are read once before the first run, so both are measured
# with the files in the OS page cache: cold means "no index", not "disk".
# Wall time, CPU time (user+sys) and peak RSS come from /usr/bin/time -v of
# the whole process; on a loaded machine CPU time compares builds better.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SCALE_DIR=${SCALE_DIR:-/tmp/acode-scale}
SCALE_RUNS=${SCALE_RUNS:-3}
SCALE_TREES=${SCALE_TREES:-nethttp gosrc tree100k}
SCALE_QUERY=${SCALE_QUERY:-how does the server close idle connections after a request timeout}
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(bin/acode-lsp)

if [ ! -x /usr/bin/time ]; then
	echo "run.sh: /usr/bin/time is missing (apt-get install time)" >&2
	exit 1
fi
for b in "${bins[@]}"; do
	[ -x "$b" ] || { echo "run.sh: $b is not an executable (make build)" >&2; exit 1; }
done

goroot=$(go env GOROOT)
tree_dir() {
	case $1 in
	nethttp) echo "$goroot/src/net/http" ;;
	gosrc) echo "$goroot/src" ;;
	tree100k) echo "$SCALE_DIR/tree100k" ;;
	*) echo "run.sh: unknown tree $1 (nethttp, gosrc, tree100k)" >&2; exit 2 ;;
	esac
}

# measure LABEL CACHE CMD…: runs CMD SCALE_RUNS times with XDG_CACHE_HOME=CACHE
# ("fresh" = a new empty directory each run) and prints the fastest wall
# time and the peak RSS of that run.
measure() {
	local label=$1 cache=$2
	shift 2
	local best="" bestrss="" bestcpu="" all=""
	for ((i = 0; i < SCALE_RUNS; i++)); do
		local c=$cache
		if [ "$cache" = fresh ]; then
			c=$(mktemp -d "$SCALE_DIR/cache.XXXXXX")
		fi
		local log
		log=$(mktemp)
		XDG_CACHE_HOME=$c /usr/bin/time -v "$@" >/dev/null 2>"$log" || {
			echo "run.sh: $label failed:" >&2
			tail -5 "$log" >&2
			exit 1
		}
		local wall rss cpu
		wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); s = 0; for (k = 1; k <= n; k++) s = s * 60 + a[k]; print s}' "$log")
		rss=$(awk -F': ' '/Maximum resident set size/ {printf "%d", $2 / 1024}' "$log")
		cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.2f", s}' "$log")
		rm -f "$log"
		[ "$cache" = fresh ] && rm -rf "$c"
		all="$all ${wall}s/${cpu}s"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then
			best=$wall
			bestrss=$rss
			bestcpu=$cpu
		fi
	done
	printf '| %s | %s s | %s s | %s MB | %s |\n' "$label" "$best" "$bestcpu" "$bestrss" "${all# }"
}

mkdir -p "$SCALE_DIR"
echo "| what | wall (fastest of $SCALE_RUNS) | its CPU (user+sys) | its peak RSS | every run (wall/CPU) |"
echo "|---|---|---|---|---|"
for t in $SCALE_TREES; do
	dir=$(tree_dir "$t")
	if [ ! -d "$dir" ]; then
		echo "run.sh: $dir is missing; build it with: MIRRORS=… $here/build-tree.sh $dir" >&2
		exit 1
	fi
	# Read every file once so the page cache holds the tree.
	find "$dir" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
	files=$(find "$dir" -type f | wc -l)
	for b in "${bins[@]}"; do
		name=$(basename "$b")
		pack=("$b" pack "$dir" --root "$dir" --budget 100000 --query "$SCALE_QUERY")
		measure "$name pack $t ($files files) cold" fresh "${pack[@]}"
		warm=$(mktemp -d "$SCALE_DIR/cache.XXXXXX")
		XDG_CACHE_HOME=$warm "${pack[@]}" >/dev/null 2>&1 || true
		measure "$name pack $t warm" "$warm" "${pack[@]}"
		rm -rf "$warm"
		if [ "$t" = nethttp ]; then
			# The same files a pack reads: the text files (grep -I skips binaries).
			mapfile -t text < <(grep -rIl --exclude-dir=.git '' "$dir" | sort)
			measure "$name count $t (${#text[@]} text files)" fresh "$b" count "${text[@]}"
		fi
	done
done
