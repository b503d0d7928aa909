#!/usr/bin/env bash
# The LLM benchmark: gatepath's burn decoder natively (CPU backend) against llama.cpp
# (llama-cpp-python from PyPI, built from source on first use) on the same GGUF and the
# same prompt tokens, in one run; prints prompt and decode tokens/s of both, llama.cpp
# with 1 and 2 threads, the ratios, and gatepath's peak memory. Asserts nothing.
#   bash scripts/llm_bench.sh [prompt-tokens] [decode-tokens]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$GATEPATH_ROOT"
prompt_tokens="${1:-128}"
decode_tokens="${2:-64}"

venv="$GATEPATH_CACHE/llm-bench-venv"
if [ ! -x "$venv/bin/python" ]; then
  step "creating $venv"
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import llama_cpp, numpy" 2>/dev/null; then
  step "installing llama-cpp-python 0.3.36 (compiles llama.cpp: several minutes on 2 cores)"
  "$venv/bin/pip" install --quiet "numpy==2.3.5" "cmake<4" "ninja"
  CMAKE_ARGS="-DGGML_NATIVE=ON" "$venv/bin/pip" install --quiet --no-cache-dir "llama-cpp-python==0.3.36"
fi
python3 scripts/fetch_models.py >/dev/null

step "building gatepath"
cargo build --release --locked -p gatepath-cli --quiet
gatepath="$CARGO_TARGET_DIR/release/gatepath"
model="models/smollm2-135m-instruct-q4_1/SmolLM2-135M-Instruct.Q4_1.gguf"
prompt_file="$(mktemp)"
trap 'rm -f "$prompt_file"' EXIT
"$gatepath" llm-bench --model "$model" --prompt-tokens "$prompt_tokens" --print-prompt > "$prompt_file"

step "gatepath (burn, CPU backend, 2 threads)"
ours=$("$gatepath" llm-bench --model "$model" --prompt-tokens "$prompt_tokens" --decode-tokens "$decode_tokens" --plain)
step "llama.cpp"
theirs=$("$venv/bin/python" scripts/llm_bench.py "$model" "$prompt_file" "$decode_tokens" 1 2)

printf '%-7s %12s %14s %14s %9s %9s\n' phase gatepath/s llama.cpp-1t/s llama.cpp-2t/s ratio-1t ratio-2t
for phase in prompt decode; do
  rate=$(printf '%s\n' "$ours" | awk -v p="$phase" '$1==p {print $2}')
  one=$(printf '%s\n' "$theirs" | awk -v p="$phase" '$1==p && $2==1 {print $3}')
  two=$(printf '%s\n' "$theirs" | awk -v p="$phase" '$1==p && $2==2 {print $3}')
  r1=$(awk -v a="$rate" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
  r2=$(awk -v a="$rate" -v b="$two" 'BEGIN { printf "%.2f", a / b }')
  printf '%-7s %12s %14s %14s %8sx %8sx\n' "$phase" "$rate" "$one" "$two" "$r1" "$r2"
done
peak=$(printf '%s\n' "$ours" | awk '$1=="peak_kib" {printf "%.1f", $2/1024}')
echo "gatepath peak memory: ${peak} MiB (prompt ${prompt_tokens} tokens, ${decode_tokens} decoded)"
