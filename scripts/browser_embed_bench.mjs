// The embedder's speed in the browser: opens the built site in Debian's chromium (as the
// browser tests do), once with WebGPU (SwiftShader here; 8-bit and f32 weights) and once
// on the CPU fallback (f32), and times window.gatepathEmbed on distinct short (≈12-token)
// and long (≈128-token) texts at batch 1 and one batch of all texts, after a warm-up run
// that loads the model and compiles the kernels. Prints sentences/s and the page's wasm
// memory (linear memory only grows, so that is its peak); asserts nothing. SwiftShader
// runs WebGPU on the CPU, slowly: 8 texts per run there, 32 on the CPU fallback.
// Run after `trunk build`:
//   node scripts/browser_embed_bench.mjs [texts-per-run-on-webgpu] [texts-per-run-on-cpu]

import { openApp } from '../tests/browser/harness.mjs';
import { readSelfCheck } from '../tests/browser/selfcheck.mjs';

const N_WEBGPU = Number(process.argv[2] ?? 8);
const N_CPU = Number(process.argv[3] ?? 32);
const WORDS = ['warfarin', 'is', 'preferred', 'for', 'patients', 'with', 'a', 'mechanical', 'valve',
  'and', 'atrial', 'fibrillation', 'while', 'apixaban', 'remains', 'an', 'option', 'in',
  'most', 'others', 'who', 'tolerate', 'oral', 'therapy'];

// The same generator as `gatepath embed-bench`.
function inputs(n, long, tag) {
  return Array.from({ length: n }, (_, i) => {
    const count = long ? 98 : 6;
    const words = Array.from({ length: count }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]);
    words.push(`case${i}${tag}`);
    return words.join(' ');
  });
}

const RUNS = [
  { webgpu: true, precision: 'q8', n: N_WEBGPU },
  { webgpu: true, precision: 'f32', n: N_WEBGPU },
  { webgpu: false, precision: 'f32', n: N_CPU },
];

for (const { webgpu, precision, n } of RUNS) {
  const session = await openApp({ webgpu });
  try {
    await readSelfCheck(session.page);
    const embed = (texts) => session.evaluate(([t, p]) => window.gatepathEmbed(t, { precision: p }), [texts, precision]);
    const warm = await embed(inputs(4, false, 'warm'));
    const name = `${warm.backend}, ${precision}`;
    console.log(`${name}: warm-up (load + first kernels) ${Math.round(warm.millis)} ms`);
    let memory = warm.wasmMemoryBytes;
    for (const long of [false, true]) {
      for (const batch of [1, n]) {
        const texts = inputs(n, long, `${long ? 'l' : 's'}${batch}`);
        let millis = 0;
        for (let i = 0; i < texts.length; i += batch) {
          const reply = await embed(texts.slice(i, i + batch));
          millis += reply.millis;
          memory = Math.max(memory, reply.wasmMemoryBytes);
        }
        const rate = (n / millis) * 1000;
        console.log(`${name}: ${long ? '128' : ' 12'}-token inputs, batch ${String(batch).padStart(2)}: ${rate.toFixed(1)} sentences/s`);
      }
    }
    console.log(`${name}: wasm memory ${(memory / 2 ** 20).toFixed(0)} MiB`);
  } finally {
    await session.close();
  }
}
