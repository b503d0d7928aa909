// SmolLM2-135M-Instruct (Q4_1 GGUF) in a real browser, on WebGPU (SwiftShader) and on the
// CPU fallback, against llama.cpp's outputs on the same file
// (tests/fixtures/smollm2-135m-q4_1.llamacpp.json): prompt token ids exactly, the argmax
// of the last position's logits, and the first 8 greedy tokens of every case (on WebGPU,
// of the near-tie case, and 3 of the others, unless GATEPATH_FULL_PARITY=1).
// On WebGPU
// the weights stay 8-bit (the file's 4-bit integers and scales, exactly) and GPU buffer
// bytes are reported. Losing the WebGPU device mid-run is a typed error, not a panic.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openCheckedApp } from './selfcheck.mjs';

const FIXTURE = JSON.parse(await readFile(new URL('../fixtures/smollm2-135m-q4_1.llamacpp.json', import.meta.url), 'utf8'));
const PROMPTS = FIXTURE.cases.map((c) => c.prompt);
const GREEDY = 8;
// A decoding step on SwiftShader costs about 11 s, so on WebGPU only the case with a
// near tie at its sixth token ("The capital of France is": " answer" vs " United") is
// followed for all 8 tokens and the others for 3; every prompt's tokens, argmax and
// top-10 logits are still checked. GATEPATH_FULL_PARITY=1 follows every case for 8.
const FULL = process.env.GATEPATH_FULL_PARITY === '1';
const greedyCounts = (webgpu) => FIXTURE.cases.map((c) =>
  (!webgpu || FULL || c.prompt === 'The capital of France is' ? GREEDY : 3));

async function checkLlm(t, { webgpu, backend }) {
  const session = await openCheckedApp({ webgpu, backend, gpuProbe: webgpu });
  const counts = greedyCounts(webgpu);
  try {
    const reply = await session.evaluate(([p, n]) => window.gatepathLlm(p, { tokens: n }), [PROMPTS, counts]);
    const gpu = webgpu ? await session.probe('bytes') : null;
    t.diagnostic(`self-check: first layer within ${reply.selfCheckError.toExponential(2)} of the host product` +
      (reply.fellBack ? ' (8-bit weights disagreed: f32 loaded)' : ''));
    assert.ok(reply.selfCheckError < 0.05, `self-check ${reply.selfCheckError}`);
    t.diagnostic(`${reply.backend}, ${reply.precision}: loaded in ${Math.round(reply.loadMillis)} ms; ` +
      `${PROMPTS.length} prompts + ${counts.join('/')} greedy tokens in ${Math.round(reply.millis)} ms ` +
      `(decoding ${(reply.decoded / reply.decodeMillis * 1000).toFixed(2)} tokens/s); ` +
      `wasm memory ${(reply.wasmMemoryBytes / 2 ** 20).toFixed(0)} MiB` +
      (webgpu ? `; GPU buffers peak ${(gpu.peak / 2 ** 20).toFixed(0)} MiB` : ''));
    let worst = 0;
    const greedyMisses = [];
    FIXTURE.cases.forEach((c, i) => {
      const got = reply.cases[i];
      assert.deepEqual(got.tokens, c.prompt_tokens, `tokens of ${JSON.stringify(c.prompt)}`);
      assert.equal(got.argmax, c.last_logits_top10[0][0], `argmax after ${JSON.stringify(c.prompt)}`);
      const same = JSON.stringify(got.greedy.slice(0, counts[i])) === JSON.stringify(c.greedy_tokens.slice(0, counts[i]));
      if (!same) greedyMisses.push(`${JSON.stringify(c.prompt.slice(-40))} → ${JSON.stringify(got.text)}`);
      const ours = new Map(got.top10.map(([id, logit]) => [id, logit]));
      for (const [id, logit] of c.last_logits_top10) {
        if (ours.has(id)) worst = Math.max(worst, Math.abs(ours.get(id) - logit));
      }
    });
    t.diagnostic(`top-10 logits shared with llama.cpp within ${worst.toFixed(3)}`);
    t.diagnostic(`first ${counts.join('/')} greedy tokens equal to llama.cpp's in ${FIXTURE.cases.length - greedyMisses.length} of ${FIXTURE.cases.length} cases` +
      (greedyMisses.length ? `; differ: ${greedyMisses.join('; ')}` : ''));
    assert.deepEqual(greedyMisses, [], 'the first greedy tokens of every case equal llama.cpp\'s');
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
}

// On WebGPU the weights are 8-bit and activations are rounded as llama.cpp rounds them
// for its Q8_1 products (f16 block scales and sums), which is what keeps the near tie of
// "The capital of France is" at its sixth token (" answer" vs " United") on llama.cpp's
// side. About 6 minutes on SwiftShader (14 with GATEPATH_FULL_PARITY=1).
test('WebGPU: SmolLM2 matches llama.cpp', { timeout: 2_400_000 }, (t) =>
  checkLlm(t, { webgpu: true, backend: 'webgpu' }));

test('CPU fallback: SmolLM2 matches llama.cpp', { timeout: 1_200_000 }, (t) =>
  checkLlm(t, { webgpu: false, backend: 'cpu' }));

test('WebGPU: a device lost while the model loads is a typed error, and the page lives on', { timeout: 600_000 }, async (t) => {
  const session = await openCheckedApp({ webgpu: true, backend: 'webgpu', gpuProbe: true });
  try {
    const outcome = session.page.evaluate(([p]) =>
      window.gatepathLlm(p, { tokens: 4 }).then(() => 'finished', (e) => `error: ${e}`), [PROMPTS.slice(0, 1)]);
    // The GGUF is fetched and uploaded within the first seconds; the device goes while
    // the weights are on their way or being checked.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await session.probe('loseDevices');
    const message = await outcome;
    t.diagnostic(message);
    assert.match(message, /^error: .*device/i);
    // No panic: the page still answers, with the same typed error.
    const again = await session.evaluate(([p]) =>
      window.gatepathLlm(p, { tokens: 1 }).then(() => 'finished', (e) => `error: ${e}`), [PROMPTS.slice(0, 1)]);
    assert.match(again, /^error: .*device/i);
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});
