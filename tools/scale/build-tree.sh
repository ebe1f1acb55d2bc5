#!/bin/sh
# build-tree.sh DEST: writes HEAD of every mirror in repos.txt plus Go's src into DEST (a ~100K-file tree).
# Mirrors are bare clones (git clone --mirror) under $MIRRORS/<owner>+<name>/repo.
set -eu
dest=$1; here=$(cd "$(dirname "$0")" && pwd); mirrors=${MIRRORS:-/work/.mirror}
mkdir -p "$dest"
while read -r r; do
  case $r in ''|'#'*) continue;; esac
  n=$(echo "$r" | tr / +)
  [ -e "$dest/$n/.extracted" ] && continue
  rm -rf "$dest/$n"; mkdir -p "$dest/$n"
  python3 "$here/extract.py" "$mirrors/$n/repo" "$dest/$n"
  touch "$dest/$n/.extracted"
done < "$here/repos.txt"
[ -d "$dest/go-src" ] || cp -r "$(go env GOROOT)/src" "$dest/go-src"
find "$dest" -type f ! -name .extracted | wc -l
