#!/usr/bin/env bash
# Runs the TypeScript example integration (dialer.ts): installs the pinned
# packages of package-lock.json, generates the API's types from the public
# OpenAPI document (docs/openapi.yaml published as the public listener's
# /openapi.json is, by scripts/lib/openapi_split.py, so no node is needed to
# generate), type-checks dialer.ts against them, compiles it and runs it.
#
#   VCS_PUBLIC_URL=http://127.0.0.1:8080 VCS_API_KEY=<tenant key> \
#     docs/examples/typescript/run.sh
#
# As docs/examples/dialer_integration.sh: RECEIVER_PORT (8090) is where the
# example receiver listens, and the service must be allowed to send
# webhooks to loopback (`outbound-allow = 127.0.0.0/8`). Needs Node.js 20,
# npm and python3.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
: "${VCS_API_KEY:?set VCS_API_KEY to a tenant API key}"
cd "$here"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Installed once per lock file.
if ! cmp -s package-lock.json node_modules/.vcs-installed-lock 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
  cp package-lock.json node_modules/.vcs-installed-lock
fi
# openapi-typescript's notes about the document are shown only when it fails.
npm run --silent generate >"$work/generate.log" 2>&1 || {
  cat "$work/generate.log" >&2
  exit 1
}
node_modules/.bin/tsc --noEmit -p tsconfig.json
# The compiled script runs as an ES module beside this package's modules.
node_modules/.bin/tsc -p tsconfig.json --outDir "$work/dist"
cp package.json "$work/"
ln -s "$here/node_modules" "$work/node_modules"
node "$work/dist/dialer.js"
