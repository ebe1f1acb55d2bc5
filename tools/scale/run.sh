#!/usr/bin/env bash
# run.sh: the scale record of issue 24 (docs/benchmarks.md, "Scale"): on
# each tree, `acode-lsp pack` with and without a query, without an index,
# first (writing it) and warm, beside `acode-lsp count` of the same files,
# the read and stat floors, repomix on the same tree, and warm packs in a
# running MCP server and language server; then a table of issue 24's
# targets computed from this run's numbers.
#
#   tools/scale/run.sh [BIN…]
#
# Each BIN (default bin/acode-lsp) is measured in the same run, so two
# builds (before/after a change) can be compared under the same load.
# Environment:
#   SCALE_DIR   where the 100K-file tree is (SCALE_DIR/tree100k, built by
#               build-tree.sh) and the temporary caches go (default /tmp/acode-scale)
#   SCALE_RUNS  runs per measurement, the fastest answer is reported (default 3)
#   SCALE_RUNS_100K  runs per measurement on the 100K tree (default 1: its
#               maps take minutes each)
#   SCALE_TREES which trees: any of nethttp gosrc tree100k (default all three)
#   SCALE_QUERY the --query of the packs with a query
#   SCALE_BUDGET, SCALE_NOQ_BUDGET  --budget of the packs with and without
#               a query (default 100000 and 32000)
#   SCALE_MODES which packs: any of query noquery (default both)
#   SCALE_TIMEOUT  seconds an acode-lsp command may take (default 1800)
#   SCALE_EVICT 1 (default) adds the evicted read floor and an evicted first
#               query pack: every file of the tree is dropped from the page
#               cache first (posix_fadvise DONTNEED, no root needed;
#               tools/scale/evict when it exists, else a python3 loop); 0 skips
#   SCALE_REPOMIX  the repomix to compare (default the pinned one `make
#               repomix` installs under tools/scale/repomix); "off" skips it
#   SCALE_REPOMIX_TIMEOUT  seconds repomix may take per tree (default 900)
#   SCALE_SERVERS  1 (default) runs tools/serverbench (MCP) and
#               tools/lspbench (the language server) on each tree; 0 skips
#   SCALE_SERVER_RUNS  their warm calls (default 5)
#   SCALE_SERVER_BUDGET  their budget (default 16000: MCP results are capped
#               at 25,000 tokens, --max-result-tokens)
#   SCALE_LSP_SEARCH  the search pattern of the language server's
#               acode/packContext (default closeIdleConns)
#   SCALE_SERVER_TIMEOUT  seconds each server tool may take (default 1800)
#
# "none" runs with --no-index; "first" with an empty cache directory
# (XDG_CACHE_HOME), so it writes the index; "warm" runs again with the
# cache the first run left. The outputs of none, first and warm are
# compared byte for byte ("same output" or a failure). `count` is given the
# text files of the tree (grep -I) on its command line, in batches of at
# most 4,000 (one process each, timed together: the 100K tree's list
# exceeds the argument limit). The read floor is `cat` of every file, the
# stat floor `find -printf %s` (one stat per file); both with the files in
# the OS page cache (they are read once first), so "cold" means "no index";
# the evicted rows are the cold disk of the issue's first packs (only the
# files' pages are dropped: directories and inodes stay cached, which needs
# root to drop). Times come from tools/scale/timeit.py: "answer" is when a
# command's standard output closed (a first pack writes its index after
# it), "exit" when it exited; CPU is user+sys, RSS the peak of the largest
# process. On a loaded machine CPU compares builds better than wall.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
SCALE_DIR=${SCALE_DIR:-/tmp/acode-scale}
SCALE_RUNS=${SCALE_RUNS:-3}
SCALE_RUNS_100K=${SCALE_RUNS_100K:-1}
SCALE_TREES=${SCALE_TREES:-nethttp gosrc tree100k}
SCALE_QUERY=${SCALE_QUERY:-how does the server close idle connections after a request timeout}
SCALE_BUDGET=${SCALE_BUDGET:-100000}
SCALE_NOQ_BUDGET=${SCALE_NOQ_BUDGET:-32000}
SCALE_MODES=${SCALE_MODES:-query noquery}
SCALE_TIMEOUT=${SCALE_TIMEOUT:-1800}
SCALE_EVICT=${SCALE_EVICT:-1}
SCALE_REPOMIX=${SCALE_REPOMIX:-$here/repomix/node_modules/.bin/repomix}
SCALE_REPOMIX_TIMEOUT=${SCALE_REPOMIX_TIMEOUT:-900}
SCALE_SERVERS=${SCALE_SERVERS:-1}
SCALE_SERVER_RUNS=${SCALE_SERVER_RUNS:-5}
SCALE_SERVER_BUDGET=${SCALE_SERVER_BUDGET:-16000}
SCALE_LSP_SEARCH=${SCALE_LSP_SEARCH:-closeIdleConns}
SCALE_SERVER_TIMEOUT=${SCALE_SERVER_TIMEOUT:-1800}
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(bin/acode-lsp)

