#!/usr/bin/env bash
# install-code-server.sh installs code-server (VS Code in a browser) into a
# private folder, offline apart from the npm registry and Debian's packages,
# and makes sure Debian's chromium (which drives it in tests) is installed.
#
# code-server 4.100.3 (= VS Code 1.100.3) is the newest that runs on Node 20.
# Its install builds native modules (argon2, node-pty, kerberos) with node-gyp,
# which needs g++, make, python3, libkrb5-dev and Node's C headers: npm runs
# through npm-env.sh, which points npm_config_nodedir at the headers on this
# machine (node-gyp would otherwise try to download them, which fails offline)
# and uses a private HOME and npm cache under .cache, so nothing in the user's
# ~/.npmrc is needed or read. @vscode/ripgrep downloads rg from GitHub, which
# is not reachable: its download cache is pre-seeded with Debian's rg.
# node-pty's postinstall runs `npx node-gyp`, hence npm_config_yes.
#
# Debian packages missing from the machine are installed with
# apt-get --no-install-recommends, which needs root; as another user the
# script stops and says which packages to install and why.
#
# A finished install is re-done only when this script or npm-env.sh changed
# (their hash is stored in DEST/.acode-installed).
#
# Usage: install-code-server.sh [DEST]   (default .cache/code-server).
set -euo pipefail

version=4.100.3
dest=$(mkdir -p "${1:-.cache/code-server}" && cd "${1:-.cache/code-server}" && pwd)
bin=$dest/node_modules/.bin/code-server

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Each missing package, with why it is needed.
need_apt=()
why=()
want_pkg() { need_apt+=("$1"); why+=("  $1: $2"); }
command -v chromium >/dev/null || {
	want_pkg chromium "the VS Code end-to-end test drives code-server with headless chromium"
	fc-list 2>/dev/null | grep -q . || want_pkg fonts-dejavu-core "chromium needs a font to render code-server"
}
command -v rg >/dev/null || want_pkg ripgrep "code-server's search runs rg (GitHub's download of it is not reachable)"
dpkg -s libkrb5-dev >/dev/null 2>&1 || want_pkg libkrb5-dev "code-server's kerberos native module is built against it"
command -v g++ >/dev/null || want_pkg g++ "node-gyp compiles code-server's native modules (C++)"
command -v make >/dev/null || want_pkg make "node-gyp builds with make"
command -v python3 >/dev/null || want_pkg python3 "node-gyp is run by python3"
if [ ${#need_apt[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		{
			echo "install-code-server: needs root to apt-get install ${need_apt[*]}, because:"
			printf '%s\n' "${why[@]}"
			echo "Install them once as root, then re-run make:"
			echo "  sudo apt-get install --no-install-recommends ${need_apt[*]}"
		} >&2
		exit 1
	fi
	command -v apt-get >/dev/null || {
		echo "install-code-server: needs ${need_apt[*]} and there is no apt-get; install them with your package manager:" >&2
		printf '%s\n' "${why[@]}" >&2
		exit 1
	}
	echo "install-code-server: apt-get install --no-install-recommends ${need_apt[*]}" >&2
	apt_install() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$@"; }
	apt_install "${need_apt[@]}" >"$dest/apt.log" 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=600 update -q >>"$dest/apt.log" 2>&1 && apt_install "${need_apt[@]}" >>"$dest/apt.log" 2>&1; } ||
		{ tail -20 "$dest/apt.log" >&2; echo "install-code-server: apt-get install failed (log: $dest/apt.log)" >&2; exit 1; }
fi

# code-server writes a default config on every start: keep it out of ~/.config.
export XDG_CONFIG_HOME=$dest/xdg-config
stamp=$dest/.acode-installed
recipe=$(cat "$here/install-code-server.sh" "$here/npm-env.sh" | sha256sum | cut -d' ' -f1)
if [ -x "$bin" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$recipe" ] &&
	[ "$("$bin" --version 2>/dev/null | tail -1 | cut -d' ' -f1)" = "$version" ]; then
	exit 0
fi
rm -f "$stamp"

# HOME, npm's cache and config, and node-gyp's nodedir: see npm-env.sh.
# shellcheck source=npm-env.sh
source "$here/npm-env.sh"
export XDG_CONFIG_HOME=$dest/xdg-config

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rg_cache=$tmp/vscode-ripgrep-cache-1.15.11
mkdir -p "$rg_cache"
tar -czf "$rg_cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

echo "install-code-server: npm install code-server@$version (about 1.5 min)" >&2
cd "$dest"
[ -f package.json ] || echo '{"name":"acode-code-server","private":true}' >package.json
TMPDIR=$tmp npm_config_yes=true npm install --no-audit --no-fund --unsafe-perm --save-exact \
	"code-server@$version" >"$dest/npm.log" 2>&1 ||
	{ tail -30 "$dest/npm.log" >&2; echo "install-code-server: npm install failed (log: $dest/npm.log)" >&2; exit 1; }
"$bin" --version 2>/dev/null | tail -1 >&2
echo "$recipe" >"$stamp"
