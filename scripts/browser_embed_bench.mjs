// The embedder's speed in the browser: opens the built site in Debian's chromium (as the
// browser tests do), once with WebGPU (SwiftShader here) and once on the CPU fallback,
// and times window.gatepathEmbed on distinct short (≈12-token) and long (≈128-token)
// texts, after a warm-up run that loads the model and compiles the kernels. Prints
// sentences/s; asserts nothing. Run after `trunk build`:
//   node scripts/browser_embed_bench.mjs [texts-per-run]

import { openApp } from '../tests/browser/harness.mjs';
import { readSelfCheck } from '../tests/browser/selfcheck.mjs';

const N = Number(process.argv[2] ?? 32);
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

for (const webgpu of [true, false]) {
  const session = await openApp({ webgpu });
  try {
    await readSelfCheck(session.page);
    const embed = (texts) => session.page.evaluate((t) => window.gatepathEmbed(t), texts);
    const warm = await embed(inputs(4, false, 'warm'));
    console.log(`${warm.backend}: warm-up (load + first kernels) ${Math.round(warm.millis)} ms`);
    for (const long of [false, true]) {
      const reply = await embed(inputs(N, long, long ? 'l' : 's'));
      const rate = (N / reply.millis) * 1000;
      console.log(`${reply.backend}: ${long ? '128' : ' 12'}-token inputs, ${N} texts in batches of 32: ${rate.toFixed(1)} sentences/s`);
    }
  } finally {
    await session.close();
  }
}
