#!/usr/bin/env bash
# run.sh: times `acode-lsp pack` on three trees, with and without a query,
# without an index, first (writing it) and warm, beside `acode-lsp count`
# of the same files and the read and stat floors (docs/benchmarks.md,
# "Scale").
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
#   SCALE_QUERY the --query of the packs with a query
#   SCALE_BUDGET, SCALE_NOQ_BUDGET  --budget of the packs with and without
#               a query (default 100000 and 32000; 8000 is refused: the
#               default reserves leave nothing for content)
#   SCALE_MODES which packs: any of query noquery (default both)
#
# "none" runs with --no-index; "first" with an empty cache directory
# (XDG_CACHE_HOME), so it writes the index; "warm" runs again with the
# cache the first run left. The outputs of none, first and warm are
# compared byte for byte ("same output" or a failure). `count` is given the
# text files of the tree (grep -I) on its command line, in batches of at
# most 4,000 (one process each, timed together: the 100K tree's list
# exceeds the argument limit). The read floor is `cat` of every file, the
# stat floor `find -printf %s` (one stat per file). The files are read once before the first run, so both are measured
# with the files in the OS page cache: cold means "no index", not "disk".
# Wall time, CPU time (user+sys) and peak RSS come from /usr/bin/time -v of
# the whole process; on a loaded machine CPU time compares builds better.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
SCALE_DIR=${SCALE_DIR:-/tmp/acode-scale}
SCALE_RUNS=${SCALE_RUNS:-3}
SCALE_TREES=${SCALE_TREES:-nethttp gosrc tree100k}
SCALE_QUERY=${SCALE_QUERY:-how does the server close idle connections after a request timeout}
SCALE_BUDGET=${SCALE_BUDGET:-100000}
SCALE_NOQ_BUDGET=${SCALE_NOQ_BUDGET:-32000}
SCALE_MODES=${SCALE_MODES:-query noquery}
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
# time and the peak RSS of that run. With OUT set, the last run's standard
# output is kept there.
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
		XDG_CACHE_HOME=$c /usr/bin/time -v "$@" >"${OUT:-/dev/null}" 2>"$log" || {
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
out=$(mktemp -d "$SCALE_DIR/out.XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
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
	# The text files a pack reads (grep -I skips binaries).
	grep -rIl --exclude-dir=.git '' "$dir" | sort >"$out/text"
	ntext=$(wc -l <"$out/text")
	measure "read floor $t ($files files): cat" fresh sh -c 'find "$1" -type f -print0 | xargs -0 cat >/dev/null' sh "$dir"
	measure "stat floor $t: find -printf %s" fresh find "$dir" -type f -printf '%s\n'
	for b in "${bins[@]}"; do
		name=$(basename "$b")
		measure "$name count $t ($ntext text files)" fresh sh -c 'xargs -d "\n" -n 4000 "$1" count <"$2"' sh "$b" "$out/text"
		for mode in $SCALE_MODES; do
			if [ $mode = query ]; then
				pack=("$b" pack "$dir" --root "$dir" --budget "$SCALE_BUDGET" --query "$SCALE_QUERY")
			else
				pack=("$b" pack "$dir" --root "$dir" --budget "$SCALE_NOQ_BUDGET")
			fi
			OUT=$out/none measure "$name pack $t $mode none (--no-index)" fresh "${pack[@]}" --no-index
			OUT=$out/first measure "$name pack $t $mode first" fresh "${pack[@]}"
			warm=$(mktemp -d "$SCALE_DIR/cache.XXXXXX")
			XDG_CACHE_HOME=$warm "${pack[@]}" >/dev/null 2>&1 || true
			sleep 2 # entries younger than 2 s are racy (docs/index.md)
			OUT=$out/warm measure "$name pack $t $mode warm" "$warm" "${pack[@]}"
			rm -rf "$warm"
			if cmp -s "$out/none" "$out/first" && cmp -s "$out/none" "$out/warm"; then
				echo "| $name pack $t $mode: none = first = warm | same output | | | |"
			else
				echo "run.sh: $name pack $t $mode: the outputs with and without the index differ" >&2
				exit 1
			fi
		done
	done
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
