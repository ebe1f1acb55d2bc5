#!/usr/bin/env bash
# npm-env.sh runs a command (npm ci, npm install, …) in an npm environment
# that does not depend on the user's HOME, so an install behaves the same on
# a fresh machine with an empty HOME as on a developer's:
#
#   - HOME is a private folder (ACODE_NPM_HOME, default <repo>/.cache/npm-home):
#     no ~/.npmrc, ~/.cache/node-gyp or ~/.config is read; npm's cache lives
#     there too (empty on a fresh machine, warm afterwards);
#   - npm_config_* variables inherited from the caller are dropped, apart from
#     the network ones (registry, proxies, CA);
#   - npm_config_nodedir points at Node's C headers on this machine, so
#     node-gyp builds native modules (code-server's argon2, node-pty) without
#     trying to download the headers from nodejs.org, which fails offline.
#
# Usage: npm-env.sh CMD [ARGS…]        runs CMD in that environment
#        source npm-env.sh              exports it into the calling script
set -euo pipefail

npm_env_die() {
	echo "npm-env: $*" >&2
	exit 1
}

# npm_env_nodedir prints the prefix whose include/node holds the headers of the
# node on PATH (node-gyp's nodedir), or fails saying how to get them.
npm_env_nodedir() {
	local node real want prefix h got
	node=$(command -v node) ||
		npm_env_die "node is not on PATH; install Node.js 20 (Debian: apt-get install --no-install-recommends nodejs libnode-dev)"
	real=$(readlink -f "$node")
	want=$(node -p 'process.versions.node')
	for prefix in "$(dirname "$(dirname "$real")")" "$(node -p 'process.config.variables.node_prefix || ""')" /usr /usr/local; do
		h=$prefix/include/node/node_version.h
		[ -n "$prefix" ] && [ -f "$h" ] || continue
		got=$(awk '/define NODE_(MAJOR|MINOR|PATCH)_VERSION/ {v = v (v == "" ? "" : ".") $3} END {print v}' "$h")
		if [ "${got%%.*}" != "${want%%.*}" ]; then
			echo "npm-env: skipping $prefix/include/node: headers of Node $got, but node is $want" >&2
			continue
		fi
		echo "$prefix"
		return 0
	done
	npm_env_die "Node's C headers (include/node/node_version.h for Node $want) are neither next to $real nor in /usr or /usr/local.
node-gyp needs them to build code-server's native modules and cannot download them here. Install them:
  Debian/Ubuntu nodejs package:  apt-get install --no-install-recommends libnode-dev
  nodejs.org or NodeSource builds ship them in <prefix>/include/node; nvm: reinstall that version"
}

npm_env_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
npm_env_home=${ACODE_NPM_HOME:-$npm_env_repo/.cache/npm-home}
mkdir -p "$npm_env_home"
npm_env_home=$(cd "$npm_env_home" && pwd)
npm_env_nodedir_value=$(npm_env_nodedir)

while read -r v; do
	case "${v,,}" in
	npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | \
		npm_config_cafile | npm_config_ca | npm_config_strict_ssl) ;;
	npm_config_*) unset "$v" ;;
	esac
done < <(compgen -e)

export HOME=$npm_env_home
export XDG_CACHE_HOME=$npm_env_home/.cache
export XDG_CONFIG_HOME=$npm_env_home/.config
export npm_config_userconfig=$npm_env_home/.npmrc
export npm_config_cache=$npm_env_home/.npm
export npm_config_nodedir=$npm_env_nodedir_value
export npm_config_update_notifier=false
export npm_config_fund=false
export npm_config_audit=false

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	[ $# -gt 0 ] || npm_env_die "usage: npm-env.sh CMD [ARGS…]"
	exec "$@"
fi
