"""An independent all-MiniLM-L6-v2 forward pass in numpy, timed on the same inputs as
`gatepath embed-bench` (the same generator), for scripts/embed_bench.sh to compare.

Tokenization uses Hugging Face's `tokenizers` package on the model's tokenizer.json;
the encoder (embeddings, post-LayerNorm attention blocks, erf-GELU, mean pooling, L2
normalisation) is written here with numpy and reads model.safetensors directly.
"""

import argparse
import json
import math
import struct
import time
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

WORDS = [
    "warfarin", "is", "preferred", "for", "patients", "with", "a", "mechanical", "valve",
    "and", "atrial", "fibrillation", "while", "apixaban", "remains", "an", "option", "in",
    "most", "others", "who", "tolerate", "oral", "therapy",
]


def inputs(n, long):
    """The texts `gatepath embed-bench` uses (cli/src/embed_bench.rs, `inputs`)."""
    out = []
    for i in range(n):
        count = 98 if long else 6
        words = [WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(count)]
        words.append(f"case{i}")
        out.append(" ".join(words))
    return out


def load(path):
    data = Path(path).read_bytes()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        tensors[name] = np.frombuffer(data[base + start : base + end], dtype=np.float32).reshape(meta["shape"])
    return tensors


def erf(x):
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), vectorised: a fair numpy baseline.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return (sign * (1.0 - poly * np.exp(-a * a))).astype(np.float32)


def gelu(x):
    # erf from math is exact; vectorised over the array.
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def layer_norm(x, g, b, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def forward(w, batch, heads=12):
    b = len(batch)
    length = max(len(s) for s in batch)
    ids = np.zeros((b, length), dtype=np.int64)
    mask = np.zeros((b, length), dtype=np.float32)
    for i, s in enumerate(batch):
        ids[i, : len(s)] = s
        mask[i, : len(s)] = 1.0
    x = w["embeddings.word_embeddings.weight"][ids]
    x = x + w["embeddings.position_embeddings.weight"][:length][None]
    x = x + w["embeddings.token_type_embeddings.weight"][0][None, None]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    h = x.shape[-1]
    d = h // heads
    additive = (mask - 1.0)[:, None, None, :] * 1e9
    layer = 0
    while f"encoder.layer.{layer}.attention.self.query.weight" in w:
        p = f"encoder.layer.{layer}"
        lin = lambda t, name: t @ w[f"{p}.{name}.weight"].T + w[f"{p}.{name}.bias"]
        split = lambda t: t.reshape(b, length, heads, d).transpose(0, 2, 1, 3)
        q = split(lin(x, "attention.self.query"))
        k = split(lin(x, "attention.self.key"))
        v = split(lin(x, "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + additive
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        probs = scores / scores.sum(-1, keepdims=True)
        context = (probs @ v).transpose(0, 2, 1, 3).reshape(b, length, h)
        x = layer_norm(lin(context, "attention.output.dense") + x,
                       w[f"{p}.attention.output.LayerNorm.weight"], w[f"{p}.attention.output.LayerNorm.bias"])
        inner = gelu(lin(x, "intermediate.dense"))
        x = layer_norm(lin(inner, "output.dense") + x,
                       w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"])
        layer += 1
    pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1.0)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model-dir", default="models/all-minilm-l6-v2")
    ap.add_argument("--texts", type=int, default=64)
    args = ap.parse_args()
    w = load(Path(args.model_dir) / "model.safetensors")
    tok = Tokenizer.from_file(str(Path(args.model_dir) / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    for long in (False, True):
        for batch in (1, 32):
            texts = inputs(args.texts, long)
            ids = [e.ids for e in tok.encode_batch(texts)]
            forward(w, [tok.encode("warm " + texts[0]).ids])
            started = time.perf_counter()
            for i in range(0, len(ids), batch):
                forward(w, ids[i : i + batch])
            rate = len(ids) / (time.perf_counter() - started)
            print(f"{'long' if long else 'short'} {batch} {rate:.2f}")


if __name__ == "__main__":
    main()
