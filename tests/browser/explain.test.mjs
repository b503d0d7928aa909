// "Explain in words" in a real browser on the CPU fallback: the shipped LLM
// (SmolLM2-135M, from the site's models/) restates the Lyme answer's evidence; its text
// appears on the page while it is being written (seen growing before the end), the
// finished explanation says which model wrote it, and Cancel stops a second one at the
// next token; after a reload the model comes from the browser's cache. WebGPU runs the
// same code; on SwiftShader a decoding step takes seconds, so
// this test stays on the CPU.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCheckedApp } from './selfcheck.mjs';
import { askLyme, reload } from './lyme.mjs';

test('CPU fallback: the answer is explained as the model writes, and Cancel stops it', { timeout: 900_000 }, async (t) => {
  const session = await openCheckedApp({ webgpu: false, backend: 'cpu' });
  const { page } = session;
  try {
    const asked = await askLyme(session);
    assert.equal(asked.answer, 'amoxicillin');

    const panel = page.getByTestId('explain');
    const explanation = page.getByTestId('explanation');
    await page.getByTestId('explain-button').click();
    // Streamed: text is on the page while the panel still says it is writing.
    const seen = new Set();
    const started = Date.now();
    while ((await panel.getAttribute('data-state')) === 'writing' && Date.now() - started < 600_000) {
      const text = await explanation.textContent();
      if (text.length > 0) seen.add(text.length);
      await page.waitForTimeout(100);
    }
    assert.equal(await panel.getAttribute('data-state'), 'done', session.report());
    const text = (await explanation.textContent()).trim();
    assert.ok(text.length > 20, `explanation: ${JSON.stringify(text)}`);
    assert.ok(seen.size >= 2, `text grew while being written (lengths seen: ${[...seen]})`);
    const detail = page.getByTestId('explanation-detail');
    const tokens = Number(await detail.getAttribute('data-tokens'));
    assert.ok(tokens > 0);
    t.diagnostic(`explanation (${tokens} tokens, ${await detail.getAttribute('data-stop')}): ${text}`);
    t.diagnostic(await detail.textContent());
    await page.getByTestId('explain').scrollIntoViewIfNeeded();
    await session.screenshot('explain-cpu-lyme');

    // A second explanation, stopped at once: the worker sees the request between two
    // tokens (the CPU backend never suspends on its own; the worker yields after each).
    await page.getByTestId('explain-button').click();
    await page.getByTestId('explain-cancel').click();
    await page.locator('[data-testid="explain"][data-state="cancelled"]').waitFor({ timeout: 300_000 });
    const stoppedAfter = Number(await detail.getAttribute('data-tokens'));
    assert.equal(await detail.getAttribute('data-stop'), 'cancelled');
    assert.ok(stoppedAfter <= 2 && stoppedAfter < tokens, `stopped after ${stoppedAfter} tokens`);

    // After a reload the model file comes from the browser's cache: no GGUF request.
    await reload(session, 'cpu');
    await askLyme(session);
    session.requests.length = 0;
    await page.getByTestId('explain-button').click();
    await page.locator('[data-testid="explain"][data-state="done"]').waitFor({ timeout: 600_000 });
    assert.match(await detail.textContent(), /from this browser's cache/);
    assert.deepEqual(session.requests.filter((r) => r.endsWith('.gguf')), [], 'the GGUF is not fetched again');

    assert.deepEqual(session.foreignRequests, [], session.report());
    assert.deepEqual(session.errors, [], session.report());
  } finally {
    await session.close();
  }
});