command -v python3 >/dev/null || { echo "run.sh: python3 is missing (it times the commands)" >&2; exit 1; }
for b in "${bins[@]}"; do
	[ -x "$b" ] || { echo "run.sh: $b is not an executable (make build)" >&2; exit 1; }
done
if [ "$SCALE_REPOMIX" != off ] && [ ! -x "$SCALE_REPOMIX" ]; then
	echo "run.sh: $SCALE_REPOMIX is missing: make repomix (or SCALE_REPOMIX=off)" >&2
	exit 1
fi

goroot=$(go env GOROOT)
tree_dir() {
	case $1 in
	nethttp) echo "$goroot/src/net/http" ;;
	gosrc) echo "$goroot/src" ;;
	tree100k) echo "$SCALE_DIR/tree100k" ;;
	*) echo "run.sh: unknown tree $1 (nethttp, gosrc, tree100k)" >&2; exit 2 ;;
	esac
}

mkdir -p "$SCALE_DIR"
out=$(mktemp -d "$SCALE_DIR/out.XXXXXX")
[ -n "$out" ] && [ -d "$out" ] || { echo "run.sh: no temporary directory" >&2; exit 1; }
trap 'rm -rf "$out"' EXIT
results=$out/results # "KEY VALUE" lines, KEY = BIN/TREE/WHAT/FIELD, for report.py
: >"$results"

# evict DIR: drops every file of DIR from the page cache.
evictor="" evict_name=""
if [ "$SCALE_EVICT" = 1 ]; then
	if [ -d "$here/evict" ] && compgen -G "$here/evict/*.go" >/dev/null; then
		(cd "$repo" && go build -o "$out/evict" ./tools/scale/evict)
		evictor=$out/evict evict_name=tools/scale/evict
	elif [ -f "$here/evict" ] && [ -x "$here/evict" ]; then
		evictor=$here/evict evict_name=tools/scale/evict
	else
		evictor=python3 evict_name="python3 posix_fadvise"
	fi
