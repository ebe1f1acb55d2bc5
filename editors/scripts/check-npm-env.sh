#!/usr/bin/env bash
# check-npm-env.sh is the regression test for installs on a fresh machine:
# with a brand-new, empty HOME and npm cache (as on a CI machine), npm-env.sh
# must give node-gyp everything it needs to build a native module offline —
# which is what code-server's install does (argon2, node-pty). A tiny N-API
# addon is built through `npm install` (npm runs node-gyp for a binding.gyp)
# and loaded. Without npm_config_nodedir node-gyp tries to download Node's
# headers and this fails, as the code-server install did. A few seconds.
#
# Usage: check-npm-env.sh   (run by `make check-npm-env`, part of `make test`)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
# Every npm install in a recipe of the Makefiles must go through npm-env.sh.
if bad=$(grep -nP '^\t.*\bnpm (ci|install)\b' "$repo"/Makefile "$repo"/mk/*.mk | grep -v 'NPM_ENV'); then
	echo "check-npm-env: FAIL: npm installs that do not run through \$(NPM_ENV) (editors/scripts/npm-env.sh), so they depend on the user's ~/.npmrc:" >&2
	echo "$bad" >&2
	exit 1
fi
mkdir -p "$repo/.cache"
work=$(mktemp -d "$repo/.cache/check-npm-env.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/pkg"

cat >"$work/pkg/package.json" <<'JSON'
{"name": "acode-gyp-check", "version": "0.0.0", "private": true, "gypfile": true}
JSON
cat >"$work/pkg/binding.gyp" <<'GYP'
{"targets": [{"target_name": "check", "sources": ["check.c"]}]}
GYP
cat >"$work/pkg/check.c" <<'C'
#include <node_api.h>

static napi_value init(napi_env env, napi_value exports) {
	napi_value v;
	napi_create_int32(env, 42, &v);
	napi_set_named_property(env, exports, "answer", v);
	return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
C

if ! (cd "$work/pkg" && ACODE_NPM_HOME=$work/home bash "$here/npm-env.sh" \
	npm install --offline --no-audit --no-fund --foreground-scripts >"$work/npm.log" 2>&1); then
	tail -25 "$work/npm.log" >&2
	echo "check-npm-env: FAIL: node-gyp cannot build a native module with an empty HOME (see above);" \
		"code-server's install would fail the same way on a fresh machine" >&2
	exit 1
fi
got=$(cd "$work/pkg" && node -p 'require("./build/Release/check.node").answer')
[ "$got" = 42 ] || { echo "check-npm-env: FAIL: the addon loaded but answered '$got', not 42" >&2; exit 1; }
echo "check-npm-env: ok (native module built offline with an empty HOME; nodedir $(ACODE_NPM_HOME=$work/home bash "$here/npm-env.sh" printenv npm_config_nodedir))"
