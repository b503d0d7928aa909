// all-MiniLM-L6-v2 in a real browser, on WebGPU (SwiftShader) and on the CPU fallback,
// against the reference outputs of an independent implementation
// (tests/fixtures/minilm-l6-v2.reference.json): token ids exactly, every embedding
// within 1e-4 (max abs), the cosine matrix within 1e-4.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { openApp } from './harness.mjs';
import { readSelfCheck } from './selfcheck.mjs';

const FIXTURE = JSON.parse(await readFile(new URL('../fixtures/minilm-l6-v2.reference.json', import.meta.url), 'utf8'));
const TEXTS = FIXTURE.cases.map((c) => c.text);
const TOLERANCE = 1e-4;

function cosine(a, b) {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return dot / Math.sqrt(na * nb);
}

async function checkEmbedder(t, { webgpu, backend }) {
  const session = await openApp({ webgpu });
  try {
    const selfCheck = await readSelfCheck(session.page);
    assert.equal(selfCheck.state, 'passed', session.report());
    const shown = await session.page.getByTestId('backend').getAttribute('data-backend');
    assert.equal(shown, backend, session.report());

    const ids = await session.page.evaluate((texts) => window.gatepathTokenize(texts), TEXTS);
    assert.deepEqual(ids, FIXTURE.cases.map((c) => c.token_ids));

    const reply = await session.page.evaluate((texts) => window.gatepathEmbed(texts), TEXTS);
    t.diagnostic(`${reply.backend}: ${TEXTS.length} sentences in ${Math.round(reply.millis)} ms (first run, with loading kernels)`);
    assert.equal(reply.vectors.length, TEXTS.length);
    let worst = 0;
    FIXTURE.cases.forEach((c, i) => {
      const v = reply.vectors[i];
      assert.equal(v.length, c.embedding.length);
      const diff = Math.max(...v.map((x, j) => Math.abs(x - c.embedding[j])));
      worst = Math.max(worst, diff);
      assert.ok(diff <= TOLERANCE, `${JSON.stringify(c.text)}: max |Δ| ${diff}`);
    });
    t.diagnostic(`worst max |Δ| to the reference: ${worst.toExponential(2)}`);
    FIXTURE.cosine.forEach((row, i) => row.forEach((expected, j) => {
      const c = cosine(reply.vectors[i], reply.vectors[j]);
      assert.ok(Math.abs(c - expected) <= TOLERANCE, `cosine[${i}][${j}] ${c} vs ${expected}`);
    }));
    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
}

test('WebGPU: all-MiniLM-L6-v2 matches the reference', { timeout: 600_000 }, (t) =>
  checkEmbedder(t, { webgpu: true, backend: 'webgpu' }));

test('CPU fallback: all-MiniLM-L6-v2 matches the reference', { timeout: 600_000 }, (t) =>
  checkEmbedder(t, { webgpu: false, backend: 'cpu' }));
