"""Writes the seed of the `gguf` fuzz target: a whole Llama GGUF small enough to load
thousands of times a second (hidden 32, one layer, 16 tokens), with Q8_0, Q4_1, Q4_0,
F16 and F32 tensors, a byte-level BPE vocabulary with merges and control tokens, and a
chat template. Needs the `gguf` and `numpy` packages from PyPI:
    python fuzz/seeds/tiny_llama.py tests/fixtures/tiny-llama.gguf
(also the seed of fuzz/corpus/gguf/; the engine tests use it for bad-input checks)
"""

import sys

import numpy as np
from gguf import GGMLQuantizationType as T, GGUFWriter, quants

rng = np.random.default_rng(7)
hidden, ff, heads, kv_heads, context = 32, 64, 2, 1, 16
tokens = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "a", "b", "Ġ", "Ġa", "Ġb",
          "1", "2", "Ã", "¼", "ab", "Ġab", "\n", "Ċ"]
types = [3, 3, 3] + [1] * (len(tokens) - 3)
merges = ["Ġ a", "Ġ b", "a b", "Ġa b"]

w = GGUFWriter(sys.argv[1], "llama")
w.add_block_count(1)
w.add_context_length(context)
w.add_embedding_length(hidden)
w.add_feed_forward_length(ff)
w.add_head_count(heads)
w.add_head_count_kv(kv_heads)
w.add_rope_freq_base(10000.0)
w.add_layer_norm_rms_eps(1e-5)
w.add_tokenizer_model("gpt2")
w.add_tokenizer_pre("smollm")
w.add_token_list(tokens)
w.add_token_types(types)
w.add_token_merges(merges)
w.add_bos_token_id(1)
w.add_eos_token_id(2)
w.add_chat_template("{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


def add(name, shape, kind):
    data = rng.standard_normal(shape).astype(np.float32) * 0.2
    if kind == T.F32:
        w.add_tensor(name, data)
    elif kind == T.F16:
        w.add_tensor(name, data.astype(np.float16))
    else:
        w.add_tensor(name, quants.quantize(data, kind), raw_dtype=kind)


add("token_embd.weight", (len(tokens), hidden), T.Q8_0)
add("blk.0.attn_norm.weight", (hidden,), T.F32)
add("blk.0.attn_q.weight", (hidden, hidden), T.Q4_1)
add("blk.0.attn_k.weight", (hidden // heads * kv_heads, hidden), T.Q4_0)
add("blk.0.attn_v.weight", (hidden // heads * kv_heads, hidden), T.F16)
add("blk.0.attn_output.weight", (hidden, hidden), T.Q4_1)
add("blk.0.ffn_norm.weight", (hidden,), T.F32)
add("blk.0.ffn_gate.weight", (ff, hidden), T.Q4_1)
add("blk.0.ffn_up.weight", (ff, hidden), T.Q8_0)
add("blk.0.ffn_down.weight", (hidden, ff), T.Q4_1)
add("output_norm.weight", (hidden,), T.F32)

w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
