// An independent JavaScript version of the engine's device self-check
// (engine/src/compute/check.rs): the same operands from the same formulas, softmax(A·B)
// in f64. The browser tests compare what the page computed with this.

import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

export const SHAPE = { m: 64, k: 48, n: 32 };
export const TOLERANCE = 1e-4;

export function reference({ m, k, n } = SHAPE) {
  const a = (i, j) => ((7 * i + 13 * j) % 17) / 8 - 1;
  const b = (j, l) => ((5 * j + 11 * l) % 19) / 9 - 1;
  const out = [];
  for (let i = 0; i < m; i++) {
    const logits = [];
    for (let l = 0; l < n; l++) {
      let s = 0;
      for (let j = 0; j < k; j++) s += Math.fround(a(i, j)) * Math.fround(b(j, l));
      logits.push(s);
    }
    const max = Math.max(...logits);
    const exps = logits.map((x) => Math.exp(x - max));
    const sum = exps.reduce((x, y) => x + y, 0);
    out.push(...exps.map((e) => e / sum));
  }
  return out;
}

export function maxAbsDiff(xs, ys) {
  if (xs.length !== ys.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < xs.length; i++) {
    const d = Math.abs(xs[i] - ys[i]);
    if (Number.isNaN(d)) return Infinity;
    worst = Math.max(worst, d);
  }
  return worst;
}

/** Waits for the page's self-check and returns what it shows. */
export async function readSelfCheck(page, timeout = 180_000) {
  const el = page.getByTestId('selfcheck');
  await el.waitFor({ timeout });
  return {
    state: await el.getAttribute('data-state'),
    text: await el.textContent(),
    values: JSON.parse((await el.getAttribute('data-values')) ?? '[]'),
    cpuMaxAbsDiff: Number(await el.getAttribute('data-cpu-max-abs-diff')),
    referenceMaxAbsDiff: Number(await el.getAttribute('data-reference-max-abs-diff')),
  };
}

/**
 * Opens the app, waits for the device self-check to pass and checks that the page shows
 * the expected backend: where every model check starts. Closes the session on failure.
 * @param {{ webgpu: boolean, backend: 'webgpu' | 'cpu', gpuProbe?: boolean, workerPrelude?: Function }} options
 */
export async function openCheckedApp({ webgpu, backend, gpuProbe = false, workerPrelude = null }) {
  const session = await openApp({ webgpu, gpuProbe, workerPrelude });
  try {
    await expectChecked(session, backend);
    return session;
  } catch (e) {
    await session.close();
    throw e;
  }
}

/** Waits for the self-check of the page `session` shows (after a load or a reload). */
export async function expectChecked(session, backend) {
  const selfCheck = await readSelfCheck(session.page);
  assert.equal(selfCheck.state, 'passed', session.report());
  const shown = await session.page.getByTestId('backend').getAttribute('data-backend');
  assert.equal(shown, backend, session.report());
}
