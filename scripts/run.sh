#!/usr/bin/env bash
# Sets up, builds the site into dist/ and serves it on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"
bash scripts/setup.sh
step "building the site (trunk build)"
trunk build
exec node scripts/serve.mjs --dir dist --host "${HOST:-127.0.0.1}" --port "${PORT:-8080}"
