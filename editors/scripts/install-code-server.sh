#!/usr/bin/env bash
# install-code-server.sh installs code-server (VS Code in a browser) into a
# private folder, offline apart from the npm registry and Debian's packages,
# and makes sure Debian's chromium (which drives it in tests) is installed.
#
# code-server 4.100.3 (= VS Code 1.100.3) is the newest that runs on Node 20.
# Its install builds native modules (needs libkrb5-dev) and downloads ripgrep
# from GitHub, which is not reachable: the download cache of @vscode/ripgrep
# is pre-seeded with Debian's rg. node-pty's postinstall runs `npx node-gyp`,
# hence npm_config_yes.
#
# Usage: install-code-server.sh [DEST]   (default .cache/code-server).
set -euo pipefail

version=4.100.3
dest=$(mkdir -p "${1:-.cache/code-server}" && cd "${1:-.cache/code-server}" && pwd)
bin=$dest/node_modules/.bin/code-server

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v rg >/dev/null || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
	echo "install-code-server: apt-get install ${need_apt[*]}" >&2
	apt_install() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "$@"; }
	apt_install "${need_apt[@]}" >"$dest/apt.log" 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=600 update -q >>"$dest/apt.log" 2>&1 && apt_install "${need_apt[@]}" >>"$dest/apt.log" 2>&1; } ||
		{ tail -20 "$dest/apt.log" >&2; echo "install-code-server: apt-get install failed" >&2; exit 1; }
fi

# code-server writes a default config on every start: keep it out of ~/.config.
export XDG_CONFIG_HOME=$dest/xdg-config
if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null | tail -1 | cut -d' ' -f1)" = "$version" ]; then
	exit 0
fi

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
