#!/usr/bin/env bash
# Sets up and runs every test: the engine natively, then the built site in headless
# Chromium (WebGPU through SwiftShader, and the CPU fallback).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"
bash scripts/setup.sh
started=$SECONDS

step "formatting (cargo fmt --check)"
cargo fmt --all --check

# Release mode: the same compiled dependencies serve tests, benchmarks and model runs.
step "native tests (cargo test --release)"
cargo test --release --locked --workspace --exclude gatepath-app
# The app's shared library (protocol, manifest, exports) natively; its two binaries
# only build for the browser.
cargo test --release --locked -p gatepath-app --lib

step "building the site (trunk build)"
trunk build

step "browser tests (headless Chromium)"
node --test --test-concurrency=1 tests/browser/

step "all tests passed in $((SECONDS - started)) s"
