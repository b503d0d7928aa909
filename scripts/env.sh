# Sourced by the project's scripts: one place for paths every step shares.
# shellcheck shell=bash

# One target dir outside the clone, shared by every build of this project on this machine
# (developer builds, fresh clones, CI), so burn is compiled once, not once per clone.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/gatepath/target}"
# Downloaded model wheels (scripts/fetch_models.py).
export GATEPATH_CACHE="${GATEPATH_CACHE:-$HOME/.cache/gatepath}"
# wasm-opt from npm's binaryen@132 must win over any other wasm-opt (Debian's 108
# corrupts wasm-bindgen 0.2.130 output); cargo-installed trunk and wasm-bindgen next.
GATEPATH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export GATEPATH_ROOT
export PATH="$GATEPATH_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Progress lines the scripts print between steps.
# Each names the seconds since the script started, so a slow step shows in any log.
step() { printf '\033[1m==> [%d s] %s\033[0m\n' "$SECONDS" "$*"; }