fi
evict() {
	if [ "$evictor" != python3 ]; then
		"$evictor" "$1" >/dev/null 2>"$out/evict.err" || { cat "$out/evict.err" >&2; exit 1; }
		return
	fi
	python3 - "$1" <<-'EOF'
		import os, sys
		for root, _, files in os.walk(sys.argv[1]):
		    for f in files:
		        try:
		            fd = os.open(os.path.join(root, f), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
		        except OSError:
		            continue
		        try:
		            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
		        finally:
		            os.close(fd)
	EOF
}

# measure KEY LABEL CACHE CMD…: runs CMD RUNS times with XDG_CACHE_HOME=CACHE
# ("fresh" = a new empty directory each run; EVICT_DIR set: evicted from
# the page cache before each run) and prints the run with the fastest
# answer. With OUT set, the last run's standard output is kept there; with
# KEEP set (and CACHE fresh), the last run's cache is kept, in last_cache.
# KEY/answer, exit, cpu and rss go to the results.
measure() {
	local key=$1 label=$2 cache=$3
	shift 3
	local best="" bestexit="" bestrss="" bestcpu="" all="" i
	for ((i = 0; i < RUNS; i++)); do
		local c=$cache
		if [ "$cache" = fresh ]; then
			c=$(mktemp -d "$out/cache.XXXXXX")
		fi
		[ -z "${EVICT_DIR:-}" ] || evict "$EVICT_DIR"
		local log line answer exit cpu rss status
		log=$(mktemp "$out/log.XXXXXX")
		line=$(XDG_CACHE_HOME=$c "$here/timeit.py" --timeout "$SCALE_TIMEOUT" "${OUT:-/dev/null}" "$log" "$@")
		read -r answer exit cpu rss _ status <<<"$line"
		if [ "$status" != 0 ]; then
			echo "run.sh: $label failed ($status):" >&2
			tail -5 "$log" >&2
			exit 1
		fi
		rm -f "$log"
		if [ -n "${KEEP:-}" ] && [ $((i + 1)) -eq "$RUNS" ]; then
			last_cache=$c
		elif [ "$cache" = fresh ] && [ -n "$c" ]; then
			rm -rf "$c"
		fi
		if [ "$answer" = "$exit" ]; then all="$all ${answer}s/${cpu}s"; else all="$all ${answer}s(${exit}s)/${cpu}s"; fi
		if [ -z "$best" ] || awk -v a="$answer" -v b="$best" 'BEGIN {exit !(a < b)}'; then
			best=$answer bestexit=$exit bestrss=$rss bestcpu=$cpu
		fi
	done
	printf '| %s | %s s | %s s | %s s | %s MB | %s |\n' "$label" "$best" "$bestexit" "$bestcpu" "$bestrss" "${all# }"
	printf '%s/answer %s\n%s/exit %s\n%s/cpu %s\n%s/rss %s\n' "$key" "$best" "$key" "$bestexit" "$key" "$bestcpu" "$key" "$bestrss" >>"$results"
}

# run_repomix TREE DIR: packs DIR with repomix once, as a user would
# (`repomix -o FILE DIR`: its default XML with the security check), with a private HOME so
# no user or global configuration is read, bounded by SCALE_REPOMIX_TIMEOUT.
# A failure is recorded, not fatal.
run_repomix() {
	local t=$1 dir=$2 h line answer exit cpu rss tree status size last
	h=$(mktemp -d "$out/home.XXXXXX")
	line=$(cd "$h" && HOME=$h XDG_CONFIG_HOME=$h/.config XDG_CACHE_HOME=$h/.cache NO_COLOR=1 \
		"$here/timeit.py" --timeout "$SCALE_REPOMIX_TIMEOUT" --tree "$out/repomix.out" "$out/repomix.err" \
		"$SCALE_REPOMIX" -o "$h/repomix-output.xml" "$dir")
	read -r answer exit cpu rss tree status <<<"$line"
	size=0
	[ ! -f "$h/repomix-output.xml" ] || size=$(($(stat -c %s "$h/repomix-output.xml") / 1048576))
	# Not --quiet: repomix 1.13.1's --quiet silences its errors too. Its
	# report goes to standard output, its errors to standard error.
	# Its error is the line marked ✖ (advice and the largest files follow it).
	last=$(grep -m1 '✖' "$out/repomix.err" || grep -v '^[[:space:]]*$' "$out/repomix.err" | tail -1 || true)
	[ -n "$last" ] || last=$(grep -v '^[[:space:]]*$' "$out/repomix.out" | tail -1 || true)
	last=$(printf '%s' "$last" | tr '|' '/' | cut -c1-200)
	[ -z "$h" ] || rm -rf "$h"
	if [ "$status" = 0 ]; then
		printf '| repomix %s (%s MB of XML) | | %s s | %s s | %s MB (all its processes %s MB) | succeeded |\n' "$t" "$size" "$exit" "$cpu" "$rss" "$tree"
	else
		printf '| repomix %s | | %s s | %s s | %s MB (all its processes %s MB) | **failed** (exit %s): %s |\n' "$t" "$exit" "$cpu" "$rss" "$tree" "$status" "$last"
	fi
	printf -- '-/%s/repomix/exit %s\n-/%s/repomix/cpu %s\n-/%s/repomix/rss %s\n-/%s/repomix/tree_rss %s\n-/%s/repomix/status %s\n' \
		"$t" "$exit" "$t" "$cpu" "$t" "$rss" "$t" "$tree" "$t" "$status" >>"$results"
}

# servers BIN NAME TREE DIR CACHE: warm packs in a running MCP server
# (tools/serverbench, beside its own CLI packs of the same query and
# budget) and language server (tools/lspbench), on the index cache CACHE.
servers() {
	local b=$1 name=$2 t=$3 dir=$4 cache=$5 params
	params=$(python3 -c 'import json, sys; print(json.dumps({"query": sys.argv[1], "budget": {"totalTokens": int(sys.argv[2])}, "search": {"pattern": sys.argv[3]}}))' \
		"$SCALE_QUERY" "$SCALE_SERVER_BUDGET" "$SCALE_LSP_SEARCH")
	XDG_CACHE_HOME=$cache timeout -k 10 "$SCALE_SERVER_TIMEOUT" "$out/serverbench" -bin "$b" -dir "$dir" \
		-query "$SCALE_QUERY" -budget "$SCALE_SERVER_BUDGET" -runs "$SCALE_SERVER_RUNS" >"$out/sb.txt" 2>&1 ||
		echo "serverbench: exit $?" >>"$out/sb.txt"
	XDG_CACHE_HOME=$cache timeout -k 10 "$SCALE_SERVER_TIMEOUT" "$out/lspbench" -bin "$b" -dir "$dir" \
		-params "$params" -runs "$SCALE_SERVER_RUNS" >"$out/lb.txt" 2>&1 ||
		echo "lspbench: exit $?" >>"$out/lb.txt"
	python3 "$here/report.py" servers "$name" "$t" "$out/sb.txt" "$out/lb.txt" "$results"
}

if [ "$SCALE_SERVERS" = 1 ]; then
	(cd "$repo" && go build -o "$out/serverbench" ./tools/serverbench && go build -o "$out/lspbench" ./tools/lspbench)
fi

# one_tree T DIR: every measurement of one tree.
one_tree() {
	local t=$1 dir=$2 files ntext b name mode
	# Read every file once so the page cache holds the tree.
	find "$dir" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
	files=$(find "$dir" -type f | wc -l)
	# The text files a pack reads (grep -I skips binaries).
	grep -rIl --exclude-dir=.git '' "$dir" | sort >"$out/text"
	ntext=$(wc -l <"$out/text")
	measure "-/$t/read" "read floor $t ($files files): cat" fresh sh -c 'find "$1" -type f -print0 | xargs -0 cat >/dev/null' sh "$dir"
	measure "-/$t/stat" "stat floor $t: find -printf %s" fresh find "$dir" -type f -printf '%s\n'
	if [ -n "$evictor" ]; then
		EVICT_DIR=$dir measure "-/$t/read-evicted" "read floor $t, evicted ($evict_name): cat" fresh sh -c 'find "$1" -type f -print0 | xargs -0 cat >/dev/null' sh "$dir"
		find "$dir" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
	fi
	for b in "${bins[@]}"; do
		name=$(basename "$b")
		measure "$name/$t/count" "$name count $t ($ntext text files)" fresh sh -c 'xargs -d "\n" -n 4000 "$1" count <"$2"' sh "$b" "$out/text"
		server_cache=""
		for mode in $SCALE_MODES; do
			pack_tree "$b" "$name" "$t" "$dir" "$mode"
		done
		if [ "$SCALE_SERVERS" = 1 ]; then
			[ -n "$server_cache" ] || server_cache=$(mktemp -d "$out/cache.XXXXXX")
			servers "$b" "$name" "$t" "$dir" "$server_cache"
			[ -z "$server_cache" ] || rm -rf "$server_cache"
		fi
	done
	if [ "$SCALE_REPOMIX" != off ]; then
		run_repomix "$t" "$dir"
	fi
}

# pack_tree BIN NAME T DIR MODE: none, first and warm packs of one mode,
# and with a query an evicted first pack.
pack_tree() {
	local b=$1 name=$2 t=$3 dir=$4 mode=$5 m pack warm
	if [ "$mode" = query ]; then
		m=q pack=("$b" pack "$dir" --root "$dir" --budget "$SCALE_BUDGET" --query "$SCALE_QUERY")
	else
		m=n pack=("$b" pack "$dir" --root "$dir" --budget "$SCALE_NOQ_BUDGET")
	fi
	OUT=$out/none measure "$name/$t/$m-none" "$name pack $t $mode none (--no-index)" fresh "${pack[@]}" --no-index
	last_cache=""
	OUT=$out/first KEEP=1 measure "$name/$t/$m-first" "$name pack $t $mode first" fresh "${pack[@]}"
	warm=$last_cache # the cache the first pack left
	if [ "$mode" = query ] && [ -n "$evictor" ]; then
		OUT=$out/evicted EVICT_DIR=$dir measure "$name/$t/$m-first-evicted" "$name pack $t $mode first, evicted" fresh "${pack[@]}"
		find "$dir" -type f -print0 | xargs -0 cat >/dev/null 2>&1 || true
		cmp -s "$out/none" "$out/evicted" || { echo "run.sh: $name pack $t $mode: the evicted first pack differs from --no-index" >&2; exit 1; }
	fi
	sleep 2 # entries younger than 2 s are racy (docs/index.md)
	OUT=$out/warm measure "$name/$t/$m-warm" "$name pack $t $mode warm" "$warm" "${pack[@]}"
	if [ "$mode" = query ] && [ "$SCALE_SERVERS" = 1 ]; then
		server_cache=$warm # the servers start on this index
	elif [ -n "$warm" ]; then
		rm -rf "$warm"
	fi
	if cmp -s "$out/none" "$out/first" && cmp -s "$out/none" "$out/warm"; then
		echo "| $name pack $t $mode: none = first = warm | same output | | | | |"
	else
		echo "run.sh: $name pack $t $mode: the outputs with and without the index differ" >&2
		exit 1
	fi
}

start=$(date +%s)
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| what | answer (fastest) | its exit | its CPU (user+sys) | its peak RSS | every run (answer(exit)/CPU) |"
echo "|---|---|---|---|---|---|"
for t in $SCALE_TREES; do
	dir=$(tree_dir "$t")
	if [ ! -d "$dir" ]; then
		echo "run.sh: $dir is missing; build it with: MIRRORS=… $here/build-tree.sh $dir" >&2
		exit 1
	fi
	RUNS=$SCALE_RUNS
	[ "$t" != tree100k ] || RUNS=$SCALE_RUNS_100K
	one_tree "$t" "$dir"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg); the run took $(($(date +%s) - start)) s"
echo
python3 "$here/report.py" targets "$results"
