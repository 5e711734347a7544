#!/usr/bin/env bash
# Builds the web pages, the tenant console and the client portal (called by
# src/http/CMakeLists.txt): installs the pinned packages of
# package-lock.json, generates the API's types from the public OpenAPI
# document, type-checks the sources against them (so the pages and the API
# cannot drift apart) and bundles each into one script.
#
#   build.sh SOURCE_DIR WORK_DIR OPENAPI_JSON OUT_DIR
#
# OUT_DIR gets console.html, console.js, portal.html, portal.js and web.css.
set -euo pipefail
src=$1 work=$2 openapi=$3 out=$4
mkdir -p "$work" "$out"
cp "$src/package.json" "$src/package-lock.json" "$src/tsconfig.json" "$work/"
rm -rf "$work/src"
cp -R "$src/src" "$work/src"
# Installed once per lock file.
if ! cmp -s "$src/package-lock.json" "$work/node_modules/.vcs-installed-lock" 2>/dev/null; then
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$src/package-lock.json" "$work/node_modules/.vcs-installed-lock"
fi
mkdir -p "$work/src/generated"
# A field with a default is optional in a request (--default-non-nullable
# would make it required).
# Its lint notes about the document go to a log, shown only when it fails.
"$work/node_modules/.bin/openapi-typescript" "$openapi" --output "$work/src/generated/api.d.ts" \
  --default-non-nullable false >"$work/openapi-typescript.log" 2>&1 ||
  { cat "$work/openapi-typescript.log" >&2; exit 1; }
(cd "$work" && node_modules/.bin/tsc -p tsconfig.json)
for app in console portal; do
  "$work/node_modules/.bin/esbuild" "$work/src/$app/main.ts" --bundle --format=esm --minify \
    --target=es2020 --log-level=warning --outfile="$out/$app.js"
  cp "$src/$app.html" "$out/$app.html"
done
cp "$src/src/web.css" "$out/web.css"
