#!/usr/bin/env bash
# Installs what building (and, with --browser, testing) needs, from the registries only.
# Idempotent: each step checks for the right version first and is a quick no-op when the
# tool is already there. See ../shared/docs/toolchain.md for why each piece is pinned.
#
#   scripts/install-tools.sh            wasm32 target, Trunk, wasm-bindgen CLI, wasm-opt
#   scripts/install-tools.sh --browser  the same, plus Chromium, ChromeDriver and CJK fonts
#
# Afterwards, `source scripts/env.sh` puts the tools on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
# The accessibility checker the end-to-end test injects into each page (--browser only).
AXE_VERSION=4.14.1
want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

log() { printf '\033[1m[install]\033[0m %s\n' "$*"; }

# 1. The wasm32 target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for comp in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$comp"; then
    log "adding rustup component $comp"
    rustup component add "$comp"
  fi
done

# 2. Trunk, pinned: 0.22 needs a newer rustc than this machine can have.
if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
  log "installing trunk $TRUNK_VERSION (about 5 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# 3. The wasm-bindgen CLI must match the wasm-bindgen crate in Cargo.lock exactly.
#    Without --locked: with it, cargo fails to resolve one of the CLI's own dependencies.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$WB_VERSION" ]; then
  echo "could not read the wasm-bindgen version from Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WB_VERSION" ] ||
   ! command -v wasm-bindgen-test-runner >/dev/null; then
  log "installing wasm-bindgen-cli $WB_VERSION (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# 4. wasm-opt from the npm package binaryen (Debian's is too old for rustc 1.95 output),
#    installed inside the project so nothing global changes.
if ! (wasm-opt --version 2>/dev/null | grep -q "version $BINARYEN_VERSION"); then
  log "installing wasm-opt (npm binaryen@$BINARYEN_VERSION) into .tools/"
  mkdir -p .tools/binaryen
  npm install --silent --no-audit --no-fund --prefix .tools/binaryen "binaryen@$BINARYEN_VERSION"
fi

# 5. For the tests: Chromium and its driver from Debian, CJK fonts for screenshots, and
#    axe-core (npm) for the accessibility checks.
if [ "$want_browser" = 1 ]; then
  if [ ! -f .tools/axe/node_modules/axe-core/axe.min.js ] ||
     ! grep -q "\"version\": \"$AXE_VERSION\"" .tools/axe/node_modules/axe-core/package.json; then
    log "installing axe-core@$AXE_VERSION into .tools/"
    mkdir -p .tools/axe
    npm install --silent --no-audit --no-fund --prefix .tools/axe "axe-core@$AXE_VERSION"
  fi
  missing=()
  [ -x /usr/bin/chromium ] || missing+=(chromium)
  [ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
  [ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} with apt"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

log "tools ready: $(trunk --version), $(wasm-bindgen --version), wasm-opt $(wasm-opt --version | awk '{print $3}')"
