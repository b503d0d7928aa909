#!/usr/bin/env bash
# Sets up, builds the site into dist/ with the current benchmark results for its viewer
# (#/results), and serves it on http://127.0.0.1:${PORT:-8080}/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"
bash scripts/setup.sh
step "building the site (trunk build)"
trunk build
step "building the command line (cargo build --release -p gatepath-cli)"
cargo build --release --locked -p gatepath-cli
bash scripts/results.sh dist/results/bundle.json.gz
exec node scripts/serve.mjs --dir dist --host "${HOST:-127.0.0.1}" --port "${PORT:-8080}"
