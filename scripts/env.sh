# Sourced by the other scripts: puts the project's tools on PATH.
# shellcheck shell=bash
_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$_root/.tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
unset _root
