#!/usr/bin/env bash
# Installs what is missing, builds the site with Trunk (offline) and serves it at
# http://127.0.0.1:8080 (PORT=... to change), rebuilding on change.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
source scripts/env.sh
PORT="${PORT:-8080}"
echo
echo "  Resilience Lab: http://127.0.0.1:$PORT/"
echo
exec trunk serve --offline --release --port "$PORT" --address 127.0.0.1 --public-url /
