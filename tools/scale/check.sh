#!/bin/sh
# check.sh: lists the mirrors of repos.txt that are missing under $MIRRORS
# (default /work/.mirror) with the commands that fetch them; exit 1 if any.
set -eu
here=$(cd "$(dirname "$0")" && pwd); mirrors=${MIRRORS:-/work/.mirror}
miss=0
while read -r r; do
  case $r in ''|'#'*) continue;; esac
  d="$mirrors/$(echo "$r" | tr / +)/repo"
  if [ ! -d "$d" ]; then
    [ $miss -eq 0 ] && echo "bench-scale: missing git mirrors; fetch them with:" >&2
    echo "  git clone --mirror https://github.com/$r $d" >&2
    miss=1
  fi
done < "$here/repos.txt"
exit $miss
