#!/usr/bin/env bash
# The embedder benchmark: gatepath's burn encoder natively (CPU backend) against an
# independent numpy forward pass on the same inputs, in one run; prints sentences/s of
# both and the ratio (gatepath / numpy), plus gatepath's peak memory.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"

venv="$GATEPATH_CACHE/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  step "creating $venv (numpy, tokenizers from PyPI)"
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c "import numpy, tokenizers" 2>/dev/null \
  || "$venv/bin/pip" install --quiet "numpy==2.3.5" "tokenizers==0.22.1"
python3 scripts/fetch_models.py >/dev/null

step "building gatepath"
cargo build --release --locked -p gatepath-cli --quiet
ours=$("$CARGO_TARGET_DIR/release/gatepath" embed-bench --plain)
step "numpy reference"
theirs=$("$venv/bin/python" scripts/embed_bench.py)

printf '%-6s %5s %14s %14s %7s\n' inputs batch gatepath/s numpy/s ratio
while read -r kind batch rate; do
  [ "$kind" = peak_kib ] && continue
  ref=$(printf '%s\n' "$theirs" | awk -v k="$kind" -v b="$batch" '$1==k && $2==b {print $3}')
  ratio=$(awk -v a="$rate" -v b="$ref" 'BEGIN { printf "%.2f", a / b }')
  printf '%-6s %5s %14s %14s %6sx\n' "$kind" "$batch" "$rate" "$ref" "$ratio"
done <<< "$ours"
peak=$(printf '%s\n' "$ours" | awk '$1=="peak_kib" {printf "%.1f", $2/1024}')
echo "gatepath peak memory: ${peak} MiB"
