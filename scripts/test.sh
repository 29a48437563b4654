#!/usr/bin/env bash
# Every test: formatting, lints (native and wasm32), native tests, browser tests
# (wasm-bindgen-test in headless Chromium), the release build and the end-to-end test.
# Installs what is missing first. Screenshots and measurements land in e2e-artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh --browser
source scripts/env.sh

step() {
  local name="$1"; shift
  printf '\n\033[1m== %s\033[0m\n' "$name"
  local t0=$SECONDS
  "$@"
  printf '\033[1m== %s: ok (%ss)\033[0m\n' "$name" "$((SECONDS - t0))"
}

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
step "cargo fmt --check" cargo fmt --check
step "clippy (native)" cargo clippy --all-targets -- -D warnings
step "clippy (wasm32)" cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings
step "native tests" cargo test
step "browser tests (wasm-bindgen-test, headless Chromium)" env \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver \
  WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --target wasm32-unknown-unknown --test web
step "release site" scripts/build-site.sh
step "CLI for the end-to-end comparison" cargo build --release --bin lab
step "fuzz (mutated preset files through the CLI, 90 s)" python3 tests/fuzz/fuzz_cli.py target/release/lab --seconds "${FUZZ_SECONDS:-90}"
step "end-to-end (release site, headless Chromium via WebDriver)" python3 tests/e2e/run.py dist e2e-artifacts target/release/lab
echo
echo "all tests passed; screenshots in e2e-artifacts/"
