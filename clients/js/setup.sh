#!/bin/sh
# Installs the package's pinned devDependencies (TypeScript, React and its types for the
# tests) from package-lock.json with `npm ci` — only when the lock file changed since the
# last install, from npm's cache when it can — generates the typed client's types from the
# repository's OpenAPI document (src/generated/api.ts, openapi/generate.mjs) and builds
# dist/ with tsc. Run by CTest (clients_js_setup) and usable by hand.
set -eu
cd "$(dirname "$0")"
if ! cmp -s package-lock.json node_modules/.imprint-lock 2>/dev/null; then
  npm ci --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error
  cp package-lock.json node_modules/.imprint-lock
fi
node openapi/generate.mjs --from ../../resources/openapi/openapi.json
exec node node_modules/typescript/bin/tsc -p tsconfig.json
