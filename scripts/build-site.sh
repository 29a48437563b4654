#!/usr/bin/env bash
# Builds the release site into dist/ with relative asset URLs, so it works from any static
# host under any sub-path (and from `python3 -m http.server` in dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
source scripts/env.sh
trunk build --release --offline
# The bundle size the README reports: wasm + JS, gzipped.
wasm=$(ls dist/*_bg.wasm) js=$(ls dist/resilience-lab-*.js)
printf 'bundle: wasm %s B (gzip %s B), js %s B (gzip %s B), total gzipped %s B\n' \
  "$(stat -c %s $wasm)" "$(gzip -9c $wasm | wc -c)" "$(stat -c %s $js)" "$(gzip -9c $js | wc -c)" \
  "$(( $(gzip -9c $wasm | wc -c) + $(gzip -9c $js | wc -c) ))"
