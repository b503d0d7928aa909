"""llama.cpp (llama-cpp-python) on the same GGUF and prompt as `gatepath llm-bench`:
prompt and decode tokens/s with greedy decoding, at the thread counts asked for.
Prints `prompt <threads> <tokens/s>` and `decode <threads> <tokens/s>` lines."""

import sys
import time

import numpy as np
from llama_cpp import Llama

model, prompt_path, decode_tokens = sys.argv[1], sys.argv[2], int(sys.argv[3])
threads = [int(t) for t in sys.argv[4:]] or [1, 2]
prompt = [int(t) for t in open(prompt_path).read().split()]

for n in threads:
    llm = Llama(model_path=model, n_ctx=1024, n_batch=512, n_threads=n,
                n_threads_batch=n, verbose=False)
    # Warm-up, as on the gatepath side.
    llm.reset()
    llm.eval(prompt[:8])
    for _ in range(4):
        llm.eval([int(np.argmax(llm.scores[llm.n_tokens - 1]))])

    llm.reset()
    started = time.perf_counter()
    llm.eval(prompt)
    prompt_rate = len(prompt) / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(decode_tokens):
        llm.eval([int(np.argmax(llm.scores[llm.n_tokens - 1]))])
    decode_rate = decode_tokens / (time.perf_counter() - started)
    print(f"prompt {n} {prompt_rate:.2f}")
    print(f"decode {n} {decode_rate:.2f}")
    del llm
