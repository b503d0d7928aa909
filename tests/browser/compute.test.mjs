// The compute path in a real browser: WebGPU (SwiftShader) when Chromium offers it, the
// CPU backend (burn-flex in wasm) when it does not — the same computation, checked
// against an independent reference either way.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';
import { SHAPE, TOLERANCE, maxAbsDiff, readSelfCheck, reference } from './selfcheck.mjs';

const EXPECTED = reference();

async function assertCleanRun(session) {
  assert.deepEqual(session.foreignRequests, [], `requests left 127.0.0.1\n${session.report()}`);
  assert.deepEqual(session.errors, [], `the page reported errors\n${session.report()}`);
}

test('WebGPU: the self-check runs on WebGPU and matches the CPU and an independent reference', { timeout: 300_000 }, async (t) => {
  const session = await openApp({ webgpu: true });
  try {
    const check = await readSelfCheck(session.page);
    const backend = session.page.getByTestId('backend');
    assert.equal(await backend.getAttribute('data-backend'), 'webgpu', `backend: ${await backend.textContent()}\n${session.report()}`);
    assert.match(await backend.textContent(), /WebGPU/);
    // The browser's own adapter description and limits (SwiftShader here).
    const adapter = await session.page.getByTestId('adapter').textContent();
    assert.match(adapter, /^Adapter: .+; largest buffer \d/);
    t.diagnostic(adapter);
    assert.equal(await session.page.getByTestId('fallback-reason').count(), 0);
    assert.equal(check.state, 'passed', `${check.text}\n${session.report()}`);
    assert.equal(check.values.length, SHAPE.m * SHAPE.n);
    assert.ok(check.cpuMaxAbsDiff <= TOLERANCE, `WebGPU vs CPU: ${check.cpuMaxAbsDiff}`);
    const diff = maxAbsDiff(check.values, EXPECTED);
    assert.ok(diff <= TOLERANCE, `WebGPU vs the JavaScript reference: max |Δ| ${diff}`);
    await session.screenshot('compute-webgpu');
    await assertCleanRun(session);
  } finally {
    await session.close();
  }
});

test('CPU fallback: without WebGPU the page says so and computes the same on the CPU', { timeout: 300_000 }, async () => {
  const session = await openApp({ webgpu: false });
  try {
    const check = await readSelfCheck(session.page);
    const backend = session.page.getByTestId('backend');
    assert.equal(await backend.getAttribute('data-backend'), 'cpu', `backend: ${await backend.textContent()}\n${session.report()}`);
    const reason = await session.page.getByTestId('fallback-reason').textContent();
    assert.match(reason, /WebGPU is not in use/);
    assert.match(reason, /Reason: \S/);
    assert.equal(check.state, 'passed', `${check.text}\n${session.report()}`);
    const diff = maxAbsDiff(check.values, EXPECTED);
    assert.ok(diff <= TOLERANCE, `CPU vs the JavaScript reference: max |Δ| ${diff}`);
    await session.screenshot('compute-cpu-fallback');
    await assertCleanRun(session);
  } finally {
    await session.close();
  }
});

test('?backend=cpu forces the CPU even where WebGPU works', { timeout: 300_000 }, async () => {
  const session = await openApp({ webgpu: true, query: '?backend=cpu' });
  try {
    const check = await readSelfCheck(session.page);
    assert.equal(await session.page.getByTestId('backend').getAttribute('data-backend'), 'cpu');
    assert.match(await session.page.getByTestId('fallback-reason').textContent(), /requested/);
    assert.equal(check.state, 'passed', check.text);
    await assertCleanRun(session);
  } finally {
    await session.close();
  }
});

test('the reference itself is peaked, so a backend that ignored the matmul would fail', () => {
  assert.ok(Math.max(...EXPECTED) > 0.3);
  const uniform = EXPECTED.map(() => 1 / SHAPE.n);
  assert.ok(maxAbsDiff(uniform, EXPECTED) > TOLERANCE);
});
