#!/usr/bin/env bash
# install-nvim.sh unpacks Debian 13 (trixie)'s Neovim 0.10 (or a later suite's) into a private
# folder and writes a launcher at DEST/bin/nvim. Nothing else on the system
# changes: apt reads a private source list and keeps its lists and downloads
# in DEST/apt. trixie's nvim needs glibc >= 2.38 (Debian 12 has 2.36), so the
# unpacked nvim binary is patched (patchelf, installed from apt if missing)
# to use the unpacked glibc's loader and libraries: running it through the
# loader instead would break the TUI, which re-executes /proc/self/exe with
# --embed. Only nvim uses the unpacked libraries; the language servers it
# starts run with the system's.
#
# Usage: install-nvim.sh [DEST] [SUITE]   (default .cache/nvim, trixie).
# SUITE forky gives the newest Neovim (0.12 when written): the packages are
# the dependency closure of neovim in that suite, so renamed libraries follow.
# Quick when installed.
set -euo pipefail

dest=$(mkdir -p "${1:-.cache/nvim}" && cd "${1:-.cache/nvim}" && pwd)
suite=${2:-trixie}
launcher=$dest/bin/nvim

if [ -x "$launcher" ] && "$launcher" --version 2>/dev/null | grep -q '^NVIM v0\.1[0-9]' &&
	grep -q "patchelf, $suite" "$launcher"; then
	exit 0
fi

if ! command -v patchelf >/dev/null; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "install-nvim: needs root to apt-get install patchelf, because the unpacked nvim binary is patched to use" \
			"its own glibc (Debian 12's is too old for it). Install it once, then re-run make:" >&2
		echo "  sudo apt-get install --no-install-recommends patchelf" >&2
		exit 1
	fi
	echo "install-nvim: apt-get install --no-install-recommends patchelf" >&2
	apt_install() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends patchelf; }
	apt_install >/dev/null 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null 2>&1 && apt_install >/dev/null; } ||
		{ echo "install-nvim: cannot install patchelf" >&2; exit 1; }
fi

apt_dir=$dest/apt
rm -rf "$dest/root" "$dest/debs"
mkdir -p "$apt_dir/sources" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" \
	"$dest/debs" "$dest/root" "$dest/bin"
rm -f "$apt_dir"/sources/*.sources
cat >"$apt_dir/sources/$suite.sources" <<SOURCES
Types: deb
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES

apt_opts=(
	-o Dir::Etc::SourceList=/dev/null
	-o "Dir::Etc::SourceParts=$apt_dir/sources"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::Cache=$apt_dir/cache"
	-o Dir::State::status=/dev/null
	-o APT::Get::List-Cleanup=0
	-q
)
echo "install-nvim: fetching the $suite package lists" >&2
apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1 ||
	{ cat "$apt_dir/update.log" >&2; echo "install-nvim: apt-get update failed" >&2; exit 1; }
# With an empty dpkg status, the closure is every package nvim needs.
mapfile -t pkgs < <(apt-cache "${apt_opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
	--no-breaks --no-replaces --no-enhances neovim 2>/dev/null | grep -E '^[a-z0-9]' | sort -u)
[ ${#pkgs[@]} -gt 0 ] || { echo "install-nvim: no neovim in $suite" >&2; exit 1; }
echo "install-nvim: downloading ${pkgs[*]}" >&2
(cd "$dest/debs" && apt-get "${apt_opts[@]}" download "${pkgs[@]}" >"$apt_dir/download.log" 2>&1) ||
	{ cat "$apt_dir/download.log" >&2; echo "install-nvim: apt-get download failed" >&2; exit 1; }
for deb in "$dest"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dest/root"
done

root=$dest/root
libdir=$root/usr/lib/x86_64-linux-gnu
loader=$libdir/ld-linux-x86-64.so.2
[ -e "$loader" ] || loader=$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
# DT_RPATH (--force-rpath), unlike RUNPATH, also applies to the libraries'
# own dependencies (libluv -> libuv, …), so none of them come from the system.
patchelf --set-interpreter "$loader" --force-rpath \
	--set-rpath "$libdir:$root/lib/x86_64-linux-gnu:$libdir/lua/5.1" "$root/usr/bin/nvim"
cat >"$launcher" <<LAUNCHER
#!/bin/sh
# Launcher written by editors/scripts/install-nvim.sh (patchelf, $suite): Debian $suite's nvim with its own glibc.
export VIMRUNTIME="$root/usr/share/nvim/runtime"
exec "$root/usr/bin/nvim" "\$@"
LAUNCHER
chmod +x "$launcher"
"$launcher" --version | head -1 >&2
