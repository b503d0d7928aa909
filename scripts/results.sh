#!/usr/bin/env bash
# Makes the benchmark viewer's results bundle and puts it where the site publishes it:
#
#   bash scripts/results.sh [OUT]          (default: dist/results/bundle.json.gz)
#
# Runs `gatepath bench-all` — every strategy with the lexical and the MiniLM embedder —
# over the evaluation sets it finds: the project's own held-out condqa set, and the
# development sets under $GATEPATH_DATA (default: ../shared/data next to the checkout):
# condqa/dev.jsonl, bioasq/10B1_golden.json, pubmedqa/dev.json. A set that is not
# there is skipped with a note.
#
# The bundle is kept in $GATEPATH_CACHE/results under a key made of the gatepath binary,
# the evaluation files, the model files and these arguments, so running this again
# without a change copies it instead of running the benchmark again.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"

out="${1:-dist/results/bundle.json.gz}"
data_dir="${GATEPATH_DATA:-$GATEPATH_ROOT/../shared/data}"
gatepath="$CARGO_TARGET_DIR/release/gatepath"
[ -x "$gatepath" ] || { echo "results: $gatepath is missing; build it with cargo build --release -p gatepath-cli" >&2; exit 1; }

args=(bench-all --data tests/data/condqa-heldout.jsonl)
for set in condqa/dev.jsonl bioasq/10B1_golden.json pubmedqa/dev.json; do
  if [ -f "$data_dir/$set" ]; then
    args+=(--data "$(realpath --relative-to=. "$data_dir/$set")")
  else
    echo "results: $data_dir/$set is not there; the bundle leaves it out (set GATEPATH_DATA to the folder that holds it)"
  fi
done
args+=(--embedder lexical --embedder minilm --model-dir models/all-minilm-l6-v2)

key=$( {
  printf '%s\n' "${args[@]}"
  sha256sum "$gatepath" models/all-minilm-l6-v2/*
  for a in "${args[@]}"; do [ -f "$a" ] && sha256sum "$a"; done
  true
} | sha256sum | cut -c1-16)
cached="$GATEPATH_CACHE/results/bundle-$key.json.gz"
if [ ! -s "$cached" ]; then
  step "benchmark results for the viewer (gatepath bench-all; a few minutes, once per build)"
  mkdir -p "$(dirname "$cached")"
  "$gatepath" "${args[@]}" --out "$cached.partial.gz"
  mv "$cached.partial.gz" "$cached"
fi
mkdir -p "$(dirname "$out")"
cp "$cached" "$out"
echo "results: $out ($(du -h "$out" | cut -f1), made by: gatepath ${args[*]})"
